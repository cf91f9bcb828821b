"""Clock emails: reminders before a deadline, timeouts, vacation notices.

Reminders: at most one per stage of a turn (see clock.deadlines.reminder_moments),
claimed by a conditional UPDATE of the seat's `reminder_stage` inside the
transaction that sends it, so two sweeps at once send it once, and a failed
send is tried again by the next sweep. Nobody is reminded while looking at
the game (visits.note_seen), nor if they chose no email.

These are plain Django emails built here (the outbox of mail is for
turn emails); they carry the game's reply address, so a reply such as
"more time 2" or a move reaches the game, and the same unsubscribe link.
"""
import logging

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.core.mail.message import make_msgid
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import timezone

from clock import deadlines
from games import follow_ups
from games.models import Game, Seat
from games.selectors import seats_with_players, view_for, with_seats
from games import visits
from games import times
from games.presentation import clock_text

log = logging.getLogger(__name__)

BATCH = 200


# --- Building and sending ----------------------------------------------------------

def build(template, user, subject, context, *, game_id=None, seat=None):
    """templates/clock/email/<template>.txt (and the HTML twin) as one email to `user`."""
    from mail import links, rendering

    context = {**context, "recipient": user, "site_url": settings.SITE_URL,
               "unsubscribe_url": links.unsubscribe_url(user)}
    text = render_to_string(f"clock/email/{template}.txt", context)
    html = render_to_string("clock/email/_html.html", {**context, "text": text})
    headers = {
        "Message-ID": make_msgid("clock", domain=settings.REPLY_DOMAIN),
        "Auto-Submitted": "auto-generated",
        "X-Auto-Response-Suppress": "All",
        "List-Unsubscribe": f"<{context['unsubscribe_url']}>",
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    }
    reply_to = []
    if game_id is not None and seat is not None:
        reply_to = [links.reply_address(game_id, seat)]
        headers.update({"In-Reply-To": rendering.thread_root(game_id), "References": rendering.thread_root(game_id)})
    message = EmailMultiAlternatives(subject, text, settings.DEFAULT_FROM_EMAIL, [user.email],
                                     reply_to=reply_to, headers=headers)
    message.attach_alternative(html, "text/html")
    return message


def _game_context(game, seat, user, view=None):
    """What every clock email about `game` says to `user` at `seat` (a Seat; `view`: theirs, if built)."""
    from mail import links, rendering

    return {
        "game": game, "seat": seat, "game_id": game.pk, "user": user,
        "title": rendering.game_title(view or view_for(game, seat.number)),
        "deadline": times.deadline_text(seat.deadline, user),
        "game_url": links.absolute(game.get_absolute_url()),
        "clock_rules": clock_text(game),
    }


NOTICES = ("send_claim_offer", "send_stand_in", "send_vacation_day", "send_vacation_notices")


def notify_later(name, *args, **kwargs):
    """After commit, queue notice `name` (one of NOTICES) as a Celery task: the sweep never waits
    on rendering and sending emails."""
    if name not in NOTICES:
        raise ValueError(f"unknown notice {name!r}")
    from clock import tasks

    follow_ups.enqueue_on_commit(tasks.send_notice, name, *args, **kwargs)


def _send_each(messages):
    for message in messages:
        try:
            message.send()
        except Exception:
            log.exception("A clock email could not be sent.")


# --- Reminders -------------------------------------------------------------------------

def due_reminders(now, limit=BATCH):
    """Seat ids whose next reminder is due (the partial index on Seat.remind_at)."""
    return list(Seat.objects.filter(to_act=True, remind_at__lte=now).order_by("remind_at")
                .values_list("pk", flat=True)[:limit])


def send_due_reminders(now=None, batch=BATCH):
    """Periodic: send the reminders that are due (a bounded batch). Returns how many went."""
    now = now or timezone.now()
    sent = 0
    for seat_id in due_reminders(now, batch):
        try:
            sent += remind(seat_id, now)
        except Exception:
            log.exception("Reminder for seat %s not sent; the next sweep tries again.", seat_id)
    return sent


