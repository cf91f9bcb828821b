"""The clock's emails, rendered when the outbox sends them (registered in ClockConfig.ready()).

Each composer reads the latest state: a reminder for a turn already played,
a notice about a finished game, or a digest with no game waiting is not sent.
The templates are clock/email/<kind>.subject.txt, .txt and .html. Every
email about a game carries its reply address, so a reply such as
"more time 2" or a move reaches the game.
"""

from datetime import datetime

from django.utils import timezone

from accounts.models import User
from clock import selectors, timeouts, vacation
from games import cribbage, times
from games.models import Game
from games.presentation import clock_text
from games.presenter.table_text import game_title
from games.presenter.turn import turn_story
from games.selectors import seats_with_players, view_for, with_seats
from mail import links, messages
from mail.models import OutboundEmail

NOT_NEEDED = "not needed any more"


def _game_context(game, seat, user, view=None):
    """What every clock email about `game` says to `user` at `seat` (a Seat; `view`: theirs, if built)."""
    return {
        "game": game,
        "seat": seat,
        "game_id": game.pk,
        "user": user,
        "title": game_title(view or view_for(game, seat.number)),
        "deadline": times.deadline_text(seat.deadline, user),
        "game_url": links.absolute(game.get_absolute_url()),
        "clock_rules": clock_text(game),
    }


def _email(kind, row, context):
    return messages.build(
        f"clock/email/{kind}", context, to=row.user.email, user=row.user, game_id=row.game_id, seat=row.seat
    )


def _seats(row):
    """(game, its seats, the recipient's seat, the seat told about), or None once the game is over."""
    game = with_seats(Game.objects.filter(pk=row.game_id)).first()
    if game is None or game.is_finished:
        return None
    seats = seats_with_players(game)
    by_number = {seat.number: seat for seat in seats}
    return game, seats, by_number[row.seat], by_number[row.context.get("about_seat", row.seat)]


# --- Reminders and the digest -------------------------------------------------------------


def reminder(row, now=None):
    now = now or timezone.now()
    found = _seats(row)
    if found is None:
        return NOT_NEEDED
    game, _, seat, _ = found
    if not seat.to_act or seat.turn_started_at != datetime.fromisoformat(row.context["turn_started_at"]):
        return "the turn was played"
    user = row.user
    view = view_for(game, seat.number)
    context = {
        **_game_context(game, seat, user, view),
        **turn_story(game, seat.number, user, view, links=links).as_context(),
        "deadline": times.deadline_text(seat.deadline, user, now),
        "left": times.relative(seat.deadline - now),
    }
    return _email("reminder", row, context)


def daily_digest(row, now=None):
    now = now or timezone.now()
    user = row.user
    items = selectors.digest_items(user, now)
    if not items:
        return "no game waits any more"
    context = {
        "items": items,
        "hour": f"{user.digest_hour:02d}:00",
        "first_due": times.relative(items[0]["due"] - now) if items[0]["due"] else "",
    }
    return messages.build("clock/email/digest", context, to=user.email, user=user)


# --- Timeouts and vacations ------------------------------------------------------------------


def _told(kind, row, extra):
    found = _seats(row)
    if found is None:
        return NOT_NEEDED
    game, _, seat, about = found
    user = row.user
    context = {
        **_game_context(game, seat, user),
        "about": about,
        "about_name": str(about),
        "about_deadline": times.deadline_text(about.deadline, user) if about.deadline else "",
        "is_me": seat.number == about.number,
        **extra(game, seat, about),
    }
    return _email(kind, row, context)


def claim_offer(row):
    return _told(
        "claim_offer",
        row,
        lambda game, seat, about: {
            "more_days": times.MAX_MORE_DAYS,
            "claim_words": timeouts.CLAIM_WORDS,
            "may_claim": game.timeout_policy == Game.TimeoutPolicy.OPPONENT_CHOOSES,
        },
    )


def stand_in(row):
    return _told("stand_in", row, lambda game, seat, about: {"move": cribbage.describe_move(row.context["move"])})


def vacation_day(row):
    return _told("vacation_day", row, lambda game, seat, about: {"days_left": int(vacation.days_left(seat.player))})


def vacation_notice(row):
    away = User.objects.filter(pk=row.context["away"]).first()
    if away is None:
        return NOT_NEEDED

    def extra(game, seat, mine):
        user = seat.player
        return {
            "away": away,
            "what": row.context["what"],
            "until": times.deadline_text(away.away_until, user) if away.away_until else "",
            "their_deadline": times.deadline_text(mine.deadline, user) if mine.to_act else "",
        }

    return _told("vacation_notice", row, extra)


COMPOSERS = {
    OutboundEmail.Kind.REMINDER: reminder,
    OutboundEmail.Kind.DIGEST: daily_digest,
    OutboundEmail.Kind.CLAIM_OFFER: claim_offer,
    OutboundEmail.Kind.STAND_IN: stand_in,
    OutboundEmail.Kind.VACATION_DAY: vacation_day,
    OutboundEmail.Kind.VACATION_NOTICE: vacation_notice,
}
