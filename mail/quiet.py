"""The quiet inbox: at most one turn email per game until the player comes back.

A player who has not come back since their last turn email for a game gets
no other for it within TURN_EMAIL_HOLD; after that, one email that tells what
happened since.
"""

from dataclasses import dataclass
from datetime import timedelta

from django.utils import timezone

from games.models import PLAYER_SOURCES, Event

from . import rows

TURN_EMAIL_HOLD = timedelta(hours=6)


def last_turn_email(seat):
    """(sent_at, seq) of the last turn email sent to `seat`, or None."""
    return rows.last_turn_email(seat.game_id, seat.number)


def came_back_since(seat, moment, seq):
    """Has the player looked at the game, or moved themselves, since `moment` (state `seq`)?"""
    if seat.last_seen_at and seat.last_seen_at >= moment:
        return True
    return Event.objects.filter(game_id=seat.game_id, seat=seat.number, seq__gt=seq, source__in=PLAYER_SOURCES).exists()


def turn_email_hold(seat, now=None):
    """None: a turn email may go now. Otherwise the moment until which to hold it.

    A player who has not come back since their last turn email for this game
    gets no other for it within TURN_EMAIL_HOLD; after that, one email that
    tells what happened since (`last_turn_email(seat)[1]` is the state they were
    last told about).
    """
    return told(seat).hold(now)


@dataclass(frozen=True)
class Told:
    """What a seat was last told by a turn email: `last`, (sent_at, seq) of that email or None,
    and whether the player came back since (`back`), each read once for the hold and the email."""

    last: tuple | None
    back: bool

    def hold(self, now=None):
        """`turn_email_hold`'s answer."""
        if self.last is None or self.back:
            return None
        until = self.last[0] + TURN_EMAIL_HOLD
        return None if (now or timezone.now()) >= until else until

    @property
    def away(self):
        """Not come back since a turn email: the next one tells what happened since it."""
        return self.last is not None and not self.back


def told(seat, last=None, *, read=True):
    """The seat's Told: its last turn email (`last`, when `read` is False: the caller read it)
    and whether the player came back since."""
    if read:
        last = last_turn_email(seat)
    return Told(last, last is not None and came_back_since(seat, *last))
