"""A reply that makes no move, in the words of the answer email: what is wrong, then what
can be done now.

Words that do not make a move come as `cribbage.InvalidMove`, a move the rules
refuse as the move service's `MoveRefused` carrying the engine's code and
parameters (`cribbage.REFUSALS`). This table says each to the player from the
refusal and the player's view of the game (their hand, the cards they may play,
the cards they laid away), with the kind of answer (the outcome recorded, and
what the answers are rate limited by); a code it does not know is said in the
game pages' words.
"""

from games.cribbage.card_words import RANK_NAMES
from games.presentation import cards_text
from games.refusals import PLAN_WORDS, plan_refusal


class Seen:
    """What the player sees of the game, for the words of a refusal."""

    def __init__(self, view):
        self.phase = view.get("phase", "")
        self.hand = view.get("hand") or []
        self.playable = view.get("playable") or []
        self.thrown = view.get("my_discards") or []
        self.my_turn = view.get("viewer") in (view.get("to_act") or [])
        self.discard_count = (view.get("rules") or {}).get("discard_count", 2)

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


# code -> (kind of answer, the words from the player's view (Seen) and the parameters).
WORDS = {
    # The words are not a move (cribbage.INVALID).
    "not_a_move": ("unreadable", lambda seen, words="": _then("We could not read a move in your reply.", seen)),
    "no_cards": ("unreadable", _no_cards),
    "no_points": ("unreadable", lambda seen: 'Say how many points you claim, e.g. "count 8".'),
    "cards_not_asked": (
        "unreadable",
        lambda seen, phase: _then("Just cards are read as a discard or a play, but neither is asked of you now.", seen),
    ),
    "one_card_at_a_time": ("illegal", _one_card),
    "words_not_read": (
        "unreadable",
        lambda seen, words: _then(
            f'We could not read "{words}" after the move on that line, so nothing on it was applied. '
            "Write one instruction a line (a plan may follow a discard on its line).",
            seen,
        ),
    ),
    "claim_missing": (
        "illegal",
        lambda seen, card: f'Under muggins, say what you peg: "play {card} claim N" (0 if nothing).',
    ),
    "rank_not_held": ("not_held", _rank_not_held),
    "which_card": ("which_card", _which_card),
    # The rules refuse the move (cribbage.REFUSALS).
    "game_over": ("over", lambda seen: "This game is over."),
    "not_your_turn": ("not_your_turn", _not_your_turn),
    "go_is_automatic": ("go", _go),
    "not_held": ("not_held", _not_held),
    "wrong_phase": ("illegal", _wrong_phase),
    "wrong_throw_count": ("illegal", _throw_count),
    "count_over_31": (
        "illegal",
        lambda seen, card, count: _then(
            f"{cards_text([card])} would take the count past 31 (the count is {count}).", seen
        ),
    ),
    "no_muggins": (
        "illegal",
        lambda seen: "There is no muggins to call: the last claim missed nothing you can take now.",
    ),
}


WORDS.update({code: ("plan", lambda seen, _code=code, **params: plan_refusal(_code, params)) for code in PLAN_WORDS})


def answer(code, params, view, message=""):
    """(kind of answer, words) for a refusal: `code` and `params` from the InvalidMove or the
    MoveRefused, `view` the player's view of the game as it is now (games.selectors.view_for),
    `message` the game pages' words for the same refusal."""
    kind, words = WORDS.get(code, ("illegal", None))
    said = words(Seen(view), **params) if words else None
    return (kind, said.strip()) if said else ("illegal", f"That move cannot be made: {message}")
