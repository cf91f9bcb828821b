"""Clock helpers for templates: deadlines in the reader's zone, the clock rules, the clock panels.

{% load clock %}
{{ seat.deadline|deadline_for:user }}      "Thu 3 Dec, 18:00 (in 2 days)" in the reader's time zone
{% move_due deadline user %}                "Move due by ..." on the game page
{% clock_rules game %}                      the game's clock rules in words
{% game_clock game user %}                  deadlines, "give more time" and "claim" buttons
{% vacation_panel user %}                   the profile's vacation panel
"""

from django import template
from django.template.defaultfilters import date
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.utils.timezone import localtime

from clock import calendar, deadlines, selectors, timeouts, vacation
from games import cribbage, markup, times
from games.presentation import clock_text, plural
from games.selectors import seat_of
from mail import links

register = template.Library()


@register.filter
def deadline_for(deadline, user=None):
    """A deadline as the reader reads it: their own time zone, and how long from now."""
    return times.deadline_text(deadline, user)


@register.simple_tag
def move_due(deadline, user=None):
    """The game page's "Move due by" (the deadline in the reader's zone, and how long from now)
    as `{% if deadline %}<span class="deadline">Move due by <time datetime="{{ deadline|date:'c' }}">
    {{ deadline|deadline_for:user }}</time>.</span>{% endif %}` drew it, written out: every look
    at the page draws it."""
    if not deadline:
        return ""
    moment = markup.escaped(date(localtime(deadline), "c"))
    due = markup.escaped(times.deadline_text(deadline, user))
    return mark_safe(f'<span class="deadline">Move due by <time datetime="{moment}">{due}</time>.</span>')  # noqa: S308


@register.simple_tag
def clock_rules(game):
    return clock_text(game)


@register.simple_tag(takes_context=True)
def game_clock(context, game, user):
    """The game page's clock panel (`panel_rows`), written out as clock/_game_clock.html draws it
    (a test renders both): the page draws it on every look, a template cost it several times more."""
    return clock_panel(game_clock_rows(game, user), context.get("csrf_token"))


def game_clock_rows(game, user):
    """What the clock panel shows `user`: clock/_game_clock.html's context."""
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


def clock_panel(panel, csrf_token):
    """clock/_game_clock.html's markup for `panel` (game_clock_rows), the form's CSRF token
    `csrf_token` (None or "NOTPROVIDED": none, as {% csrf_token %} writes it)."""
    csrf = markup.csrf_input(csrf_token)
    finished, game = panel["finished"], panel["game"]
    html = [
        '<section class="game-clock" aria-labelledby="clock-heading">\n  <h2 id="clock-heading">Clock</h2>\n'
        f'  <p class="clock-rules">{markup.escaped(panel["rules"])}</p>\n  <ul>\n  '
    ]
    for row in panel["rows"]:
        name = markup.escaped(row["name"])
        deadline = markup.escaped(row["deadline"])
        if finished:
            state = "—\n      "
        elif row["paused_until"]:
            paused = markup.escaped(row["paused_until"])
            state = f"on vacation; clock stopped until {paused} (deadline {deadline})\n      "
        elif row["to_act"] and not row["deadline"]:
            state = "to move\n      "
        elif row["to_act"]:
            out = " — <strong>out of time</strong>" if row["timed_out"] else ""
            state = f"to move by <time>{deadline}</time>{out}\n      "
        else:
            state = "waiting"
        bank = (
            f'<span class="muted">(time bank: {markup.escaped(row["bank"])} left)</span>'
            if row["bank"] and not finished
            else ""
        )
        html.append(f"\n    <li>{name}:\n      {state}\n      {bank}\n      ")
        if row["may_give_time"]:
            action = markup.escaped(markup.kept_url("clock:more_time", game.pk))
            html.append(
                f'\n      <form method="post" action="{action}" class="inline">{csrf}\n'
                f'        <input type="hidden" name="seat" value="{markup.escaped(row["seat"].number)}">\n'
                f'        <label>Give {name} <input type="number" name="days" min="1"'
                f' max="{markup.escaped(panel["max_days"])}" value="1" size="2"> more day(s)</label>\n'
                '        <button type="submit" class="secondary">Give more time</button>\n      </form>\n      '
            )
        html.append("\n    </li>\n  ")
    html.append("\n  </ul>\n  ")
    if panel["claimable"]:
        action = markup.escaped(markup.kept_url("clock:claim", game.pk))
        html.append(
            f'\n  <form method="post" action="{action}">{csrf}\n'
            f"    <p>{markup.escaped(panel['claimable'])} ran out of time. Claim the game, or give more time above.</p>\n"
            '    <button type="submit">Claim the game</button>\n  </form>\n  '
        )
    html.append("\n</section>\n")
    return mark_safe("".join(html))  # noqa: S308 (every value escaped)


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
