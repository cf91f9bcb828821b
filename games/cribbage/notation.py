"""Moves in words: how a player writes a move, and how the service writes one back.

The engine's moves are dicts (`{"kind": "play", "card": "7C"}`); this module is
their notation, the same for every channel (reply emails, move links, web
forms, the words listed in emails):

- `read(words)` -> `Reading` or None: what one line of a player's words says
  ("crib 5H JD" or just "5H JD", "play 7C" or just "7C", "play 7C claim 2",
  "go", "count 12", "muggins", "resign", "plan 7C 8D ask" (see plans.py)); None when
  the line is not a move at all. A plan may follow a move on its line (`Reading.then`);
  another instruction after the move is kept unread, and the line refused for it.
  Invisible format characters (zero-width space, BOM, soft hyphen) are dropped first. Cards may be said in words (card_words): "I'll play
  the jack of clubs", "8 of clubs", "crib five of hearts and jack of diamonds", and a
  rank alone, "the 7", is resolved against the hand.
- `to_move(reading, phase, muggins=False, hand=None)` -> the move it names at that
  phase of the game (just cards are a discard in the discard, a play in the play);
  `hand` (the cards held) resolves a rank said alone: the one card of that rank held,
  or in the play any of them (a play scores by rank alone); two of different effect
  (in the discard, where suits make flushes and nobs) are a question, "which_card".
- `read_move(words, phase, muggins=False)`: both at once.
- `write(move)` -> "crib 5H JD", "play 7C", "play 7C claim 2", "count 12", "muggins"
  (its home is `move_words`, below the rules, which say moves in the same words).
- `from_form(action, ...)` -> the move a web form names; `same_move(a, b)`, `is_offered(move,
  offered)`: whether two moves are one choice; `number_to_say(move, muggins)`: "claim" or
  "points" when the player must still say a number (their home is `move_choices`).

Two different errors, as in python-chess: `InvalidMove` (here) when the words
do not make a move, `engine.IllegalMove` when a readable move is refused by the
rules. Both carry a `code` and `params` for channels to put in their own words.

A new instruction word is one entry in READERS (a reader: the tokens after the
word -> a Reading); a new kind of move is one entry in BUILDERS too.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from .card_words import RANK_NAMES, normalise, rank_of
from .cards import card_from_code, parse_cards
from .move_choices import from_form, is_offered, number_to_say, same_move
from .move_words import write
from .plans import PlanProblem, read_plan

__all__ = [
    "InvalidMove",
    "INVALID",
    "Reading",
    "READERS",
    "BUILDERS",
    "read",
    "visible",
    "to_move",
    "read_move",
    "write",
    "from_form",
    "same_move",
    "is_offered",
    "number_to_say",
]

# Why words are not a move: InvalidMove.code, with the parameters it carries.
INVALID = {
    "not_a_move": ("words",),  # nothing in the words reads as a move
    "no_cards": ("kind",),  # "crib" or "play" without a card after it
    "no_points": (),  # "count" without a number
    "cards_not_asked": ("phase",),  # just cards, when neither a discard nor a play is due
    "one_card_at_a_time": ("cards",),  # several cards named as one play
    "claim_missing": ("card",),  # under muggins a play says what it pegs
    "rank_not_held": ("rank", "kind"),  # "the 7" without a 7 in the hand
    "which_card": ("rank", "choices", "kind"),  # "the 7" with two 7s of different effect
    # A pegging plan's words (plans.read_plan): "plan 7C 8D ask", "plan score first, on 5 play TH".
    "plan_empty": (),  # "plan" and nothing after it
    "plan_unknown_word": ("word",),  # neither a card nor a word of plans
    "plan_unknown_rule": ("words",),  # "score" without "first", "on 5 TH", "on 11 play TH"
    "words_not_read": ("words",),  # a second instruction after a move on its line: "play 7C go"
}

TRIM = " \t-*•–—.,!;:"  # what may stand around a word: bullets, dashes, punctuation
# Invisible format characters (zero-width space and joiners, BOM, soft hyphen, word joiner, marks
# of direction) that phones and webmail paste after a card: "7H\u200b" is 7H.
_INVISIBLE = dict.fromkeys(
    [
        0x00AD,
        0x180E,
        0xFEFF,
        *range(0x200B, 0x2010),
        *range(0x202A, 0x202F),
        *range(0x2060, 0x2065),
        *range(0x2066, 0x2070),
    ]
)


class InvalidMove(ValueError):
    """Words that do not make a move; `code` (a key of INVALID) and `params` say why."""

    def __init__(self, code: str, reason: str, **params):
        assert code in INVALID, code
        super().__init__(reason)
        self.code, self.reason, self.params = code, reason, params


@dataclass(frozen=True)
class Reading:
    """What a line of words says, before the game is consulted.

    `kind` is a move kind ("discard", "play", "go", "count", "muggins",
    "resign") or "cards" (just cards: a discard or a play, by the phase).
    """

    kind: str
    words: str  # the line as the player wrote it
    cards: tuple[str, ...] = ()  # card codes named
    number: int | None = None  # the claim of a play, the points of a count
    ranks: tuple[str, ...] = ()  # ranks said alone ("the 7": "7"), resolved against the hand
    then: Reading | None = None  # a plan said after the move on its line ("crib 7H KH plan 9D 6C")
    unread: str = ""  # words after the move that start another instruction, not read


# --- Reading ---------------------------------------------------------------------


def read_number(token: str | None) -> int | None:
    """A whole number as written, in ASCII digits, its sign kept: "-3" is minus three (for the
    rules to refuse), not 3 with a bullet before it; None if the token is not a number."""
    if token is None:
        return None
    token = token.strip().lstrip("*•").rstrip(TRIM)
    sign = -1 if token[:1] in ("-", "−", "–", "—") else 1
    digits = token[1:] if token[:1] in ("-", "−", "–", "—", "+") else token
    if not (digits.isascii() and digits.isdigit()):
        return None
    # Past twelve digits every rule refuses it anyway; this keeps int() off a million digits.
    return sign * int(digits[:13])


def _cards_from(tokens: Iterable[str]) -> tuple[tuple[str, ...], tuple[str, ...], int]:
    """(card codes, ranks said alone, tokens read) from the leading tokens that read as
    cards or ranks (the rest is chatter)."""
    codes: list[str] = []
    ranks: list[str] = []
    read = 0
    for token in tokens:
        rank = rank_of(token)
        if rank is not None:
            ranks.append(rank)
        else:
            try:
                codes += [c.code for c in parse_cards(token.strip(TRIM))]
            except ValueError:
                break
        read += 1
    return tuple(codes), tuple(ranks), read


def _read_discard(rest: Sequence[str], words: str) -> Reading:
    codes, ranks, _ = _cards_from(rest)
    return Reading("discard", words, cards=codes, ranks=ranks)


def _read_play(rest: Sequence[str], words: str) -> Reading:
    codes, ranks, read_ = _cards_from(rest)  # every card named: two are refused, not one dropped
    after = rest[read_:]
    claim = read_number(after[1]) if len(after) >= 2 and after[0].lower() == "claim" else None
    return Reading("play", words, cards=codes, number=claim, ranks=ranks)


def _read_count(rest: Sequence[str], words: str) -> Reading:
    return Reading("count", words, number=read_number(rest[0]) if rest else None)


def _read_word(kind: str) -> Callable[[Sequence[str], str], Reading]:
    return lambda rest, words: Reading(kind, words)


# The words that start a move, each with its reader (the tokens after the word -> a Reading).
READERS: dict[str, Callable[[Sequence[str], str], Reading]] = {
    "crib": _read_discard,
    "discard": _read_discard,
    "throw": _read_discard,
    "play": _read_play,
    "go": _read_word("go"),
    "count": _read_count,
    "muggins": _read_word("muggins"),
    "resign": _read_word("resign"),
    "concede": _read_word("resign"),
    "plan": lambda rest, words: Reading("plan", words, cards=tuple(rest)),  # the plan's own words
}


# Words that end the game, read only alone on their line (with "I", "please" and the like).
_ALONE = {"resign", "concede"}


def visible(text: str) -> str:
    """`text` without its invisible format characters."""
    return text.translate(_INVISIBLE)


def _head(token: str) -> str:
    return token.lower().strip(TRIM) or token


def read(words: str) -> Reading | None:
    """What one line says, or None when it is not a move (chatter, another kind of word).

    A plan may follow the move on its line ("crib 7H KH plan 9D 6C AC 4H"): it is the
    reading's `then`. Any other instruction word after the move ("play 7C go") is kept
    as `unread`, and `to_move` refuses the line for it: nothing on a line is dropped unsaid.
    """
    words = visible(words or "").strip().strip(TRIM).strip()
    if not words:
        return None
    tokens = words.replace(",", " ").split()
    if _head(tokens[0]) == "plan":  # a plan's words are its own (plans.py)
        return READERS["plan"](tokens[1:], words)
    then = None
    heads = [_head(t) for t in tokens]
    if "plan" in heads:
        at = heads.index("plan")
        then = read(" ".join(tokens[at:]))
        tokens = tokens[:at]
        words = " ".join(tokens).strip(TRIM).strip()
    tokens = normalise(tokens)
    later = next((i for i, t in enumerate(tokens) if i and _head(t) in READERS), len(tokens))
    unread = " ".join(tokens[later:])
    tokens = tokens[:later]
    reader = READERS.get(_head(tokens[0]))
    if _head(tokens[0]) in _ALONE and len(tokens) > 1:
        return None  # "I resign myself to a long wait" is chatter: the game ends only when said alone
    if reader is not None:
        reading = reader(tokens[1:], words)
    else:
        cards, ranks, read_ = _cards_from(tokens)  # just the cards, nothing else on the line
        if read_ < len(tokens) or not (cards or ranks):
            return None
        reading = Reading("cards", words, cards=cards, ranks=ranks)
    return replace(reading, then=then, unread=unread)


# --- From words to a move ----------------------------------------------------------


def _discard(reading: Reading, muggins: bool) -> dict:
    if not reading.cards:
        raise InvalidMove("no_cards", "A discard names its cards", kind="discard")
    return {"kind": "discard", "cards": list(reading.cards)}


def _play(reading: Reading, muggins: bool) -> dict:
    if not reading.cards:
        raise InvalidMove("no_cards", "A play names its card", kind="play")
    if len(reading.cards) != 1:
        raise InvalidMove("one_card_at_a_time", "A play is one card", cards=list(reading.cards))
    card = reading.cards[0]
    move: dict[str, Any] = {"kind": "play", "card": card}
    if muggins:
        if reading.number is None:
            raise InvalidMove("claim_missing", "Under muggins a play says what it pegs", card=card)
        move["claim"] = reading.number
    return move


def _count(reading: Reading, muggins: bool) -> dict:
    if reading.number is None:
        raise InvalidMove("no_points", "A count says its points")
    return {"kind": "count", "points": reading.number}


def _plan(reading: Reading, muggins: bool) -> dict:
    """A plan's words are read by plans.read_plan; its refusals become InvalidMove's."""
    try:
        return read_plan(" ".join(reading.cards))
    except PlanProblem as problem:
        raise InvalidMove(problem.code, problem.reason, **problem.params) from None


# The move each kind of reading makes (a builder may refuse the words with InvalidMove).
BUILDERS: dict[str, Callable[[Reading, bool], dict]] = {
    "discard": _discard,
    "play": _play,
    "count": _count,
    "go": lambda reading, muggins: {"kind": "go"},
    "muggins": lambda reading, muggins: {"kind": "muggins"},
    "resign": lambda reading, muggins: {"kind": "resign"},
    "plan": _plan,
}

# What just cards are, by the phase of the game.
_CARDS_ARE = {"discard": "discard", "play": "play"}


def to_move(reading: Reading, phase: str, muggins: bool = False, hand: Sequence[str] | None = None) -> dict:
    """The move (without a seat) `reading` names when the game is at `phase`; InvalidMove if none.

    `hand`, the codes of the cards held, resolves the ranks said alone. Whether the
    rules allow the move is the engine's to say (`apply` raises IllegalMove).
    """
    kind = reading.kind
    if reading.unread:
        raise InvalidMove("words_not_read", f"{reading.unread!r} was not read", words=reading.unread)
    if kind == "cards":
        kind_now = _CARDS_ARE.get(phase)
        if kind_now is None:
            raise InvalidMove("cards_not_asked", f"Just cards are not a move at the {phase}", phase=phase)
        kind = kind_now
    builder = BUILDERS.get(kind)
    if builder is None:
        raise InvalidMove("not_a_move", f"{reading.words!r} is not a move", words=reading.words)
    if reading.ranks:
        reading = _ranks_resolved(reading, kind, hand or ())
    move = builder(reading, muggins)
    if kind == "count" and phase == "play":
        # A count in the play is said ahead, for the show (under muggins; the engine says when).
        move["kind"] = "count_ahead"
    return move


def _ranks_resolved(reading: Reading, kind: str, hand: Sequence[str]) -> Reading:
    """`reading` with each rank said alone replaced by the card of that rank held.

    Several cards of one rank are one choice in the play (its points go by rank, and the
    show counts the cards kept whatever their order), so the first is played; in the
    discard their suits make flushes and nobs, so the player is asked which.
    """
    cards = list(reading.cards)
    for rank in dict.fromkeys(reading.ranks):
        wanted = reading.ranks.count(rank)
        held = [c for c in hand if c not in cards and card_from_code(c).code[:-1] == rank]
        name = RANK_NAMES[rank]
        if len(held) < wanted:
            raise InvalidMove("rank_not_held", f"No {name} held to {kind}", rank=rank, kind=kind)
        if len(held) > wanted and kind != "play":
            raise InvalidMove("which_card", f"Which {name}: {' or '.join(held)}?", rank=rank, choices=held, kind=kind)
        cards += held[:wanted]
    return Reading(reading.kind, reading.words, cards=tuple(cards), number=reading.number)


def read_move(words: str, phase: str, muggins: bool = False, hand: Sequence[str] | None = None) -> dict:
    """The move `words` name at `phase` (ranks said alone resolved against `hand`); InvalidMove
    when they name none."""
    reading = read(words)
    if reading is None:
        raise InvalidMove("not_a_move", f"{words!r} is not a move", words=words)
    if reading.then is not None:  # one move asked for: a second is refused, not dropped
        raise InvalidMove("words_not_read", f"{reading.then.words!r} was not read", words=reading.then.words)
    return to_move(reading, phase, muggins, hand)


# --- Elsewhere, named here for every channel that reads words --------------------------
# The words of a move (`write`) are move_words', below the rules; what counts as one choice and
# what a form names (`same_move`, `is_offered`, `number_to_say`, `from_form`) are move_choices'.
