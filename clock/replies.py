"""The clock's reply words: "more time N" / "extend N" and "claim", answered for mail's reply reader."""

from games import cribbage
from games.models import Event, Seat
from mail.game_replies import answer_word
from mail.models import InboundEmail

from . import timeouts
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


answer_word("more_time", clock_word)
answer_word("claim", clock_word)
