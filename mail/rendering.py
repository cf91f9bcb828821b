"""The emails of play by email: a turn, the game's end, an answer to a reply. Each is the turn
or the result told to the seat (games.presenter.turn, from the seat's view alone), with what
only an email says: its subject (mail.subjects), the coach's notes after a discard or a hand
(games.presenter.coach_text), the table talk and, for a player who has not come back since
their last turn email (mail.quiet), what happened since (games.presenter.since); built by
mail.messages.build with the templates mail/email/turn.*, result.*, answer.*, which read the
story's fields (TurnStory.as_context) beside the email's own names.
"""

from games import talk
from games.presentation import clock_text, help_text
from games.presenter.result import result_story
from games.presenter.table_text import game_title
from games.presenter.turn import turn_story
from games.selectors import view_for

from . import links, messages, quiet, subjects


def turn_message(game, seat, user, seat_row=None, told=None, any_talk=True):
    """The turn email: the state and moves, the coach's notes after a discard or a hand and,
    for a player who has not come back since the last one (`seat_row`, the Seat, tells; `told`,
    its quiet.Told when the caller has read it already), what happened since that one.
    `any_talk` False: the caller knows nothing was said at the table since the last one."""
    extra = {}
    if seat_row is not None and told is None:
        told = quiet.told(seat_row)
    last = told.last if told is not None else None
    if seat_row is not None:
        if last is None:  # the first turn email of the game: its clock, as agreed, and its help
            extra["clock_rules"] = clock_text(game)
            extra["help_text"] = help_text(game.assistance)
        extra["talk"] = talk.talk_to_tell(game, user, since=last[0] if last else None) if any_talk else []
    away = told is not None and told.away
    story = turn_story(game, seat, user, links=links, coach=True, since_seq=last[1] if away else None)
    context = {
        **story.as_context(),
        "subject_lead": subjects.turn_lead(story.view, seat),
        "subject_hand": story.view.hand_number,
        "event_name": subjects.event_name(game.pk, game.kept_as),
        **extra,
    }
    return messages.build("mail/email/turn", context, to=user.email, user=user, game_id=game.pk, seat=seat)


def result_message(game, seat, user):
    """The game-over email: the result, the last show, the coach's review, the record."""
    story = result_story(game, seat, user, links=links)
    context = {**story.as_context(), "subject_lead": subjects.result_lead(story.view, seat)}
    return messages.build("mail/email/result", context, to=user.email, user=user, game_id=game.pk, seat=seat)


def answer_message(game, seat, user, *, problem, words=None, include_state=True, changed=False):
    """An answer to a reply: what was wrong (or the help; or, `changed`, what the reply did), then
    the game and the moves legal now."""
    if include_state:
        context = turn_story(game, seat, user, links=links).as_context()
    else:  # the game's subject still, so the answer threads with the game's other emails
        context = {"game_id": game.pk, "moves": [], "title": game_title(view_for(game, seat))}
    context |= {"problem": problem, "words": words, "changed": changed}
    return messages.build("mail/email/answer", context, to=user.email, user=user, game_id=game.pk, seat=seat)
