"""Clock helpers for templates: deadlines in the reader's zone, the clock rules, the clock panels.

{% load clock %}
{{ seat.deadline|deadline_for:user }}      "Thu 3 Dec, 18:00 (in 2 days)" in the reader's time zone
{% clock_rules game %}                      the game's clock rules in words
{% game_clock game user %}                  deadlines, "give more time" and "claim" buttons
{% vacation_panel user %}                   the profile's vacation panel
"""

from django import template
from django.urls import reverse
from django.utils import timezone

from clock import calendar, deadlines, selectors, timeouts, vacation
from games import cribbage, times
from games.presentation import clock_text, plural
from games.selectors import seat_of
from mail import links

register = template.Library()


@register.filter
def deadline_for(deadline, user=None):
    """A deadline as the reader reads it: their own time zone, and how long from now."""
    return times.deadline_text(deadline, user)


@register.simple_tag
def clock_rules(game):
    return clock_text(game)


@register.inclusion_tag("clock/_game_clock.html")
def game_clock(game, user):
    now = timezone.now()
    mine = seat_of(game, user)
    rules = cribbage.Rules.from_json(game.rules)
    rows = []
    for seat in game.seats.all():
        opponent = mine is not None and rules.side_of(seat.number) != rules.side_of(mine.number)
        rows.append(
            {
                "seat": seat,
                "name": str(seat),
                "to_act": seat.to_act,
                "deadline": times.deadline_text(seat.deadline, user, now) if seat.deadline else "",
                "paused_until": times.deadline_text(seat.paused_until, user, now)
                if deadlines.is_paused(seat, now)
                else "",
                "timed_out": bool(seat.timed_out_at),
                "may_give_time": opponent and not seat.is_computer and not game.is_finished,
                "bank": _bank_text(seat.bank_seconds) if game.time_bank_days else "",
            }
        )
    claimable = timeouts.claimable_seat(game, mine.number) if mine is not None and not game.is_finished else None
    return {
        "game": game,
        "rows": rows,
        "rules": clock_text(game),
        "claimable": claimable,
        "max_days": times.MAX_MORE_DAYS,
        "finished": game.is_finished,
    }


def _bank_text(seconds):
    """ "2 days", "1 day 6 hours", "none"."""
    days, rest = divmod(seconds, 86400)
    hours = rest // 3600
    words = [plural(days, "day")] if days else []
    if hours:
        words.append(plural(hours, "hour"))
    return " ".join(words) or "none"


@register.inclusion_tag("clock/_vacation_panel.html")
def vacation_panel(user):
    now = timezone.now()
    away = user.away_until if user.away_until and user.away_until > now else None
    return {
        "days_left": vacation.whole_days_left(user, now),
        "exact_left": round(vacation.days_left(user, now), 1),
        "away_until": times.deadline_text(away, user, now) if away else "",
        "accrual_days": vacation.ACCRUAL_DAYS,
        "cap_days": vacation.CAP_DAYS,
        "max_length": vacation.MAX_LENGTH_DAYS,
        "spent": [{"day": spent.day, "games": games} for spent, games in selectors.days_spent(user)],
    }


@register.inclusion_tag("clock/_calendar_panel.html")
def calendar_panel(user):
    """The profile's calendar panel: the secret address of the feed of deadlines."""
    return {"feed_url": links.absolute(reverse("clock:calendar_feed", args=[calendar.key_for(user)]))}
