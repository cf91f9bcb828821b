"""Cribbage at the command line.

    python manage.py crib score 5H 5C 5S JD --starter 5D [--crib] [--five-card] [--ascii]

Subcommands live in SUBCOMMANDS; add one with a `setup(parser)` and a
`run(command, options)` function (e.g. `crib discards` later).
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from games.cribbage import score_hand
from games.presentation import cards_text, read_show, say_score, score_rows


def _setup_score(parser):
    parser.add_argument(
        "cards", nargs="+", metavar="CARD", help="the hand (four cards, three in five-card cribbage), e.g. 5H 5C 5S JD"
    )
    parser.add_argument("--starter", "-s", required=True, help="the starter card, e.g. 5D")
    parser.add_argument("--crib", action="store_true", help="count it as the crib (a flush needs all five)")
    parser.add_argument("--five-card", action="store_true", help="five-card cribbage: a hand of three cards")
    parser.add_argument("--ascii", action="store_true", help="write cards as 5H rather than 5♥")


def _run_score(command, options):
    try:
        hand, starter = read_show(
            " ".join(options["cards"]), options["starter"], crib=options["crib"], five_card=options["five_card"]
        )
    except ValueError as exc:
        raise CommandError(str(exc)) from None
    ascii_ = options["ascii"]
    score = score_hand(hand, starter, crib=options["crib"])
    what = "Crib" if options["crib"] else "Hand"
    out = command.stdout
    out.write(f"{what}: {cards_text(hand, ascii_)}  starter: {cards_text([starter], ascii_)}")
    rows = score_rows(score)
    width = max((len(r.label) for r in rows), default=0)
    for row in rows:
        out.write(f"{row.label + ':':<{width + 1}} {cards_text(row.cards, ascii_)} = {row.points}")
    if not rows:
        out.write("nothing to count (a nineteen hand)")
    out.write(f"Total: {score.total}")
    out.write(f"({say_score(score)})")


SUBCOMMANDS = {
    "score": ("count a hand or crib with its starter", _setup_score, _run_score),
}


class Command(BaseCommand):
    help = "Cribbage tools: `crib score 5H 5C 5S JD --starter 5D [--crib]` counts a show."
    # A hand calculator: it needs no deployment (no secret, no database), so no system checks.
    requires_system_checks: list[str] = []

    def add_arguments(self, parser):
        sub = parser.add_subparsers(dest="subcommand", metavar="SUBCOMMAND", required=True)
        for name, (text, setup, _run) in SUBCOMMANDS.items():
            setup(sub.add_parser(name, help=text, description=text))

    def handle(self, *args, subcommand=None, **options):
        if subcommand not in SUBCOMMANDS:
            raise CommandError(f"Unknown subcommand {subcommand!r}; try one of: {', '.join(SUBCOMMANDS)}")
        SUBCOMMANDS[subcommand][2](self, options)
