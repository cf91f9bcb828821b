"""The emails of play by email: a turn, the game's end, an answer to a reply. Each is the turn
or the result told to the seat (games.presenter.turn, from the seat's view alone), with what
only an email says: its subject (mail.subjects), the coach's notes after a discard or a hand
(games.presenter.coach_text), the table talk and, for a player who has not come back since
their last turn email (mail.quiet), what happened since (games.presenter.since); built by
mail.messages.build with the templates mail/email/turn.*, result.*, answer.*.
"""

from games import talk
from games.presentation import clock_text, help_text
from games.presenter.coach_text import turn_coach_lines
from games.presenter.since import since_lines
from games.presenter.table_text import game_title
from games.presenter.turn import result_context, turn_context
from games.selectors import view_for

from . import links, messages, quiet, subjects


def turn_message(game, seat, user, seat_row=None):
    """The turn email: the state and moves, the coach's notes after a discard or a hand and,
    for a player who has not come back since the last one (`seat_row`, the Seat, tells),
    what happened since that one."""
    context = turn_context(game, seat, user, links=links)
    context["coach"] = turn_coach_lines(game, seat, context["view"])
    context["subject_lead"] = subjects.turn_lead(context["view"], seat)
    context["subject_hand"] = context["view"].hand_number
    if seat_row is not None:
        last = quiet.last_turn_email(seat_row)
        if last is None:  # the first turn email of the game: its clock, as agreed, and its help
            context["clock_rules"] = clock_text(game)
            context["help_text"] = help_text(game.assistance)
        context["talk"] = talk.talk_to_tell(game, user, since=last[0] if last else None)
        if last is not None and not quiet.came_back_since(seat_row, *last):
            context["since"] = since_lines(game, seat, last[1])
            context["recent"] = [] if context["since"] else context["recent"]  # told in full above
    return messages.build("mail/email/turn", context, to=user.email, user=user, game_id=game.pk, seat=seat)


def result_message(game, seat, user):
    """The game-over email: the result, the last show, the coach's review, the record."""
    context = result_context(game, seat, user, links=links)
    context["subject_lead"] = subjects.result_lead(context["view"], seat)
    return messages.build("mail/email/result", context, to=user.email, user=user, game_id=game.pk, seat=seat)


def answer_message(game, seat, user, *, problem, words=None, include_state=True, changed=False):
    """An answer to a reply: what was wrong (or the help; or, `changed`, what the reply did), then
    the game and the moves legal now."""
    if include_state:
        context = turn_context(game, seat, user, links=links)
    else:  # the game's subject still, so the answer threads with the game's other emails
        context = {"game_id": game.pk, "moves": [], "title": game_title(view_for(game, seat))}
    context.update(problem=problem, words=words, changed=changed)
    return messages.build("mail/email/answer", context, to=user.email, user=user, game_id=game.pk, seat=seat)
