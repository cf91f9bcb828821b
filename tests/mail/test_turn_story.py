"""The turn told to a seat is a typed, frozen story (games.presenter.turn.TurnStory) that the
emails and the move pages render, and so are the game's end and its review (presenter.result,
presenter.review); the channel's own names go beside it, never into it."""

import dataclasses
import random

import pytest

from games import reviews, services
from games.presenter.result import ResultStory, result_story
from games.presenter.review import ReviewStory, review_story
from games.presenter.turn import MoveChoice, TurnStory, turn_story
from games.selectors import view_for
from mail import links
from tests.factories import make_user, start_two_player_game


def test_the_turn_is_a_frozen_story_with_its_moves_typed(game):
    story = turn_story(game, 0, game.seats.get(number=0).player, links=links)
    assert isinstance(story, TurnStory)
    assert story.phase == "discard" and story.asked.startswith("lay away 2 cards")
    assert story.moves and all(isinstance(m, MoveChoice) for m in story.moves)
    first = story.moves[0]
    assert first.cards and first.words.startswith("crib ") and first.url.startswith("http")
    assert story.plan_line is not None and story.plan_line[0].startswith(f"crib {' '.join(first.cards)} plan ")
    assert story.coach == [] and story.since == []  # told only when asked (the turn email asks)
    with pytest.raises(dataclasses.FrozenInstanceError):
        story.phase = "play"  # type: ignore[misc]
    context = story.as_context()
    assert context["view"] is story.view and context["moves"] is story.moves
    assert set(context) == {f.name for f in dataclasses.fields(TurnStory)}


def test_the_game_end_and_its_review_are_frozen_stories_beside_the_turns(db):
    alice = make_user("alice@example.com", "Alice", allow_forced_moves=False, password=None)
    bob = make_user("bob@example.com", "Bob", allow_forced_moves=False, password=None)
    game = start_two_player_game(players=[alice, bob], rng=random.Random(11))
    for seat in (0, 1):
        services.submit_move(game, seat, view_for(game, seat).legal_moves[0])
    services.submit_move(game, 1, {"kind": "resign"})
    game.refresh_from_db()
    reviews.prepare(game.pk)

    result = result_story(game, 0, alice, links=links)
    assert isinstance(result, ResultStory) and result.finished
    assert result.result[0].startswith("You won") and result.result[-1].startswith("Final scores: Alice")
    assert result.review_offer and result.review_offer[-1].endswith(f"{game.get_absolute_url()}#review")

    story = review_story(game, 0, alice, links=links)
    assert isinstance(story, ReviewStory) and story.seat == 0
    assert story.summary[0].startswith("About ") and story.review_url.endswith("#review")
    assert story.hands and all(hand[0].startswith("Hand ") for hand in story.hands)
    assert set(story.as_context()) == {f.name for f in dataclasses.fields(ReviewStory)}
    with pytest.raises(dataclasses.FrozenInstanceError):
        story.summary = []  # type: ignore[misc]
