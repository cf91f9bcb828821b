"""The rules and help page's facts, taken from where they are decided: each example counted by the
engine, each variant's numbers from its `Rules`, and the reply words from the help texts the reply
readers answer with (mail, ladders, events), so the page cannot say what the code does not do."""

from dataclasses import dataclass

from games.cribbage import SHORT_GAME, describe, parse_cards, rules_for, score_hand, score_pegging
from ladders import replies as ladder_replies
from mail import game_replies, links, service_replies
from tournaments import replies as event_replies


@dataclass(frozen=True)
class Show:
    """A hand shown with the starter, and how it is counted aloud."""

    hand: tuple
    starter: str
    crib: bool
    total: int
    said: str


@dataclass(frozen=True)
class Laid:
    """A card laid in the play, the count it makes and what it pegs."""

    card: str
    count: int
    points: int
    said: str


# Shows that teach one thing each: fifteens and a pair, a double run, the flush, nobs, the 29.
SHOWS = (
    ("5H 6S 9D KC", "4H", False),
    ("7H 7S 8D 9C", "2D", False),
    ("2H 6H 9H QH", "KS", False),
    ("2H 6H 9H QH", "KS", True),
    ("JD 4C 8S 3H", "6D", False),
    ("5H 5C 5S JD", "5D", False),
)
# One count of the play, card by card: a pair, a fifteen, a run in no order; then thirty-one.
PLAY = "4S 4H 7D 6C 5H"
PLAY_TO_31 = "TH 5C 6D KS"


def shows():
    found = []
    for hand, starter, crib in SHOWS:
        score = score_hand(parse_cards(hand), parse_cards(starter)[0], crib=crib)
        found.append(Show(tuple(hand.split()), starter, crib, score.total, describe(score)))
    return found


def play(codes):
    """Each card of one count in turn, with the count and what it pegs."""
    laid, count, steps = [], 0, []
    for code, card in zip(codes.split(), parse_cards(codes), strict=True):
        laid.append(card)
        count += min(card[0], 10)
        score = score_pegging(laid)
        steps.append(Laid(code, count, score.total, describe(score) if score.total else ""))
    return steps


def variants():
    """Each variant's numbers, as the engine plays it."""
    return {
        "two": rules_for("two"),
        "short": rules_for("two", target=SHORT_GAME),
        "three": rules_for("three"),
        "four": rules_for("four"),
        "five_card": rules_for("five_card"),
    }


def context():
    return {
        "rules": variants(),
        "shows": shows(),
        "play": play(PLAY),
        "play_to_31": play(PLAY_TO_31),
        "game_words": game_replies.HELP,
        "ladder_words": ladder_replies.HELP,
        "event_words": event_replies.HELP,
        "service_words": service_replies.HELP,
        "service_address": links.service_address(),
    }
