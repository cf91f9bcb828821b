"""A turn told to a seat, from its view alone: what the others just did and pegged, the hand,
the starter, the count, the scores as a text board, the deadline, what is asked, and every move
the seat may make with the words to reply with and its link. The game's end (`result`) and its
review (`review`) are told as the turn's story with more.

Told as a typed story, a frozen dataclass read by attribute: `TurnStory` (`turn_story`) with its
`MoveChoice`s. Django
templates read their attributes as they read a dict's keys; a channel that adds its own (an
email's subject, its talk) puts the story's fields beside them with `as_context()`.

The channels render it with their own templates: the turn and result emails (mail.rendering),
the move link's pages (mail.views), the clock's emails. The links are the channel's: `links`
is an object with `move_url(game_id, seat, seq, move)`, `move_urls` (many at once) and `absolute(path)` (mail.links).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field, fields, replace
from typing import Any, Protocol

from django.utils import timezone

from games import times
from games.cribbage import card_from_code, describe_move
from games.cribbage.strategy import discard_options
from games.presentation import cards_text, in_card_order
from games.selectors import view_for

from .coach_text import turn_coach_lines
from .since import since_lines
from .table_text import board_rows, cards_or_none, game_title, recent_lines, seat_names

log = logging.getLogger(__name__)


class Links(Protocol):
    """The channel's links: a move's (signed, for the seat) and any page's, absolute."""

    def move_url(self, game_id: int, seat: int, seq: int, move: dict) -> str: ...

    def move_urls(self, game_id: int, seat: int, seq: int, moves: list[dict]) -> list[str]: ...

    def absolute(self, path: str) -> str: ...


@dataclass(frozen=True, kw_only=True)
class MoveChoice:
    """A move the seat may make: the words to reply with, what it shows (`label`, `note`; a
    discard's `cards`) and its link (`url`, the channel's, carrying the move's token)."""

    words: str
    label: str
    note: str
    url: str
    cards: list[str] | None = None


