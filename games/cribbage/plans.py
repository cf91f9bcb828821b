"""Pegging plans: how a player wants their cards played, said once for the whole hand.

A plan is a move of the player's own (event kind "plan") and part of the log:

    {"kind": "plan", "seat": 0, "order": ["7C", "8D", "ask", "KS"],
     "rules": [{"rule": "score_first"}, {"rule": "on", "rank": 5, "card": "TH"}]}

An empty order with no rules clears the plan. At each of the seat's turns in
the play, `choose` reads the plan literally, with no judgement of its own:

1. the rules, in the order given: "score first" plays the legal card that pegs
   most now, if any pegs (ties go to the order, then to the hand); "on 5 play
   TH" plays TH when the card laid just before (in this count) is a 5 and TH is
   legal; "low first" plays the legal card of lowest rank, "high first" the
   highest (ties go to the order, then to the hand): either answers every
   turn where a card can be laid, so a plan of rules alone plays a whole hand;
2. then the order: the first named card still held that is legal (a card that
   would pass 31 waits); "ask" in the order stops the plan there;
3. nothing chosen: the plan does not answer and the player is asked.

The words (`read_plan`) are the same on every channel:

    plan 7C 8D 5H KS             the order (all of the cards, or the first few)
    plan 7C 8D ask               lead 7C, then 8D, then ask me
    plan score first, 7C 8D      a rule, then the order (commas optional)
    plan on 5 play TH, 7C 8D     answer a 5 with TH
    plan score first, low first  rules alone: score when a card pegs, else the lowest
    plan ask                     no plan: ask me at every turn
    plan clear                   drop the plan
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, cast

from .cards import Card, card_from_code

__all__ = [
    "ASK",
    "Plan",
    "PlanRule",
    "PlanProblem",
    "read_plan",
    "plan_from_event",
    "plan_json",
    "plan_words",
    "choose",
    "RULE_WORDS",
    "CARDLESS_RULES",
    "read_standing_plan",
    "standing_plan_words",
]

ASK = "ask"
RULE_WORDS = {
    "score_first": "score first",
    "low_first": "low first",
    "high_first": "high first",
    "on": "on <rank> play <card>",
}
# The rules that name no card: a standing plan (one for every hand) is made of these alone.
CARDLESS_RULES = ("score_first", "low_first", "high_first")
_RANKS = {"A": 1, "T": 10, "10": 10, "J": 11, "Q": 12, "K": 13, **{str(r): r for r in range(2, 10)}}
_RANK_CODES = {1: "A", 10: "T", 11: "J", 12: "Q", 13: "K"}
_SEPARATORS = re.compile(r"[\s,;]+")
_FILLER = {"then", "and"}


class PlanProblem(ValueError):
    """A plan that cannot be set; `code` names the problem, `params` its details."""

    def __init__(self, code: str, reason: str, **params):
        super().__init__(reason)
        self.code, self.reason, self.params = code, reason, params


@dataclass(frozen=True, slots=True)
class PlanRule:
    rule: str  # "score_first", "low_first", "high_first" or "on"
    rank: int | None = None  # "on": the rank laid just before
    card: Card | None = None  # "on": the card that answers it


@dataclass(frozen=True, slots=True)
class Plan:
    order: tuple[Card | str, ...]  # cards, and ASK where the plan stops
    rules: tuple[PlanRule, ...] = ()


def rank_code(rank: int) -> str:
    return _RANK_CODES.get(rank, str(rank))


# --- Words -> event ------------------------------------------------------------


def read_plan(text: str) -> dict:
    """The plan move (without its seat) that the words after "plan" name; PlanProblem if none.

    Only the words are read here; whether the cards are the player's is the
    engine's to say when the move is applied.
    """
    tokens = [t for t in _SEPARATORS.split(text.strip()) if t]
    if [t.lower() for t in tokens] in (["clear"], ["cancel"], ["none"], ["off"]):
        return {"kind": "plan", "order": [], "rules": []}
    if not tokens:
        raise PlanProblem("plan_empty", 'Name the cards of your plan, e.g. "plan 7C 8D 5H KS", or say "plan clear".')
    order: list[str] = []
    rules: list[dict[str, Any]] = []
    i = 0
    while i < len(tokens):
        word = tokens[i].lower().strip(".!")
        if word in _FILLER:
            i += 1
        elif word == ASK:
            order.append(ASK)
            i += 1
        elif word in ("score", "low", "high"):
            if i + 1 < len(tokens) and tokens[i + 1].lower().strip(".!") == "first":
                rules.append({"rule": f"{word}_first"})
                i += 2
            else:
                raise PlanProblem("plan_unknown_rule", f'Did you mean "{word} first"?', words=word)
        elif word == "on":
            rank, card = _on_rule(tokens[i + 1 : i + 4])
            rules.append({"rule": "on", "rank": rank, "card": card})
            i += 4
        else:
            try:
                order.append(card_from_code(tokens[i]).code)
            except ValueError:
                raise PlanProblem(
                    "plan_unknown_word",
                    f'"{tokens[i]}" is neither a card nor a word of '
                    "plans (ask, score first, low first, high first, on <rank> play <card>, clear).",
                    word=tokens[i],
                ) from None
            i += 1
    return {"kind": "plan", "order": order, "rules": rules}


def read_standing_plan(text: str) -> list[dict]:
    """The rules of a standing plan (one for every hand) that the words name; [] for "clear".

    Only rules that name no card (CARDLESS_RULES) can stand for every hand: the cards change.
    """
    move = read_plan(text)
    if move["order"] or any(r["rule"] not in CARDLESS_RULES for r in move["rules"]):
        raise PlanProblem(
            "plan_standing_cards",
            "A plan for every hand names no cards (they change every hand): use the rules "
            '"score first", "low first" and "high first", e.g. "plan always score first, low first".',
        )
    return move["rules"]


def standing_plan_words(rules: Sequence[dict]) -> str:
    """The words of a standing plan's rules ("score first, low first"); "" for none."""
    return ", ".join(_rule_words(r) for r in rules)