def remind(seat_id, now=None):
    """Send `seat`'s due reminder once (1), or nothing (0: not due, already sent, looking, no email)."""
    now = now or timezone.now()
    seat = Seat.objects.select_related("game", "player").get(pk=seat_id)
    game = seat.game
    if not seat.to_act or seat.remind_at is None or seat.remind_at > now or game.is_finished:
        return 0
    if visits.is_looking(seat, now):
        return 0   # they are at the table; the next sweep looks again
    start = max(seat.turn_started_at, seat.paused_until or seat.turn_started_at)
    moments = deadlines.reminder_moments(start, seat.deadline, game.days_per_move)
    stage = deadlines.reminders_due(start, seat.deadline, game.days_per_move, now)
    later = [m for m in moments if m > now]
    with transaction.atomic():
        claimed = Seat.objects.filter(
            pk=seat.pk, to_act=True, turn_started_at=seat.turn_started_at,
            reminder_stage=seat.reminder_stage, deadline=seat.deadline,
        ).update(reminder_stage=max(stage, seat.reminder_stage + 1), remind_at=later[0] if later else None)
        if not claimed:
            return 0
        user = seat.player
        if user is None or not user.wants_email:
            return 0
        from mail import rendering

        view = view_for(game, seat.number)
        context = {**_game_context(game, seat, user, view), **rendering.turn_context(game, seat.number, user, view),
                   "deadline": times.deadline_text(seat.deadline, user, now),
                   "left": times.relative(seat.deadline - now)}
        message = build("reminder", user, f"Reminder: your move in game {game.pk} ({context['title']}), "
                                          f"time runs out {context['left']}",
                        context, game_id=game.pk, seat=seat.number)
        message.send()   # a failure rolls the claim back: the next sweep tries again
    return 1


# --- Timeouts ----------------------------------------------------------------------------

def _players_told(game, about_seat, template, subject, extra=None, only=None):
    """Tell the players of `game` (loaded `with_seats`) about seat number `about_seat`."""
    seats = seats_with_players(game)
    about = next(seat for seat in seats if seat.number == about_seat)
    messages = []
    for seat in seats:
        if seat.is_computer or not seat.player.wants_email:
            continue
        if only == "others" and seat.number == about_seat:
            continue
        if only == "self" and seat.number != about_seat:
            continue
        context = {**_game_context(game, seat, seat.player), "about": about,
                   "about_deadline": times.deadline_text(about.deadline, seat.player) if about.deadline else "",
                   "about_name": str(about), "is_me": seat.number == about_seat, **(extra or {})}
        messages.append(build(template, seat.player, subject.format(game=game, about=about), context,
                              game_id=game.pk, seat=seat.number))
    _send_each(messages)
    return len(messages)


def send_claim_offer(game_id, seat_number, only=None):
    """Out of time: the opponents may claim (opponent_chooses), and the player is told how long is left."""
    from clock import timeouts

    game = with_seats(Game.objects.all()).get(pk=game_id)
    return _players_told(game, seat_number, "claim_offer", "Game {game.pk}: {about} is out of time",
                         extra={"more_days": times.MAX_MORE_DAYS, "claim_words": timeouts.CLAIM_WORDS,
                                "may_claim": game.timeout_policy == Game.TimeoutPolicy.OPPONENT_CHOOSES},
                         only=only)


def send_stand_in(game_id, seat_number, move):
    from games import cribbage

    game = with_seats(Game.objects.all()).get(pk=game_id)
    return _players_told(game, seat_number, "stand_in", "Game {game.pk}: the computer moved for you",
                         extra={"move": cribbage.move_text(move)}, only="self")


def send_vacation_day(game_id, seat_number):
    from clock import vacation

    game = with_seats(Game.objects.all()).get(pk=game_id)
    user = next(seat.player for seat in seats_with_players(game) if seat.number == seat_number)
    return _players_told(game, seat_number, "vacation_day", "Game {game.pk}: a vacation day kept your game going",
                         extra={"days_left": int(vacation.days_left(user))}, only="self")


def send_vacation_notices(user_id, what):
    """Tell the opponents in every active game of `user_id` that they went away ("start") or came back."""
    from accounts.models import User

    user = User.objects.get(pk=user_id)
    messages = []
    games = with_seats(Game.objects.filter(status=Game.Status.ACTIVE, seats__player=user).distinct())
    for game in games:
        seats = seats_with_players(game)
        mine = next(seat for seat in seats if seat.player_id == user.pk)
        for seat in seats:
            if seat.is_computer or seat.player_id == user.pk or not seat.player.wants_email:
                continue
            context = {**_game_context(game, seat, seat.player), "away": user, "what": what,
                       "until": times.deadline_text(user.away_until, seat.player) if user.away_until else "",
                       "their_deadline": times.deadline_text(mine.deadline, seat.player) if mine.to_act else ""}
            subject = (f"Game {game.pk}: {user} is on vacation" if what == "start"
                       else f"Game {game.pk}: {user} is back")
            messages.append(build("vacation_notice", seat.player, subject, context,
                                  game_id=game.pk, seat=seat.number))
    _send_each(messages)
    return len(messages)
