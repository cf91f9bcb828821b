"""Every refusal the engine can give a player has words on each channel, and no table names a code
the engine does not have."""

import pytest

from games import cribbage
from games.presenter import refusals
from games.presenter import refusals as mail_refusals  # one table: each row says a refusal on every channel
from tests.engine.test_notation import REFUSED

# Codes only a program can cause (a malformed event, a chance event): said with the engine's reason.
PROGRAM_ONLY = {"malformed", "unknown_kind", "chance_not_due", "bad_cut", "bad_deck"}


def test_the_game_pages_have_words_for_every_refusal_a_player_can_meet():
    assert set(refusals.WORDS) >= set(cribbage.REFUSALS) - PROGRAM_ONLY
    assert set(refusals.WORDS) <= set(cribbage.REFUSALS) | set(cribbage.INVALID)


def test_the_reply_answers_name_only_codes_that_exist():
    assert set(mail_refusals.WORDS) <= set(cribbage.REFUSALS) | set(cribbage.INVALID)
    assert set(cribbage.INVALID) <= set(mail_refusals.WORDS)


@pytest.mark.parametrize("state, event, code, params", REFUSED, ids=[f"{i}-{row[2]}" for i, row in enumerate(REFUSED)])
def test_each_refusal_is_said_in_the_players_words(state, event, code, params):
    with pytest.raises(cribbage.IllegalMove) as caught:
        cribbage.apply(state, event)
    words = refusals.refusal_words(caught.value)
    assert words and "Seat " not in words and "Legal moves" not in words
    seat = event.get("seat") if isinstance(event, dict) else None
    view = cribbage.seat_view(state, seat if isinstance(seat, int) and seat < state.rules.players else None)
    kind, said = mail_refusals.answer(code, params, view, message=f"{words}.")
    assert said and "Seat " not in said and "Legal moves" not in said