def _on_rule(words: Sequence[str]) -> tuple[int, str]:
    said = " ".join(("on", *words))
    if len(words) < 3 or words[1].lower() != "play":
        raise PlanProblem("plan_unknown_rule", f'"{said}" is not a rule: say "on 5 play TH".', words=said)
    rank = _RANKS.get(words[0].upper())
    if rank is None:
        raise PlanProblem("plan_unknown_rule", f'"{words[0]}" is not a rank (A 2-9 T J Q K) in "{said}".', words=said)
    try:
        card = card_from_code(words[2])
    except ValueError:
        raise PlanProblem("plan_unknown_word", f'"{words[2]}" is not a card, in "{said}".', word=words[2]) from None
    return rank, card.code


def plan_words(event: dict) -> str:
    """The words for a plan move: "plan score first, on 5 play TH, 7C 8D ask" ("plan clear" if empty)."""
    rules = [_rule_words(r) for r in event.get("rules") or []]
    order = " ".join(event.get("order") or [])
    parts = rules + ([order] if order else [])
    return "plan " + (", ".join(parts) if parts else "clear")


def _rule_words(rule: dict) -> str:
    if rule.get("rule") == "on":
        return f"on {rank_code(rule['rank'])} play {rule['card']}"
    return RULE_WORDS.get(str(rule.get("rule")), "score first")


# --- Event -> Plan, checked against the seat's cards ---------------------------------


