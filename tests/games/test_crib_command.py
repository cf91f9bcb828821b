"""`python manage.py crib score ...`: the command-line calculator."""

import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

ROOT = Path(__file__).resolve().parents[2]


def crib(*args):
    out = StringIO()
    call_command("crib", *args, stdout=out)
    return out.getvalue()


def test_the_29_hand():
    out = crib("score", "5H", "5C", "5S", "JD", "--starter", "5D")
    lines = out.splitlines()
    assert lines[0] == "Hand: 5♥ 5♣ 5♠ J♦  starter: 5♦"
    fifteens = [ln for ln in lines if ln.startswith("fifteen:")]
    assert len(fifteens) == 8
    assert any(ln.split(None, 1)[1] == "5♠ J♦ = 2" for ln in fifteens)
    assert any(ln.startswith("double pair royal:") and ln.endswith("5♣ 5♦ 5♥ 5♠ = 12") for ln in lines)
    assert any(ln.startswith("nobs:") and ln.endswith("J♦ = 1") for ln in lines)
    assert "Total: 29" in lines
    assert "and one for his nob is twenty-nine" in out


def test_crib_and_ascii():
    out = crib("score", "2H", "4H", "6H", "8H", "--starter", "KD", "--crib", "--ascii")
    assert out.splitlines()[0] == "Crib: 2H 4H 6H 8H  starter: KD"
    assert "Total: 0" in out and "nineteen" in out
    assert "Total: 4" in crib("score", "2H", "4H", "6H", "8H", "--starter", "KD")


def test_five_card_cribbage_hand_of_three():
    out = crib("score", "5H", "5C", "JD", "--starter", "5D", "--five-card")
    assert "Total: 15" in out  # four fifteens, a pair royal and nobs
    with pytest.raises(CommandError, match="has four cards; you gave three"):
        crib("score", "5H", "5C", "JD", "--starter", "5D")


@pytest.mark.parametrize(
    "args, message",
    [
        (("5H", "5X", "5S", "JD", "--starter", "5D"), "Cannot read '5X' as a card"),
        (("5H", "5H", "5S", "JD", "--starter", "5D"), "named twice"),
        (("5H", "5C", "--starter", "5D"), "you gave two"),
        (("5H", "5C", "5S", "JD", "--starter", "JD"), "already in the hand"),
    ],
)
def test_bad_cards_are_a_command_error(args, message):
    with pytest.raises(CommandError, match=message):
        crib("score", *args)


def test_missing_starter_or_subcommand_is_an_error():
    with pytest.raises(CommandError):
        crib("score", "5H", "5C", "5S", "JD")
    with pytest.raises(CommandError):
        crib()


def test_bad_cards_exit_non_zero_from_the_shell():
    manage = [sys.executable, str(ROOT / "manage.py"), "crib", "score"]
    bad = subprocess.run(manage + ["5H", "5X", "5S", "JD", "--starter", "5D"], capture_output=True, text=True, cwd=ROOT)
    assert bad.returncode != 0
    assert "Cannot read '5X' as a card" in bad.stderr
    good = subprocess.run(
        manage + ["5H", "5C", "5S", "JD", "--starter", "5D"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**__import__("os").environ, "PYTHONIOENCODING": "utf-8"},
    )
    assert good.returncode == 0 and "Total: 29" in good.stdout
