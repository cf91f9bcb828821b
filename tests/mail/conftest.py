import random

import pytest
from anymail.inbound import AnymailInboundMessage

from mail import links
from tests.factories import genuine, make_user, start_two_player_game


@pytest.fixture
def game(db, django_capture_on_commit_callbacks):
    """A dealt two-player game between Alice (seat 0) and Bob (seat 1); both got their turn email."""
    alice = make_user("alice@example.com", "Alice", allow_forced_moves=False, password=None)
    bob = make_user("bob@example.com", "Bob", allow_forced_moves=False, password=None)
    with django_capture_on_commit_callbacks(execute=True):
        return start_two_player_game(players=[alice, bob], rng=random.Random(7))


@pytest.fixture
def helped_game(db, django_capture_on_commit_callbacks):
    """The same table as `game`, but the players agreed to "help on for both"."""
    alice = make_user("alice@example.com", "Alice", allow_forced_moves=False, password=None)
    bob = make_user("bob@example.com", "Bob", allow_forced_moves=False, password=None)
    with django_capture_on_commit_callbacks(execute=True):
        return start_two_player_game(players=[alice, bob], rng=random.Random(7), help_on=True)


@pytest.fixture
def on_commit(django_capture_on_commit_callbacks):
    """Run on-commit callbacks (the queued tasks, eager here) at the end of the block."""
    return lambda: django_capture_on_commit_callbacks(execute=True)


def reply(game, seat, body, *, sender=None, to=None, subject=None, headers=None, message_id=None):
    """A reply as a mail client sends it (the player's words above the quoted turn email), as it
    reaches us: with the receiving server's passing, aligned checks unless `headers` replace them."""
    player = game.seats.get(number=seat).player
    sender = sender or f"{player.display_name} <{player.email}>"
    all_headers = {"Message-ID": message_id or f"<{random.getrandbits(64):x}@mail.example.com>", **genuine(sender)}
    all_headers.update(headers or {})
    return AnymailInboundMessage.construct(
        from_email=sender,
        to=to or links.reply_address(game.pk, seat),
        subject=subject or f"Re: Your move: Alice v Bob (game {game.pk})",
        text=body + "\n\nOn Mon, Jun 2, 2025 at 10:00 AM Cribbage by mail <cribbage@localhost> wrote:\n> old\n",
        headers=all_headers,
    )
