"""A refused move told to the player: one table for every channel, keyed by the engine's codes.

The engine says why with a code and its parameters: `cribbage.INVALID` when the words make no
move (`InvalidMove`), `cribbage.REFUSALS` when the rules refuse a readable one (`IllegalMove`),
and the move service adds "game_over" and "stale" (`services.MoveRefused`). Each row of
`WORDS` says one refusal in the words of each channel:

- `page`: the game pages' words (and `MoveRefused.message`), from the parameters; no final
  full stop, the moves the player has now follow (`refusal_message`);
- `reply`: a reply's answer, from what the player sees of the game (`Seen`, their view) and
  the parameters, with the kind of answer (the outcome recorded, and what answers are rate
  limited by), then what can be done now (`answer`).

A code a channel has no words for is said in the other's: a reply falls back on the pages'
words, a page on the engine's reason (a malformed event, a bad cut or deck: only a program
makes those).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from games import cribbage
from games.cribbage import card_from_code
from games.cribbage.card_words import RANK_NAMES
from games.presentation import cards_text, plural

# --- What the player sees, for the words of a reply's answer ---------------------------------


class Seen:
    """What the player sees of the game, for the words of a refusal."""

    def __init__(self, view):
        self.phase = view.phase
        self.hand = view.hand
        self.playable = view.playable
        self.thrown = view.my_discards
        self.my_turn = view.seat in view.to_act
        self.discard_count = (view.rules or {}).get("discard_count", 2)

    def now(self):
        """What the player can do now, in a sentence."""
        if self.phase == "discard" and self.my_turn:
            n = self.discard_count
            return f"Lay away {n} card{'s' if n > 1 else ''} from your hand: {cards_text(self.hand)}."
        if self.phase == "play" and self.my_turn and self.playable:
            return f"You can play {_one_of(self.playable)}."
        if self.phase == "show" and self.my_turn:
            return 'Count your show: "count N", N the points you claim.'
        if self.phase in ("discard", "play", "show"):
            return "It is not your turn: we will email you when it is."
        return ""

    def laid_away(self, cards):
        return self.phase != "discard" and bool(cards) and set(cards) <= set(self.thrown)


def _one_of(cards):
    """ "7♣", "7♣ or 8♦", "7♣, 8♦ or K♠"."""
    labels = [cards_text([c]) for c in cards]
    return labels[0] if len(labels) == 1 else ", ".join(labels[:-1]) + " or " + labels[-1]


def _then(words, seen):
    now = seen.now()
    return f"{words} {now}" if now else words


# --- The pages' words that need more than a line ----------------------------------------------

_CHANCES = {"cut_for_deal": "cut for deal", "deal": "deal"}


def _not_a_card(token=None):
    return f"Cannot read {token!r} as a card"


def _plan_not_held(card, held=()):
    return f"You do not hold {card}" + (f" (your cards: {' '.join(held)})" if held else "")


# --- A reply's words that need more than a line -----------------------------------------------


def _no_cards(seen, kind):
    if kind == "discard":
        return _then('Name the cards after "crib", e.g. "crib 5H JD".', seen)
    return _then('Name the card after "play", e.g. "play 7C".', seen)


def _go(seen, playable):
    return "There is no need to say go: it is said for you whenever you cannot play." + (
        f" You can play {_one_of(playable)}." if playable else ""
    )


def _discard_over(seen, cards=()):
    thrown = f" {cards_text(cards)} went to the crib." if cards else ""
    return _then(f"The discard is over.{thrown}", seen)


def _not_held(seen, cards):
    if seen.laid_away(cards):
        return _discard_over(seen, cards)
    if seen.my_turn:  # what can be done now lists the cards held
        return _then(f"You do not hold {cards_text(cards)}.", seen)
    return f"You do not hold {cards_text(cards)}. Your hand: {cards_text(seen.hand) or 'no cards'}. " + seen.now()


def _not_your_turn(seen, kind, phase):
    if kind == "discard" and phase != "discard":
        return "The discard is over, and it is not your turn: we will email you when it is."
    return "It is not your turn: we will email you when it is."


def _wrong_phase(seen, kind, phase):
    if kind == "discard":
        return _discard_over(seen)
    if kind == "play":
        return _then(
            "It is not time to play a card" + (": lay away to the crib first." if phase == "discard" else "."), seen
        )
    if kind == "count":
        return _then("There is no show to count now.", seen)
    return None


def _one_card(seen, cards):
    if seen.laid_away(cards):
        return _discard_over(seen, cards)
    named, rest = cards_text(cards[:1]), cards_text(cards[1:])
    return _then(
        f"We could not tell what {rest} after {named} was for, so nothing on that line was played. "
        "Play one card at a time.",
        seen,
    )


def _throw_count(seen, needed, given):
    return (
        f"Lay away exactly {needed} card{'s' if needed > 1 else ''} to the crib, not {given}. "
        f"Your hand: {cards_text(seen.hand)}."
    )


def _which_card(seen, rank, choices, kind):
    codes = " or ".join(f'"{c}"' for c in choices)
    return (
        f"Which {RANK_NAMES[rank]} do you mean, {_one_of(choices)}? In the discard the suit matters "
        f"(a flush, his nob). Reply again with the card and its suit: {codes}."
    )


def _rank_not_held(seen, rank, kind):
    return _then(f"You hold no {RANK_NAMES[rank]}.", seen)


def _words_not_read(seen, words):
    return _then(
        f'We could not read "{words}" after the move on that line, so nothing on it was applied. '
        "Write one instruction a line (a plan may follow a discard on its line).",
        seen,
    )


# --- The table ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Said:
    """One refusal in each channel's words (None: the channel falls back, see the module)."""

    page: Callable[..., str] | None = None  # the parameters -> the pages' words
    reply: Callable[..., str | None] | None = None  # (Seen, the parameters) -> the answer's words
    answer: str = "illegal"  # the kind of a reply's answer
    plan: bool = False  # a pegging plan's refusal: said the same at any time, whoever's turn it is


