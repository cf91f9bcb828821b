"""Replies in a player's own words: cards said in words, the email pasted back, and refusals that
say what is wrong and what can be done now."""

import pytest
from django.core import mail
from django.urls import reverse

from games import services
from games.models import Event
from games.selectors import view_for
from mail.models import InboundEmail

from .conftest import reply
from .test_inbound import deliver

pytestmark = pytest.mark.django_db
RANKS = {"A": "ace", "T": "ten", "J": "jack", "Q": "queen", "K": "king"}
SUITS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


def said(code):
    """A card as a player says it: "jack of clubs", "8 of hearts"."""
    return f"{RANKS.get(code[:-1], code[:-1])} of {SUITS[code[-1]]}"


def answers_to(user):
    return [m for m in mail.outbox if m.to == [user.email] and m.tags == ["answer"]]


def at_the_play(game):
    """Both have laid away (on the site); the seat to play and its view."""
    for seat in (0, 1):
        services.submit_move(game, seat, view_for(game, seat).legal_moves[0])
    game.refresh_from_db()
    turn = view_for(game, 0).turn
    return turn, view_for(game, turn)


def test_a_discard_said_in_words_is_made(game, on_commit):
    hand = list(view_for(game, 0).hand)
    row = deliver(reply(game, 0, f"crib {said(hand[0])} and {said(hand[1])}"), on_commit)
    assert row.status == InboundEmail.Status.APPLIED
    assert Event.objects.get(game=game, source=Event.Source.EMAIL).data["cards"] == hand[:2]


def test_i_will_play_the_jack_of_clubs(game, on_commit):
    seat, view = at_the_play(game)
    card = view.playable[0]
    player = game.seats.get(number=seat).player
    row = deliver(reply(game, seat, f"I'll play the {said(card)}"), on_commit)
    assert row.status == InboundEmail.Status.APPLIED, answers_to(player)[-1].body
    assert Event.objects.get(game=game, source=Event.Source.EMAIL).data["card"] == card


def test_a_wrong_card_in_the_play_lists_the_cards_that_can_be_played(game, on_commit):
    seat, view = at_the_play(game)
    player = game.seats.get(number=seat).player
    other = next(c for c in ("AS", "AH", "AD", "AC", "2S") if c not in view.hand + view.my_discards)
    mail.outbox.clear()
    row = deliver(reply(game, seat, f"play {other}"), on_commit)
    assert row.status == InboundEmail.Status.ANSWERED
    body = answers_to(player)[0].body
    assert "You do not hold" in body and "You can play" in body


def test_a_reply_to_the_old_discard_email_says_the_discard_is_over(game, on_commit):
    seat, view = at_the_play(game)
    player = game.seats.get(number=seat).player
    thrown = list(view.my_discards)
    for words in (f"crib {thrown[0]} {thrown[1]}", thrown[0], f"{thrown[0]} {thrown[1]}"):
        mail.outbox.clear()
        deliver(reply(game, seat, words), on_commit)
        body = answers_to(player)[0].body
        assert "The discard is over" in body and "You do not hold" not in body, body
        assert "You can play" in body
    assert not Event.objects.filter(game=game, source=Event.Source.EMAIL).exists()


def test_a_turn_email_pasted_back_unquoted_is_not_read_as_commands(game, on_commit):
    alice = game.seats.get(number=0).player
    turn_email = next(m for m in mail.outbox if m.to == [alice.email] and m.tags == ["turn"])
    assert "Crib: " in turn_email.body
    mail.outbox.clear()
    row = deliver(reply(game, 0, "Thanks!\n\n" + turn_email.body), on_commit)
    assert row.status == InboundEmail.Status.ANSWERED and row.outcome.startswith("unreadable")
    assert "We could not read a move" in answers_to(alice)[0].body
    assert not Event.objects.filter(game=game, source=Event.Source.EMAIL).exists()


def test_a_rank_alone_is_asked_about_when_two_cards_of_it_differ(game, on_commit):
    alice = game.seats.get(number=0).player
    hand = list(view_for(game, 0).hand)
    ranks = [c[:-1] for c in hand]
    twice = next((r for r in ranks if ranks.count(r) > 1), None)
    once = next(r for r in ranks if ranks.count(r) == 1)
    name = {"T": "ten", "J": "jack", "Q": "queen", "K": "king", "A": "ace"}
    if twice is not None:
        mail.outbox.clear()
        deliver(reply(game, 0, f"crib the {name.get(twice, twice)} and the {name.get(once, once)}"), on_commit)
        body = answers_to(alice)[0].body
        assert "Which" in body and all(f'"{c}"' in body for c in hand if c[:-1] == twice)
    singles = [r for r in ranks if ranks.count(r) == 1]
    row = deliver(
        reply(game, 0, f"crib the {name.get(singles[0], singles[0])} and {hand[ranks.index(singles[1])]}"), on_commit
    )
    assert row.status == InboundEmail.Status.APPLIED


def test_a_move_by_reply_is_acknowledged_only_for_who_asked(game, on_commit):
    alice, bob = (game.seats.get(number=n).player for n in (0, 1))
    mail.outbox.clear()
    hand = list(view_for(game, 0).hand)
    deliver(reply(game, 0, f"crib {hand[0]} {hand[1]}"), on_commit)
    assert answers_to(alice) == []  # off by default: a quiet inbox
    bob.acknowledge_replies = True
    bob.save(update_fields=["acknowledge_replies"])
    hand = list(view_for(game, 1).hand)
    deliver(reply(game, 1, f"crib {said(hand[0])} and {said(hand[1])}"), on_commit)
    (answer,) = answers_to(bob)
    assert "Done. You laid away" in answer.body and "Nothing was changed" not in answer.body
    assert "Your hand:" in answer.body  # the game as it stands now


def test_the_profile_offers_the_acknowledgement_and_says_what_it_means(client, game):
    alice = game.seats.get(number=0).player
    client.force_login(alice)
    page = client.get(reverse("accounts:profile")).content.decode()
    assert "acknowledge_replies" in page and "the next email about the game says what happened" in page
