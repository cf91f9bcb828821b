"""The game's end told to a seat, from its view alone: the turn's story (`turn`) with the result,
the last show (or the last pegging, when the game was pegged out), the coach's review in a line,
the review's offer (`review`) and the record's link. The game-over email renders it
(mail.rendering)."""

from __future__ import annotations

from dataclasses import dataclass

from django.urls import reverse

from games.presentation import won_text
from games.selectors import view_for

from .coach_text import coach_lines, coach_notes_for
from .review import review_offer
from .table_text import cards_or_none, seat_names, show_line, side_names
from .turn import Links, TurnStory, turn_story


@dataclass(frozen=True, kw_only=True)
class ResultStory(TurnStory):
    """The game's end told to a seat (`result_story`): the turn's story with the result, the last
    show, the coach's review (in `coach`), its offer and the record's link."""

    result: list[str]
    last_show: list[str]
    last_show_title: str
    review_offer: list[str]
    record_url: str


def result_lines(view):
    """The result in words: who won, how, the skunk, the final scores; [] while playing."""
    result = view.result
    if not result:
        return []
    sides = side_names(view)
    seat = view.viewer
    mine = seat is not None and view.side_of_seat[seat] == result["winner"]
    text = won_text("You" if mine else sides[result["winner"]], result, seat_names(view), view.target)
    scores = ", ".join(f"{name} {score}" for name, score in zip(sides, result["scores"]))
    return [f"{text}.", f"Final scores: {scores}."]


def last_show_lines(view):
    """The last hand's show (or, when the game was pegged out, the last pegging), as the reader saw it."""
    names = seat_names(view)
    if view.shows:
        return [show_line(s, names, view.starter) for s in view.shows]
    prev = view.previous_hand
    if view.plays:
        lines = []
        for p in view.plays[-8:]:
            who = names.get(p["seat"])
            line = f"{who} said go" if p["go"] else f"{who} played {cards_or_none([p['card']])} (count {p['count']})"
            lines.append(line + (f"; pegged {p['points']}" if p["points"] else ""))
        return lines
    if prev:
        return [show_line(s, names, prev["starter"]) for s in prev["shows"]]
    return []


def result_story(game, seat, user=None, *, links: Links) -> ResultStory:
    """The game's end told to `seat`: its turn's story with the result, the last show, the coach's
    review, the review's offer and the record."""
    view = view_for(game, seat)
    turn = turn_story(game, seat, user, view=view, links=links)
    notes = coach_notes_for(game, seat)
    return ResultStory(
        **{**turn.as_context(), "coach": coach_lines({"review": notes["review"]}) if notes else []},
        result=result_lines(view),
        last_show=last_show_lines(view),
        last_show_title="The last show" if view.shows or not view.plays else "The last pegging",
        review_offer=review_offer(game, seat, links=links),
        record_url=links.absolute(reverse("games:record", args=[game.pk])),
    )