WORDS: dict[str, Said] = {
    # The words make no move (cribbage.INVALID): said only to a reply's writer.
    "not_a_move": Said(
        reply=lambda seen, words="": _then("We could not read a move in your reply.", seen), answer="unreadable"
    ),
    "no_cards": Said(reply=_no_cards, answer="unreadable"),
    "no_points": Said(reply=lambda seen: 'Say how many points you claim, e.g. "count 8".', answer="unreadable"),
    "cards_not_asked": Said(
        reply=lambda seen, phase: _then(
            "Just cards are read as a discard or a play, but neither is asked of you now.", seen
        ),
        answer="unreadable",
    ),
    "one_card_at_a_time": Said(reply=_one_card),
    "words_not_read": Said(reply=_words_not_read, answer="unreadable"),
    "claim_missing": Said(
        reply=lambda seen, card: f'Under muggins, say what you peg: "play {card} claim N" (0 if nothing).'
    ),
    "rank_not_held": Said(reply=_rank_not_held, answer="not_held"),
    "which_card": Said(reply=_which_card, answer="which_card"),
    # The rules refuse the move (cribbage.REFUSALS), or the game is over.
    "game_over": Said(page=lambda: "The game is over", reply=lambda seen: "This game is over.", answer="over"),
    "no_such_seat": Said(page=lambda seat=None: f"No such seat: {seat!r}"),
    "waiting_for_chance": Said(
        page=lambda chance="deal": f"Waiting for the {_CHANCES.get(chance, chance)} (a chance event)"
    ),
    "not_your_turn": Said(
        page=lambda kind, phase: f"You cannot {kind} now (phase {phase})", reply=_not_your_turn, answer="not_your_turn"
    ),
    "wrong_phase": Said(page=lambda kind, phase: f"You cannot {kind} now", reply=_wrong_phase),
    "not_a_card": Said(page=_not_a_card),
    "not_held": Said(page=lambda cards: f"You do not hold {' '.join(cards)}", reply=_not_held, answer="not_held"),
    "same_card_twice": Said(page=lambda cards: f"The same card twice: {' '.join(cards)}"),
    "wrong_throw_count": Said(
        page=lambda needed, given: f"Lay away exactly {plural(needed, 'card')} to the crib, not {given}",
        reply=_throw_count,
    ),
    "count_over_31": Said(
        page=lambda card, count: f"{card} would take the count past 31 (count is {count})",
        reply=lambda seen, card, count: _then(
            f"{cards_text([card])} would take the count past 31 (the count is {count}).", seen
        ),
    ),
    "claim_out_of_range": Said(page=lambda card, claim: f"Cannot claim {claim!r} for {card}"),
    "count_out_of_range": Said(page=lambda points, what: f"Cannot count {points!r} for this {what}"),
    "no_muggins": Said(
        page=lambda: "You have no muggins to call",
        reply=lambda seen: "There is no muggins to call: the last claim missed nothing you can take now.",
    ),
    "muggins_nothing_missed": Said(page=lambda: "You have no muggins to call"),
    "go_is_automatic": Said(
        page=lambda playable: "There is no need to say go: it is said for you whenever you cannot play",
        reply=_go,
        answer="go",
    ),
    # A pegging plan refused, by the engine (the cards) or the notation (the words).
    "plan_not_held": Said(page=_plan_not_held, plan=True),
    "plan_thrown": Said(page=lambda card: f"{card} is in the crib: you laid it away", plan=True),
    "plan_twice": Said(page=lambda cards: f"The plan names {' '.join(cards)} twice", plan=True),
    "plan_too_late": Said(page=lambda: "The play of this hand is over: a plan is for the hand being played", plan=True),
    "plan_empty": Said(
        page=lambda: 'Name the cards of your plan, e.g. "plan 7C 8D 5H KS", or say "plan clear"', plan=True
    ),
    "plan_unknown_word": Said(
        page=lambda word="": (
            f'"{word}" is neither a card nor a word of plans (ask, score first, low first, high first, on <rank> play <card>, clear)'
        ),
        plan=True,
    ),
    "plan_unknown_rule": Said(
        page=lambda words="", rule="": (
            f'"{words or rule}" is not a rule of plans: say "score first", "low first", "high first" or "on 5 play TH"'
        ),
        plan=True,
    ),
    "not_the_plans_card": Said(page=lambda card: f"Your plan does not play {card} now", plan=True),
    # Under muggins, a hand's count said in the play, for the show.
    "count_ahead_no_muggins": Said(page=lambda: "Without muggins every show is counted for you"),
    "count_ahead_needs_starter": Said(page=lambda: "Your count can be said once the starter is turned, in the play"),
    "count_ahead_too_late": Said(page=lambda: "The show has begun: count your hand when your turn comes"),
    "count_ahead_out_of_range": Said(page=lambda points: f"Cannot count {points!r} for your hand"),
    "not_the_count_ahead": Said(page=lambda points: f"You did not count {points!r} ahead"),
}


