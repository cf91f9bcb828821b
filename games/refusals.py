"""The engine's refusals in the words of the game pages (and of `services.MoveRefused.message`).

The engine says why a move is refused with a code and its parameters
(`cribbage.REFUSALS`); this table says it to the player. Other channels have
their own table (mail.refusals for replies) and fall back on these words.
"""

from collections.abc import Callable

from games import cribbage
from games.cribbage import card_from_code
from games.presentation import cards_text, plural

_CHANCES = {"cut_for_deal": "cut for deal", "deal": "deal"}


def _not_a_card(token=None):
    return f"Cannot read {token!r} as a card"


# code -> the words, from the refusal's parameters (no final full stop: the service adds the moves).
WORDS: dict[str, Callable[..., str]] = {
    "game_over": lambda: "The game is over",
    "no_such_seat": lambda seat=None: f"No such seat: {seat!r}",
    "waiting_for_chance": lambda chance="deal": f"Waiting for the {_CHANCES.get(chance, chance)} (a chance event)",
    "not_your_turn": lambda kind, phase: f"You cannot {kind} now (phase {phase})",
    "wrong_phase": lambda kind, phase: f"You cannot {kind} now",
    "not_a_card": _not_a_card,
    "not_held": lambda cards: f"You do not hold {' '.join(cards)}",
    "same_card_twice": lambda cards: f"The same card twice: {' '.join(cards)}",
    "wrong_throw_count": lambda needed, given: f"Lay away exactly {plural(needed, 'card')} to the crib, not {given}",
    "count_over_31": lambda card, count: f"{card} would take the count past 31 (count is {count})",
    "claim_out_of_range": lambda card, claim: f"Cannot claim {claim!r} for {card}",
    "count_out_of_range": lambda points, what: f"Cannot count {points!r} for this {what}",
    "no_muggins": lambda: "You have no muggins to call",
    "muggins_nothing_missed": lambda: "You have no muggins to call",
    "go_is_automatic": lambda playable: "There is no need to say go: it is said for you whenever you cannot play",
}


def _plan_not_held(card, held=()):
    return f"You do not hold {card}" + (f" (your cards: {' '.join(held)})" if held else "")


# A pegging plan refused, by the engine (the cards) or the notation (the words): these say
# what is wrong with it at any time, whoever's turn it is.
PLAN_WORDS: dict[str, Callable[..., str]] = {
    "plan_not_held": _plan_not_held,
    "plan_thrown": lambda card: f"{card} is in the crib: you laid it away",
    "plan_twice": lambda cards: f"The plan names {' '.join(cards)} twice",
    "plan_too_late": lambda: "The play of this hand is over: a plan is for the hand being played",
    "plan_empty": lambda: 'Name the cards of your plan, e.g. "plan 7C 8D 5H KS", or say "plan clear"',
    "plan_unknown_word": lambda word="": (
        f'"{word}" is neither a card nor a word of plans (ask, score first, low first, high first, on <rank> play <card>, clear)'
    ),
    "plan_unknown_rule": lambda words="", rule="": (
        f'"{words or rule}" is not a rule of plans: say "score first", "low first", "high first" or "on 5 play TH"'
    ),
    "not_the_plans_card": lambda card: f"Your plan does not play {card} now",
}
WORDS.update(PLAN_WORDS)
# Under muggins, a hand's count said in the play, for the show.
WORDS.update(
    {
        "count_ahead_no_muggins": lambda: "Without muggins every show is counted for you",
        "count_ahead_needs_starter": lambda: "Your count can be said once the starter is turned, in the play",
        "count_ahead_too_late": lambda: "The show has begun: count your hand when your turn comes",
        "count_ahead_out_of_range": lambda points: f"Cannot count {points!r} for your hand",
        "not_the_count_ahead": lambda points: f"You did not count {points!r} ahead",
    }
)


# A refused request's status on the site, by the service error's code: bad input is a 400; a
# request that is not the asker's to make a 403; one the game (or challenge) has moved past
# since the page was shown a 409; one over a limit a 429.
STATUS_OF_CODE = {"forbidden": 403, "stale": 409, "too_many": 429}


def status_of(code: str) -> int:
    """The HTTP status of a page refusing a request for a service error's `code`."""
    return STATUS_OF_CODE.get(code, 400)


def plan_refusal(code: str, params: dict) -> str:
    """A refused plan in words, with the plan as it was."""
    return f"{PLAN_WORDS[code](**params)}. Your plan is as it was."


def unreadable_message(error: cribbage.InvalidMove) -> str:
    """Words that make no move, in the pages' words: a plan's refusal, else the notation's reason."""
    if error.code in PLAN_WORDS:
        return plan_refusal(error.code, error.params)
    return f"{error.reason}."


def refusal_words(error: cribbage.IllegalMove) -> str:
    """The refusal said to the player whose move it was."""
    words = WORDS.get(error.code)
    # The other codes (a malformed event, a bad cut or deck) only come from a program: its reason.
    return words(**error.params) if words else error.reason


def refusal_message(error: cribbage.IllegalMove, offered) -> str:
    """The refusal and the player's own moves now (`offered`: cribbage.moves_to_offer for them)."""
    if error.code in PLAN_WORDS:  # a plan may be set at any time: no moves to list
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
