"""An inbox a person can sort: each game email's subject says what is asked or what happened, then
the game (and its event); the discards are listed in one card order, with a plan in one line."""

import re

import pytest
from django.core import mail

from games.cribbage import card_from_code
from mail import messages
from tests.factories import committed, finish_game

from .conftest import reply
from .test_inbound import deliver

pytestmark = pytest.mark.django_db

DECISION = re.compile(
    r"^(Your discard — Alice v Bob, hand \d+"
    r"|(Your lead|Your play at \d+"
    r"|(Alice|Bob) (said go|laid \S+( for [^:]+)?): your (lead|play at \d+)) — Alice v Bob, hand \d+"
    r"|Your count — Alice v Bob, hand \d+) \(game \d+\)$"
)
MOVE_LINE = re.compile(r"^(?P<words>(crib|play) [^ ]+( [^ ]+)?)   ", re.M)


def seat_of(message, game):
    return next(s.number for s in game.seats.select_related("player") if s.player.email == message.to[0])


def moves_in(message):
    return [m["words"] for m in MOVE_LINE.finditer(message.body)]


def in_card_order(codes):
    return [card_from_code(c).index for c in codes]


def test_consecutive_turn_emails_of_a_game_by_email_name_different_decisions(game, on_commit):
    subjects, read, discard_lists = {0: [], 1: []}, 0, []
    while len(subjects[0]) + len(subjects[1]) < 40:
        turns = [m for m in mail.outbox[read:] if m.tags == ["turn"]]
        read = len(mail.outbox)
        assert turns, "a move by email owes the next turn email"
        for message in turns:
            seat = seat_of(message, game)
            subjects[seat].append(message.subject)
            # Threaded as before: every email of the game refers to its root.
            assert message.extra_headers["References"] == messages.thread_root(game.pk)
            moves = moves_in(message)
            if moves[0].startswith("crib"):
                discard_lists.append(moves)
            deliver(reply(game, seat, moves[0]), on_commit)
    for said in subjects.values():
        assert all(DECISION.match(s) for s in said), said
        assert all(a != b for a, b in zip(said, said[1:])), said
    assert sum(s.startswith("Your discard") for s in subjects[0] + subjects[1]) >= 4
    assert any(" laid " in s and " for " in s for s in subjects[0] + subjects[1])
    # Each discard low card first, the list by the first card's rank then the second's.
    for moves in discard_lists:
        pairs = [in_card_order(words.split()[1:]) for words in moves]
        assert all(a < b for a, b in pairs) and pairs == sorted(pairs) and len(pairs) == 15


def test_the_discard_email_offers_a_whole_hand_in_one_line(game):
    message = next(m for m in mail.outbox if m.tags == ["turn"] and seat_of(m, game) == 0)
    first = moves_in(message)[0].split()[1:]
    line = re.search(r"^Or a whole hand in one line .*\n  (crib \S+ \S+ plan( \S+){4})\n", message.body, re.M)
    assert line and line[1].split()[1:3] == first
    kept = line[1].split()[4:]
    assert in_card_order(kept) == sorted(in_card_order(kept))


def test_the_game_over_email_says_who_won_and_the_scores(game):
    mail.outbox.clear()
    with committed():
        finish_game(game, winner=1)
    over = [m for m in mail.outbox if m.tags == ["result"]]
    assert {m.to[0] for m in over} == {"alice@example.com", "bob@example.com"}
    for message in over:
        mine = message.to[0] == "bob@example.com"
        assert re.match(
            rf"^{'You' if mine else 'Bob'} won 121–\d+(, a (double )?skunk)? — Alice v Bob \(game {game.pk}\)$",
            message.subject,
        ), message.subject