# --- The game pages ------------------------------------------------------------------------------

# A refused request's status on the site, by the service error's code: bad input is a 400; a
# request that is not the asker's to make a 403; one the game (or challenge) has moved past
# since the page was shown a 409; one over a limit a 429.
STATUS_OF_CODE = {"forbidden": 403, "stale": 409, "too_many": 429}


def status_of(code: str) -> int:
    """The HTTP status of a page refusing a request for a service error's `code`."""
    return STATUS_OF_CODE.get(code, 400)


def is_plan_refusal(code: str) -> bool:
    said = WORDS.get(code)
    return said is not None and said.plan


def plan_refusal(code: str, params: dict) -> str:
    """A refused plan in words, with the plan as it was."""
    page = WORDS[code].page
    assert page is not None, code
    return f"{page(**params)}. Your plan is as it was."


def unreadable_message(error: cribbage.InvalidMove) -> str:
    """Words that make no move, in the pages' words: a plan's refusal, else the notation's reason."""
    if is_plan_refusal(error.code):
        return plan_refusal(error.code, error.params)
    return f"{error.reason}."


def refusal_words(error: cribbage.IllegalMove) -> str:
    """The refusal said to the player whose move it was."""
    said = WORDS.get(error.code)
    # The other codes (a malformed event, a bad cut or deck) only come from a program: its reason.
    return said.page(**error.params) if said is not None and said.page is not None else error.reason


def refusal_message(error: cribbage.IllegalMove, offered) -> str:
    """The refusal and the player's own moves now (`offered`: cribbage.moves_to_offer for them)."""
    if is_plan_refusal(error.code):  # a plan may be set at any time: no moves to list
        return plan_refusal(error.code, error.params)
    if offered:
        return f"{refusal_words(error)}. {moves_now(offered)}"
    return f"{refusal_words(error)}. It is not your turn to move."


def moves_now(offered) -> str:
    """The moves a player has now, as a sentence in cards: a discard as the cards to choose from
    (not every pair in the notation), a play as the cards that can be played."""
    discards = [m for m in offered if m["kind"] == "discard"]
    plays = list(dict.fromkeys(m["card"] for m in offered if m["kind"] == "play"))
    others = [m for m in offered if m["kind"] not in ("discard", "play")]
    said = []
    if discards:
        hand = sorted({c for m in discards for c in m["cards"]}, key=lambda c: card_from_code(c).index)
        said.append(f"Choose {len(discards[0]['cards'])} of these for the crib: {cards_text(hand)}")
    if plays:
        said.append(f"You can play {cards_text(plays)}")
    if others:
        said.append("Your moves now: " + ", ".join(dict.fromkeys(cribbage.describe_move(m) for m in others)))
    return "; ".join(said) + "."


# --- A reply's answer ----------------------------------------------------------------------------


def answer(code, params, view, message=""):
    """(kind of answer, words) for a refusal: `code` and `params` from the MoveRefused,
    `view` the player's view of the game as it is now (games.selectors.view_for), `message`
    the game pages' words for the same refusal."""
    said = WORDS.get(code)
    if said is not None and said.plan:
        return "plan", plan_refusal(code, params).strip()
    words = said.reply(Seen(view), **params) if said is not None and said.reply is not None else None
    kind = said.answer if said is not None and said.reply is not None else "illegal"
    return (kind, words.strip()) if words else ("illegal", f"That move cannot be made: {message}")
