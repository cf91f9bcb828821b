"""The turn told to a seat is a typed, frozen story (games.presenter.turn.TurnStory) that the
emails and the move pages render; the channel's own names go beside it, never into it."""

import dataclasses

import pytest

from games.presenter.turn import MoveChoice, TurnStory, turn_story
from mail import links


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
