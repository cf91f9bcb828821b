"""The review of a finished game by email, sent on the reply "review" (the game-over email
offers it): games.presenter.review's story rendered with the email's templates. The answer is
the worker's, never a request's: asked for before the review's own task (games.reviews) has
stored it, it is stored here first.
"""

from games import coaching, reviews
from games.presenter.review import review_story

from . import links, messages


def review_message(game, seat, user):
    """The whole review of a finished game for `seat`, as an answer to the reply "review"."""
    review = coaching.full_review(game, seat)
    if review is None:
        reviews.prepare(game.pk)
        review = coaching.full_review(game, seat)
    story = review_story(game, seat, user, links=links, review=review)
    return messages.build("mail/email/review", story.as_context(), to=user.email, user=user, game_id=game.pk, seat=seat)
