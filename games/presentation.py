"""Cards and scores for people: card chips, card names, and the show as rows.

Shared by the web pages, the emails and the command line, so that a score is
written the same way everywhere:

- `card_name(card)` -> "5 of hearts", "jack of diamonds"
- `card_chip(card)` -> <span class="card red" role="img" aria-label="5 of hearts">5♥</span>
- `card_face(card)` -> the card drawn as a card (inline SVG: rank and suit in the corners, the suit large)
- `card_back()` -> a card face down (the opponent's hand, the crib, the deck)
- `cards_text(cards, ascii=False)` -> "5♥ J♦" (or "5H JD")
- `kind_label(kind)` -> "fifteen", "pair royal", "run of three", ...
- `score_rows(score)` -> one `ShowRow` per combination, with the running total
  and the words a player says ("fifteen two", "a pair is four").
- `read_show(hand, starter, crib=False)` -> (hand cards, starter) from text or
  cards, or a ValueError whose message can be shown to the player as it is.
- `plural(2, "day")` -> "2 days"; `plural(1, "match", "matches")` -> "1 match"
- `clock_text(game)` -> "3 days per move; the clock stops at weekends ...; out of time loses the game."
- `won_text(winner, result, names, target)` -> "Alice won (Bob ran out of time), with a skunk"
- `help_text(assistance, finished)` -> whether the engine helps in a game, and why not

Suits are always written with their symbol, so colour is never the only sign.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import NamedTuple

from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe

from games.cribbage import Card, Score, ScoreItem, describe, parse_cards, rules_for
from games.cribbage.cards import card_from_code
from games.cribbage.scoring import number_words

__all__ = [
    "card_name",
    "card_chip",
    "card_chips",
    "card_face",
    "card_back",
    "cards_text",
    "kind_label",
    "ShowRow",
    "score_rows",
    "say_score",
    "read_show",
    "to_card",
    "plural",
    "won_text",
    "help_text",
    "SUIT_NAMES",
    "RANK_CHOICES",
    "SUIT_CHOICES",
]

SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RED_SUITS = frozenset("HD")
_RANK_NAMES = {1: "ace", 11: "jack", 12: "queen", 13: "king"}

# For pickers: (value accepted by parse_cards, what the player sees).
RANK_CHOICES = (
    [("A", "A")] + [(str(r), str(r)) for r in range(2, 10)] + [("T", "10"), ("J", "J"), ("Q", "Q"), ("K", "K")]
)
SUIT_CHOICES = [(s, f"{SUIT_SYMBOLS[s]} {SUIT_NAMES[s]}") for s in "SHDC"]


def to_card(card: Card | str) -> Card:
    """A Card from a Card or one card code ("5H", "10♥")."""
    return card if isinstance(card, Card) else card_from_code(str(card))


def in_card_order(cards: Iterable[Card | str]) -> list[str]:
    """Card codes low to high: by rank, then suit in one fixed order (♠ ♥ ♦ ♣, the deck's), the
    one order of every list of cards a player reads (hands, discards, the cards they keep)."""
    return [c.code for c in sorted(map(to_card, cards))]


def card_name(card: Card | str) -> str:
    """The card in words: "5 of hearts", "ace of spades", "10 of diamonds"."""
    card = to_card(card)
    return f"{_RANK_NAMES.get(card.rank, str(card.rank))} of {SUIT_NAMES[card.suit]}"


def card_chip(card: Card | str) -> SafeString:
    """A card as an HTML chip: <span class="card red" role="img" aria-label="5 of hearts">5♥</span>."""
    # A page draws dozens of cards of one deck: each is worked out once (chips, faces, backs).
    return _chip(card.code if isinstance(card, Card) else str(card))


@lru_cache(maxsize=256)
def _chip(code: str) -> SafeString:
    card = to_card(code)
    colour = "red" if card.suit in RED_SUITS else "black"
    return format_html(
        '<span class="card {}" role="img" aria-label="{}">{}</span>', colour, card_name(card), card.label
    )


def card_chips(cards: Iterable[Card | str]) -> SafeString:
    """Several chips separated by spaces."""
    return mark_safe(" ".join([card_chip(c) for c in cards]))  # noqa: S308 (chips, each escaped)


def card_face(card: Card | str) -> SafeString:
    """The card drawn as a playing card, an inline SVG of 60 by 84 units that the CSS sizes
    (.face); rank and suit in two corners and the suit large, so colour is never the only sign."""
    return _face(card.code if isinstance(card, Card) else str(card))


@lru_cache(maxsize=256)
def _face(code: str) -> SafeString:
    card = to_card(code)
    colour = "red" if card.suit in RED_SUITS else "black"
    rank, suit = card.label[:-1], SUIT_SYMBOLS[card.suit]
    return format_html(
        '<svg class="face {}" viewBox="0 0 60 84" role="img" aria-label="{}" data-card="{}">'
        '<rect class="face-paper" x="1" y="1" width="58" height="82" rx="6"/>'
        '<text class="face-rank" x="6" y="21">{}</text><text class="face-corner" x="6" y="37">{}</text>'
        '<text class="face-pip" x="32" y="66" text-anchor="middle">{}</text>'
        '<text class="face-rank" x="54" y="79" text-anchor="end">{}</text></svg>',
        colour,
        card_name(card),
        card.code,
        rank,
        suit,
        suit,
        rank,
    )


def card_back(label: str = "a card face down") -> SafeString:
    """A card face down: the opponent's hand, the crib, the deck before the starter is turned."""
    return _back(conditional_escape(label))


@lru_cache(maxsize=64)
def _back(label: SafeString) -> SafeString:
    return format_html(
        '<svg class="face back" viewBox="0 0 60 84" role="img" aria-label="{}">'
        '<rect class="face-paper" x="1" y="1" width="58" height="82" rx="6"/>'
        '<rect class="back-pattern" x="6" y="6" width="48" height="72" rx="3"/></svg>',
        label,
    )


def cards_text(cards: Iterable[Card | str], ascii: bool = False) -> str:
    """Plain text for emails and terminals: "5♥ J♦", or "5H JD" with ascii=True."""
    return " ".join(to_card(c).code if ascii else to_card(c).label for c in cards)


_KIND_LABELS = {
    "fifteen": "fifteen",
    "pair": "pair",
    "pair_royal": "pair royal",
    "double_pair_royal": "double pair royal",
    "run": "run",
    "flush": "flush",
    "nobs": "nobs",
    "heels": "his heels",
    "go": "go",
    "thirty_one": "thirty-one",
    "last_card": "last card",
    "pone_start": "three for last",
}


def kind_label(kind: str, cards: Sequence = ()) -> str:
    """A combination's name: "fifteen", "pair royal", "run of four", "five-card flush"."""
    if kind == "run" and cards:
        return f"run of {number_words(len(cards))}"
    if kind == "flush" and cards:
        return f"{number_words(len(cards))}-card flush"
    return _KIND_LABELS.get(kind, kind.replace("_", " "))


class ShowRow(NamedTuple):
    """One combination of a show, ready to display."""

    kind: str  # the engine's kind: "fifteen", "pair", "run", ...
    label: str  # "fifteen", "run of three", "four-card flush"
    cards: tuple  # the cards making it
    points: int
    running: int  # the count after it
    said: str  # what the player says: "fifteen two", "a pair is four"


def _said(item: ScoreItem, running: int) -> str:
    words = number_words(running)
    if item.kind == "fifteen":
        return f"fifteen {words}"
    if item.kind == "thirty_one":
        return f"thirty-one for {number_words(item.points)}" if item.points == running else f"thirty-one, {words}"
    article = {
        "nobs": "one for his nob",
        "heels": "two for his heels",
        "go": "one for the go",
        "last_card": "one for last",
        "pone_start": "three for last",
    }.get(item.kind)
    if article is None:
        article = "a " + kind_label(item.kind, item.cards)
    return f"{article} is {words}"


def score_rows(score: Score) -> list[ShowRow]:
    """Each combination of a score in the order it is counted aloud, with the running total."""
    rows, running = [], 0
    for item in score.items:
        running += item.points
        rows.append(
            ShowRow(
                item.kind,
                kind_label(item.kind, item.cards),
                tuple(item.cards),
                item.points,
                running,
                _said(item, running),
            )
        )
    return rows


def say_score(score: Score) -> str:
    """The whole count in words (the engine's `describe`): "fifteen two, ... is twenty-nine"."""
    return describe(score)


def _cards(value, what: str) -> list[Card]:
    if isinstance(value, str):
        try:
            return parse_cards(value)
        except ValueError as exc:
            raise ValueError(f"{what}: {exc}.") from None
    return [to_card(c) for c in value]


def read_show(hand, starter, crib: bool = False, five_card: bool = False) -> tuple[list[Card], Card]:
    """Check a hand (or crib) and starter for scoring; text or cards accepted.

    Returns (hand cards, starter). Raises ValueError with a message meant for
    the player: an unreadable card, a card named twice, the wrong number of
    cards (a hand has four, three in five-card cribbage; a crib always four),
    a missing starter or the starter also in the hand.
    """
    what = "Crib" if crib else "Hand"
    cards = _cards(hand, what)
    starters = _cards(starter if starter is not None else "", "Starter")
    rules = rules_for("five_card" if five_card else "two")
    size = rules.crib_size if crib else rules.kept_size
    if len(cards) != size:
        want = f"a {what.lower()} has {number_words(size)} cards"
        if five_card and not crib:
            want += " in five-card cribbage"
        raise ValueError(f"{what}: {want}; you gave {number_words(len(cards))}.")
    seen = set()
    for c in cards:
        if c in seen:
            raise ValueError(f"{what}: {c.label} ({card_name(c)}) is named twice; a deck has only one.")
        seen.add(c)
    if not starters:
        raise ValueError("Starter: name the starter card, e.g. 5D.")
    if len(starters) > 1:
        raise ValueError(f"Starter: one card only; you gave {number_words(len(starters))}.")
    start = starters[0]
    if start in seen:
        raise ValueError(
            f"Starter: {start.label} ({card_name(start)}) is already in the "
            f"{what.lower()}; a card can only be in one place."
        )
    return cards, start


def plural(n: int, word: str, words: str | None = None) -> str:
    """`n` and the word for that many: `words` is the plural when it is not `word` + "s"."""
    return f"{n} {word if n == 1 else words or word + 's'}"


_FINISH_WORDS = {
    "target": "reached {target}",
    "resign": "{loser} resigned",
    "forfeit": "{loser} forfeited",
    "timeout": "{loser} ran out of time",
}
_SKUNK_WORDS = {"skunk": "a skunk", "double_skunk": "a double skunk"}


def won_text(winner: str, result: dict, names: dict, target: int) -> str:
    """Who won a finished game and how, from a view's `result`: "Alice won (reached 121), with a skunk".

    `winner` is the winning side's name as the reader should see it ("You" for
    the winner themselves); `names` maps seat number to name.
    """
    loser = names.get(result["seat"], "") if result["seat"] is not None else ""
    reason = "timeout" if result["reason"] == "forfeit" and result.get("detail") == "timeout" else result["reason"]
    text = f"{winner} won ({_FINISH_WORDS.get(reason, reason).format(target=target, loser=loser)})"
    if result["skunk"]:
        text += f", with {_SKUNK_WORDS[result['skunk']]}"
    return text


_TIMEOUT_WORDS = {
    "forfeit": "out of time loses the game",
    "opponent_chooses": "out of time: the opponent may claim the game or wait",
    "computer_stands_in": "out of time: the computer plays for the absent player",
}


def clock_text(settings):
    """The clock rules of a game (or of the challenge that makes one) in words."""
    if getattr(settings, "practice", False):
        return "No clock: a practice game waits for you as long as you like."
    parts = [f"{plural(settings.days_per_move, 'day')} per move"]
    stops = [w for w, on in (("at weekends", settings.pause_weekends), ("at night", settings.pause_nights)) if on]
    if stops:
        parts.append("the clock stops " + " and ".join(stops) + " (each player's own time)")
    bank = getattr(settings, "time_bank_days", 0)
    if bank:
        parts.append(f"a time bank of {plural(bank, 'day')} each, spent a day at a time before a timeout")
    cap = getattr(settings, "vacation_cap_days", None)
    if cap is None:
        parts.append("vacation days stop the clock")
    elif cap == 0:
        parts.append("no vacation in this game")
    else:
        parts.append(f"vacation stops the clock for up to {plural(cap, 'day')} in this game")
    parts.append(_TIMEOUT_WORDS[settings.timeout_policy])
    return "; ".join(parts) + "."


_HELP_WORDS = {
    "advice": "Help is on: a practice game, so the best moves are suggested before you move "
    "and the coach judges your throws and pegging after.",
    "coach": "Help is on for every player in this game: the discards show their expected points "
    "and the coach judges each throw and the pegging.",
    "off": "No engine help in this game until it ends (no expected values, no coach): the players "
    "chose to play without it. Then every player gets the full review.",
    "off_by_rule": "No engine help in this game until it ends (no expected values, no coach): "
    "rated games (a ladder's) never have it. Then every player gets the full review.",
}


def help_text(assistance: str, finished: bool = False) -> str:
    """Whether the engine helps in a game (a Game.Assistance value), and why not when it does not."""
    if finished:
        return "The game is over: the full review of every throw and pegging choice is open to every player."
    return _HELP_WORDS[assistance]
