"""A reply that makes no move, in the words of the answer email.

Words that do not make a move come as `cribbage.InvalidMove`, a move the rules
refuse as the move service's `MoveError` carrying the engine's code and
parameters (`cribbage.REFUSALS`). This table says each to the player, with
the kind of answer (the outcome recorded, and what the answers are rate
limited by); a code it does not know is said in the game pages' words.
"""

from games.presentation import cards_text
from games.refusals import PLAN_WORDS, plan_refusal


def _no_cards(kind):
    if kind == "discard":
        return 'Name the cards after "crib", e.g. "crib 5H JD".'
    return 'Name the card after "play", e.g. "play 7C".'


def _go(playable):
    return "There is no need to say go: it is said for you whenever you cannot play." + (
        f" You can play now: {cards_text(playable)}." if playable else ""
    )


def _not_held(cards, hand):
    return f"You do not hold {cards_text(cards)}. Your hand: {cards_text(hand) or 'no cards'}."


def _wrong_phase(kind, phase):
    if kind == "discard":
        return "The discard is over: it is time to play a card."
    if kind == "play":
        return "It is not time to play a card: " + (
            "lay away to the crib first." if phase == "discard" else f"the game is at the {phase}."
        )
    if kind == "count":
        return "There is no show to count now."
    return None


def _throw_count(needed, given):
    return f"Lay away exactly {needed} card{'s' if needed > 1 else ''} to the crib, not {given}."


# code -> (kind of answer, the words from the parameters and `hand`, the cards the player holds).
WORDS = {
    # The words are not a move (cribbage.INVALID).
    "not_a_move": ("unreadable", lambda hand, words="": "We could not read a move in your reply."),
    "no_cards": ("unreadable", lambda hand, kind: _no_cards(kind)),
    "no_points": ("unreadable", lambda hand: 'Say how many points you claim, e.g. "count 8".'),
    "cards_not_asked": (
        "unreadable",
        lambda hand, phase: "Just cards are read as a discard or a play, but neither is asked of you now.",
    ),
    "one_card_at_a_time": ("illegal", lambda hand, cards: "Play one card at a time."),
    "claim_missing": (
        "illegal",
        lambda hand, card: f'Under muggins, say what you peg: "play {card} claim N" (0 if nothing).',
    ),
    # The rules refuse the move (cribbage.REFUSALS).
    "game_over": ("over", lambda hand: "This game is over."),
    "not_your_turn": ("not_your_turn", lambda hand, kind, phase: "It is not your turn: we will email you when it is."),
    "go_is_automatic": ("go", lambda hand, playable: _go(playable)),
    "not_held": ("not_held", lambda hand, cards: _not_held(cards, hand)),
    "wrong_phase": ("illegal", lambda hand, kind, phase: _wrong_phase(kind, phase)),
    "wrong_throw_count": ("illegal", lambda hand, needed, given: _throw_count(needed, given)),
    "count_over_31": (
        "illegal",
        lambda hand, card, count: f"{cards_text([card])} would take the count past 31 (the count is {count}).",
    ),
    "no_muggins": (
        "illegal",
        lambda hand: "There is no muggins to call: the last claim missed nothing you can take now.",
    ),
}


WORDS.update({code: ("plan", lambda hand, _code=code, **params: plan_refusal(_code, params)) for code in PLAN_WORDS})


def answer(code, params, hand, message=""):
    """(kind of answer, words) for a refusal: `code` and `params` from the InvalidMove or the
    MoveError, `hand` the player's cards, `message` the game pages' words for the same refusal."""
    kind, words = WORDS.get(code, ("illegal", None))
    said = words(hand, **params) if words else None
    return (kind, said) if said else ("illegal", f"That move cannot be made: {message}")