@dataclass(frozen=True, kw_only=True)
class TurnStory:
    """A turn told to a seat, from its view alone (`turn_story`)."""

    view: Any  # games.selectors.TableView
    game_id: int
    seq: int
    title: str
    me: str | None
    seat: int | None
    phase: str
    asked: str  # what to decide, in words
    recent: list[str]  # the others' moves since the seat last acted
    hand: list[str]
    hand_text: str
    played: list[str]  # each card once: the kept cards already played (the hand is what is left)
    played_text: str
    crib_owner: str | None
    starter: str | None
    starter_text: str
    count: int | None
    count_cards: list[str]
    count_text: str
    board: list[dict]
    deadline: str | None
    moves: list[MoveChoice]
    other_words: list[tuple[str, str]]
    plan_line: tuple[str, str] | None  # from the deal until the play ends: a plan in one line
    plan: Any
    game_url: str
    finished: bool
    # Told when asked (`turn_story(coach=True, since_seq=...)`): the coach's notes where the
    # game allows them, and what happened since the seat was last told (then `recent` is empty).
    coach: list[str] = field(default_factory=list)
    since: list[str] = field(default_factory=list)

    def as_context(self) -> dict[str, Any]:
        """The story's fields by name (not deep: `view` and the moves stay objects), for a channel
        that renders it beside its own names."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


# Words that can be sent at any time, besides the moves listed.
OTHER_WORDS = [
    ("status", "send this email again, with the game as it stands"),
    ("help", "how to reply"),
    ("resign", "concede the game"),
    ("more time N", f'give your opponent N more days for their move (1 to {times.MAX_MORE_DAYS}; or "extend N")'),
    ("say ...", "a word to the other players, shown at the top of their next email"),
    ("note ...", "your private note on this game"),
    ("games", "every game of yours: whose turn, the deadlines, each game's reply address"),
    ("vacation N", 'stop the clocks of all your games for N days ("back" ends it early)'),
]


CLAIM_WORD = ("claim", "win the game of an opponent who ran out of time (we tell you when you may)")


def other_words(game, view=None):
    """The words besides the moves and the plan: "claim" only in games where a timeout may be claimed."""
    words = count_ahead_words(view) if view and game.muggins else []
    words += OTHER_WORDS
    if game.timeout_policy == game.TimeoutPolicy.OPPONENT_CHOOSES:
        words.append(CLAIM_WORD)
    return words


def count_ahead_words(view):
    """Under muggins, in the play (the starter is turned): how to count the show ahead."""
    if view.phase != "play" or view.viewer is None or not view.kept:
        return []
    said = view.count_ahead
    return [
        (
            "count N",
            "your count of your hand with the starter, said now for the show, so you are not asked again; "
            "it is counted when your turn to show comes (and you then call no muggins on the count before yours)"
            + (f". You have said {said}" if said is not None else ""),
        )
    ]


def plan_words(view, discard=None):
    """A plan in one line the reader can copy, made of their own cards in card order (no other
    card may show): in the discard, with `discard` (the first listed) on the same line, so one
    line lays away and plays the whole hand."""
    hand = in_card_order(view.hand)
    if view.phase == "discard" and discard:
        kept = [c for c in hand if c not in discard]
        line = f"crib {' '.join(discard)} plan {' '.join(kept)}"
        meaning = (
            f"lays away {' '.join(discard)} and plays the others in this order at your turns, without an email for each"
        )
    elif view.phase == "play" and hand:
        line = f"plan {' '.join(hand)}"
        meaning = "plays your cards in this order at your turns, without an email for each"
    else:
        return []
    return [
        (
            line,
            f'It {meaning}. Rules too: "score first", "low first", "on 5 play {hand[-1]}", "ask"; "plan clear" '
            'drops it; "plan always score first, low first" plays every hand of all your games; reply "help".',
        )
    ]


def _deadline(view, user):
    """The reader's deadline, whole and with its zone: an email is read later, so unlike
    times.deadline_text it says no "in 2 days"."""
    for p in view.players:
        if p.seat == view.viewer and p.deadline:
            local = timezone.localtime(p.deadline, times.player_zone(user))
            return f"{local:%A %-d %B %Y, %H:%M} ({local.tzname()})"
    return None


def move_choices(view, game_id, seq, *, links: Links, with_values=False) -> list[MoveChoice]:
    """Every legal move as a MoveChoice (its words, label, note and link).

    With `with_values` (the game's help is on for this seat: Game.help_allowed_for)
    the discards come best first with their expected value; without it they come
    in a neutral order, by rank and suit, with only the cards they keep.

    Under muggins a card (or a count) is offered once: the player says what
    they claim ("play 7C claim N", "count N"), since listing every claim would
    tell them the true score (the view's legal moves carry no claim anyway:
    cribbage.moves_to_offer).
    """
    seat, choices, linked_moves = view.viewer, [], []

    def linked(move):  # the link's place, filled below: every link's row is read and made at once
        linked_moves.append(move)
        return ""

    moves = [{k: v for k, v in m.items() if k != "seat"} for m in view.legal_moves]
    discards = [m for m in moves if m["kind"] == "discard"]
    if discards and with_values:
        rules = view.rules
        my_side = view.side_of_seat[seat]
        owner_side = view.side_of_seat[view.crib_owner]
        held = [card_from_code(c) for c in view.hand]
        for option in discard_options(held, my_side == owner_side, players=rules["players"]):
            codes = in_card_order(option.discard)
            move = {**next(m for m in discards if in_card_order(m["cards"]) == codes), "cards": codes}
            ev = float(option.total_ev)
            choices.append(
                MoveChoice(
                    words=describe_move(move),
                    cards=move["cards"],
                    label=cards_text(move["cards"]),
                    note=f"keep {cards_text(in_card_order(option.keep))}: expected {ev:.2f} points "
                    f"(hand {float(option.hand_ev):.2f}, crib {float(option.crib_ev):+.2f})",
                    url=linked(move),
                )
            )
    elif discards:
        hand = in_card_order(view.hand)
        # By the first card's rank, then the second's: each discard written low card first.
        in_order = [{**m, "cards": in_card_order(m["cards"])} for m in discards]
        for move in sorted(in_order, key=lambda m: [card_from_code(c).index for c in m["cards"]]):
            keep = [c for c in hand if c not in move["cards"]]
            choices.append(
                MoveChoice(
                    words=describe_move(move),
                    cards=move["cards"],
                    label=cards_text(move["cards"]),
                    note=f"keep {cards_text(keep)}",
                    url=linked(move),
                )
            )
    seen = set()
    muggins = view.rules["muggins"]
    cards_first = sorted(moves, key=lambda m: card_from_code(m["card"]).index if m["kind"] == "play" else 52)
    for move in cards_first:
        kind = move["kind"]
        if kind == "play" and muggins:
            if move["card"] in seen:
                continue
            seen.add(move["card"])
            choices.append(
                MoveChoice(
                    words=describe_move(move, blank="N"),
                    label=cards_text([move["card"]]),
                    note="N: the points you claim for it",
                    url=linked({"kind": "play", "card": move["card"]}),
                )
            )
        elif kind == "play":
            choices.append(
                MoveChoice(
                    words=describe_move(move),
                    label=cards_text([move["card"]]),
                    note="",
                    url=linked(move),
                )
            )
        elif kind == "count":
            if "count" in seen:
                continue
            seen.add("count")
            choices.append(
                MoveChoice(
                    words=describe_move(move, blank="N"),
                    label="count",
                    note="N: the points you claim for this show",
                    url=linked({"kind": "count"}),
                )
            )
        elif kind == "muggins":
            choices.append(
                MoveChoice(
                    words=describe_move(move),
                    label="muggins",
                    note="take the points the last claim missed",
                    url=linked(move),
                )
            )
    urls = links.move_urls(game_id, seat, seq, linked_moves)
    return [replace(choice, url=url) for choice, url in zip(choices, urls, strict=True)]


def turn_story(game, seat, user=None, view=None, *, links: Links, coach=False, since_seq=None) -> TurnStory:
    """Everything a turn email or move page shows to `seat`, from its view alone, as a TurnStory.

    With `coach`, the coach's notes where the game allows them (after a discard or a hand); with
    `since_seq` (the state the seat was last told of), what happened since, in place of `recent`."""
    view = view or view_for(game, seat)
    names = seat_names(view)
    rules = view.rules
    crib_owner = view.crib_owner
    phase_words = {
        "discard": f"lay away {rules['discard_count']} card{'s' if rules['discard_count'] > 1 else ''} "
        f"to {'your' if crib_owner == seat else names.get(crib_owner, '') + chr(39) + 's'} crib",
        "play": "play a card",
        "show": "count your show",
    }
    played = _kept_and_played(view)
    moves = (
        move_choices(view, game.pk, view.seq, links=links, with_values=game.help_allowed_for(seat))
        if view.legal_moves
        else []
    )
    since = since_lines(game, seat, since_seq) if since_seq is not None else []
    return TurnStory(
        view=view,
        game_id=game.pk,
        seq=view.seq,
        title=game_title(view),
        me=names.get(seat),
        seat=seat,
        phase=view.phase,
        asked=phase_words.get(view.phase, ""),
        recent=[] if since else recent_lines(view),  # told in full in `since`
        hand=in_card_order(view.hand),
        hand_text=cards_or_none(in_card_order(view.hand)),
        # Each card once: the hand is what is left to play, then the kept cards already played.
        played=played,
        played_text=cards_or_none(played) if played else "",
        crib_owner="you" if crib_owner == seat else names.get(crib_owner),
        starter=view.starter,
        starter_text=cards_or_none([view.starter]) if view.starter else "not turned yet",
        count=view.count,
        count_cards=view.count_cards,
        count_text=cards_or_none(view.count_cards) if view.count_cards else "",
        board=board_rows(view),
        deadline=_deadline(view, user),
        moves=moves,
        other_words=other_words(game, view),
        # From the deal until the play ends: a plan in one line (with the first discard listed).
        plan_line=next(
            iter(plan_words(view, next((m.cards for m in moves if m.cards), None)) if seat is not None else []),
            None,
        ),
        plan=view.plan,
        game_url=links.absolute(game.get_absolute_url()),
        finished=game.is_finished,
        coach=turn_coach_lines(game, seat, view) if coach else [],
        since=since,
    )


def _kept_and_played(view):
    """The cards `view`'s seat kept and has played this hand (still counted in its show)."""
    if view.phase == "discard" or not view.kept:
        return []
    left = set(view.hand)
    return [c for c in view.kept if c not in left]
