"""A whole game to 121 by email where each discard reply carries a pegging plan: about one email a hand.

Real parts as in test_end_to_end: a Celery worker on Redis, SMTP to aiosmtpd, replies posted to the
inbound webhook in Postmark's documented format. Each player answers each discard email with two
lines, "crib X Y" and "plan" with the four kept cards in a random order, and any other turn email
with one of its moves.
"""

import random
import re
import statistics

import pytest
from django.test import Client

from games import lifecycle
from games.cribbage import parse_cards
from games.models import Event
from mail.models import OutboundEmail
from tests.factories import make_user

from . import payloads
from .smtp_sink import text_part
from .test_end_to_end import play_by_mail, quoted_reply, smtp  # noqa: F401 (a fixture)

HAND_LINE = re.compile(r"^Your hand: (?P<cards>.+?)(\s{3}\(|$)", re.MULTILINE)


def emails_per_hand(game):
    """Turn emails sent to each seat in each hand: [(hand number, seat, emails)]."""
    deals = list(game.events.filter(kind="deal").order_by("seq").values_list("seq", flat=True))
    sent = OutboundEmail.objects.filter(game=game, kind=OutboundEmail.Kind.TURN, status=OutboundEmail.Status.SENT)
    counts = {(hand, seat): 0 for hand in range(1, len(deals) + 1) for seat in (0, 1)}
    for seq, seat in sent.values_list("seq", "seat"):
        hand = sum(1 for deal in deals if deal <= seq)
        counts[hand, seat] += 1
    return counts


@pytest.mark.redis
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_game_to_121_with_a_plan_in_every_discard_reply_costs_about_one_email_a_hand(celery_worker_on_redis, smtp):  # noqa: F811
    rng = random.Random(14)
    alice = make_user("alice@example.com", "Alice", password=None)
    bob = make_user("bob@example.com", "Bob", password=None)
    game = lifecycle.start_game(players=[alice, bob], rng=random.Random(21))
    client = Client()
    discards = []

    def reply(message, move):
        words = move["words"]
        if words.startswith("crib "):
            held = [c.code for c in parse_cards(HAND_LINE.search(text_part(message))["cards"])]
            thrown = words.split()[1:]
            kept = [c for c in held if c not in thrown]
            assert len(kept) == 4
            rng.shuffle(kept)
            words = f"{words}\nplan {' '.join(kept)}"
            discards.append(words)
        answer = payloads.compose(
            sender=message["To"],
            to=message["Reply-To"],
            subject="Re: " + message["Subject"],
            text=quoted_reply(message, words),
            headers={"In-Reply-To": message["Message-ID"], "References": message["Message-ID"]},
        )
        assert payloads.post(client, "postmark", answer).status_code == 200

    emails = play_by_mail(smtp, game, {alice.email, bob.email}, reply, rng)
    game.refresh_from_db()
    assert game.is_finished and game.finish == "target" and game.target == 121

    per_hand = sorted(emails_per_hand(game).values())
    assert sum(per_hand) == emails  # every email the players got, counted once
    at_most_two = sum(n <= 2 for n in per_hand) / len(per_hand)
    assert statistics.median(per_hand) <= 1.5 and at_most_two >= 0.9, per_hand
    print(
        f"emails per player per hand: median {statistics.median(per_hand)}, mean "
        f"{statistics.mean(per_hand):.2f}, at most two in {at_most_two:.0%} of {len(per_hand)}"
    )
    # The plans played the hands: every card laid came from a plan (or was forced), none by a reply.
    plays = game.events.filter(kind="play").values_list("source", flat=True)
    assert set(plays) <= {Event.Source.PLAN, Event.Source.FORCED} and Event.Source.PLAN in set(plays)
    assert game.events.filter(kind="plan", source=Event.Source.EMAIL).count() == len(discards)