def plan_from_event(event: dict, held: Sequence[Card], thrown: Sequence[Card], played: Sequence[Card]) -> Plan | None:
    """The plan `event` sets for a seat holding `held` (None: cleared); PlanProblem if it cannot be set."""
    order_in, rules_in = event.get("order", []), event.get("rules", [])
    if not isinstance(order_in, list) or not isinstance(rules_in, list):
        raise PlanProblem("plan_unknown_word", "A plan is an order (a list) and rules (a list).")
    order: list[Card | str] = []
    named: list[Card] = []
    for item in order_in:
        if item == ASK:
            order.append(ASK)
            continue
        card = _card(item)
        order.append(card)
        named.append(card)
    rules: list[PlanRule] = []
    for rule in rules_in:
        kind = rule.get("rule") if isinstance(rule, dict) else None
        if kind in CARDLESS_RULES:
            rules.append(PlanRule(kind))
        elif kind == "on" and type(rule.get("rank")) is int and 1 <= rule["rank"] <= 13:
            card = _card(rule.get("card"))
            rules.append(PlanRule("on", rule["rank"], card))
            named.append(card)
        else:
            raise PlanProblem("plan_unknown_rule", f"{rule!r} is not a rule of plans.", rule=repr(rule))
    twice = sorted({c for c in order if isinstance(c, Card) and order.count(c) > 1})
    if twice:
        raise PlanProblem("plan_twice", f"The plan names {_text(twice)} twice.", cards=_codes(twice))
    for card in named:
        if card in held or card in played:
            # A card played already (say, forced between two lines of one reply) has simply had its turn.
            continue
        if card in thrown:
            raise PlanProblem("plan_thrown", f"{card.code} is in the crib: you laid it away.", card=card.code)
        raise PlanProblem(
            "plan_not_held",
            f"You do not hold {card.code}. Your cards: {_text(held)}.",
            card=card.code,
            held=_codes(held),
        )
    order = [c for c in order if c not in played]
    rules = [r for r in rules if r.card not in played]
    if not order and not rules:
        return None
    return Plan(tuple(order), tuple(rules))


def _card(code) -> Card:
    if not isinstance(code, str):
        raise PlanProblem("plan_unknown_word", f"{code!r} is not a card.", word=repr(code))
    try:
        return card_from_code(code)
    except ValueError:
        raise PlanProblem("plan_unknown_word", f'"{code}" is not a card.', word=code) from None


def _codes(cards) -> list[str]:
    return [c.code for c in cards]


def _text(cards) -> str:
    return " ".join(_codes(cards)) or "none"


def without(plan: Plan | None, cards: Sequence[Card]) -> Plan | None:
    """The plan once `cards` have left the seat's hand for the crib: they are no longer planned."""
    if plan is None:
        return None
    order = tuple(c for c in plan.order if c not in cards)
    rules = tuple(r for r in plan.rules if r.card not in cards)
    return Plan(order, rules) if order or rules else None


def plan_json(plan: Plan | None) -> dict | None:
    """The plan as its owner may read it back (the same fields as the event)."""
    if plan is None:
        return None
    # ASK is the only item of an order that is not a card; an "on" rule always names its card.
    event = {
        "order": [c if isinstance(c, str) else c.code for c in plan.order],
        "rules": [
            {"rule": r.rule}
            if r.rule in CARDLESS_RULES
            else {"rule": "on", "rank": r.rank, "card": cast(Card, r.card).code}
            for r in plan.rules
        ],
    }
    return {**event, "words": plan_words(event)}


# --- Which card a plan plays ----------------------------------------------------------------


def choose(
    plan: Plan | None, hand: Sequence[Card], count: int, last_laid: Card | None, pegs: Callable[[Card], int]
) -> Card | None:
    """The card `plan` plays now from `hand` at `count` (after `last_laid`, None when leading),
    or None when the plan does not answer. `pegs(card)` is what the card would peg now."""
    if plan is None:
        return None
    legal = [c for c in hand if c.value <= 31 - count]
    if not legal:
        return None
    for rule in plan.rules:
        if rule.rule == "score_first":
            ranked = _in_order(plan, legal)
            points = {c: pegs(c) for c in ranked}
            best = max(ranked, key=lambda c: points[c])
            if points[best] > 0:
                return best
        elif rule.rule in ("low_first", "high_first"):
            # max() and min() keep the first of a tie: the order, then the hand.
            pick = min if rule.rule == "low_first" else max
            return pick(_in_order(plan, legal), key=lambda c: c.rank)
        elif rule.rule == "on" and last_laid is not None and last_laid.rank == rule.rank and rule.card in legal:
            return rule.card
    for item in plan.order:
        if item == ASK:
            return None
        if item in legal:
            return cast(Card, item)  # ASK is the only item that is not a card
    return None


def _in_order(plan: Plan, cards: Sequence[Card]) -> list[Card]:
    """`cards` in the plan's order, the unnamed ones after, as held (max() keeps the first of a tie)."""
    position = {c: i for i, c in enumerate(plan.order) if isinstance(c, Card)}
    return sorted(cards, key=lambda c: position.get(c, len(position)))
