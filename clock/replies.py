"""The clock's reply words: "more time N" / "extend N" and "claim", answered for mail's reply reader;
"vacation N" and "back", in reply to any game's email or to the service's address."""

from games import cribbage, times
from games.cribbage.notation import read_number
from games.models import Event, Seat
from mail.game_replies import answer_word
from mail.models import InboundEmail
from mail.service_replies import answer_service_word

from . import selectors, timeouts, vacation
from .events import ClockError


def clock_word(game, number, player, command, answer):
    """ "more time N" / "extend N" and "claim": the clock's services decide; a refusal is
    answered with their reason (rate limited like any refusal) and changes nothing."""
    try:
        if command.kind == "claim":
            timeouts.claim_timeout(game, number, actor=player, source=Event.Source.EMAIL)
            return InboundEmail.Status.APPLIED, "claimed the game on time"
        to_seat = _more_time_seat(game, number)
        timeouts.grant_more_time(game, number, to_seat, command.number, source=Event.Source.EMAIL, actor=player)
    except ClockError as exc:
        answer(game, number, player, "clock", words=command.words, problem=exc.message)
        return InboundEmail.Status.ANSWERED, f"clock: {exc.message}"
    to = Seat.objects.select_related("player").get(game=game, number=to_seat)
    answer(
        game,
        number,
        player,
        "more_time",
        words=command.words,
        include_state=False,
        problem=(f"You gave {to} {command.number} more day{'s' if command.number != 1 else ''} in game {game.pk}."),
    )
    return InboundEmail.Status.APPLIED, f"more time: {command.number} days to seat {to_seat}"


def _more_time_seat(game, number):
    """Who "more time" is for: the opponent whose turn it is, or in a two-handed game the other seat."""
    rules = cribbage.Rules.from_json(game.rules)
    seats = list(game.seats.order_by("number"))
    opponents = [s for s in seats if rules.side_of(s.number) != rules.side_of(number)]
    acting = [s for s in opponents if s.to_act]
    if acting:
        return acting[0].number
    if len(seats) == 2:
        return opponents[0].number
    raise ClockError('None of your opponents is to move now: say "more time N" when one of them is.')


def start_vacation(user, days, source=Event.Source.EMAIL):
    """Start a vacation of `days` for `user` by email: what was done, in words. Raises ClockError."""
    if days is None:
        raise vacation.VacationError(
            f'Say how many days, e.g. "vacation 3": you hold {vacation.whole_days_left(user)} whole vacation days.'
        )
    away, paused = vacation.start_vacation(user, days, source=source)
    user.refresh_from_db()
    said = (
        f"Your vacation has started: {days} day{'s' if days != 1 else ''}, until "
        f"{times.deadline_text(away.ends_at, user)}. The clock stopped in {len(paused)} game"
        f"{'s' if len(paused) != 1 else ''} where it was your turn, and stays stopped in every turn that "
        f"starts while you are away; your opponents are told. You hold {vacation.whole_days_left(user)} "
        'whole days now. Write "back" to end it early: the days not used come back.'
    )
    running = selectors.turns_running_on(user, paused)
    if running:
        said += f" These games allow no (more) vacation and their clocks run: {', '.join(map(str, running))}."
    return said


def end_vacation(user, source=Event.Source.EMAIL):
    """End `user`'s vacation by email: what was done, in words. Raises ClockError."""
    away = vacation.end_vacation(user, source=source)
    if away is None:
        raise vacation.VacationError('You are not on vacation. To start one, write "vacation 3" (the days).')
    user.refresh_from_db()
    return (
        f"Welcome back: your vacation has ended and your clocks run again. You hold "
        f"{vacation.whole_days_left(user)} whole vacation days."
    )


def vacation_word(game, number, player, command, answer):
    """ "vacation N" / "back" in reply to a game's email: the vacation covers all the player's games."""
    try:
        said = start_vacation(player, command.number) if command.kind == "vacation" else end_vacation(player)
    except ClockError as exc:
        answer(game, number, player, "vacation", words=command.words, include_state=False, problem=exc.message)
        return InboundEmail.Status.ANSWERED, f"{command.kind}: {exc.message}"
    answer(game, number, player, "vacation", words=command.words, include_state=False, problem=said)
    return InboundEmail.Status.APPLIED, command.kind


def vacation_to_service(user, rest, line):
    """ "vacation N" to the service's address (mail.service_replies): (applied, [words])."""
    days = read_number(rest.split()[0]) if rest.split() else None
    try:
        return True, [start_vacation(user, days)]
    except ClockError as exc:
        return False, [f"{exc.message} Nothing was done."]


def back_to_service(user, rest, line):
    """ "back" to the service's address: (applied, [words])."""
    if rest:
        return False, ['To end your vacation, write "back" alone on the first line. Nothing was done.']
    try:
        return True, [end_vacation(user)]
    except ClockError as exc:
        return False, [exc.message]


answer_word("more_time", clock_word)
answer_service_word("vacation", vacation_to_service)
answer_service_word("back", back_to_service)
answer_word("vacation", vacation_word)
answer_word("back", vacation_word)
answer_word("claim", clock_word)
