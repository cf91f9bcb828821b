"""The events of a hand: the deal, the discard (the starter turned after it), the play, the
show (counted for the players, or under muggins by them), a muggins call, and "go", which is
never a move."""

from __future__ import annotations

from .cards import Card
from .event_checks import all_legal, card_of, require_turn, seat_of, seat_to_act, wrong_phase
from .moves import (
    legal_moves,
    muggins_target,
    plan_of,
    planned_move,
    play_result,
    show_cards,
    show_order,
    show_score,
    to_act,
)
from .pegging import playable
from .plan_events import with_plan
from .plans import without
from .scoreboard import close_window, peg, peg_claim
from .scoring import ScoreItem, score_hand
from .state import HandSummary, IllegalMove, PlayEntry, ShowResult, State, replace_state, with_item

__all__ = ["apply_deal", "apply_discard", "apply_play", "apply_count", "apply_muggins", "apply_go"]


def _summary(state: State) -> HandSummary:
    assert state.dealer is not None and state.starter is not None, "only a hand that was played is summed up"
    return HandSummary(
        state.hand_number, state.dealer, state.starter, state.kept, state.crib, state.plays, state.records, state.shows
    )


def apply_deal(state: State, event: dict) -> State:
    if state.phase != "deal":
        raise IllegalMove("chance_not_due", "No deal is due now", all_legal(state), kind="deal")
    codes = event.get("deck")
    if not isinstance(codes, list) or len(codes) != 52:
        raise IllegalMove("malformed", "A deal needs 'deck': the 52 card codes in shuffled order")
    deck = tuple(card_of(c, []) for c in codes)
    if len(set(deck)) != 52:
        raise IllegalMove("bad_deck", "The deck must hold each of the 52 cards once")
    rules, n = state.rules, state.rules.players
    played_before = state.starter is not None
    assert state.dealer is not None, "the cut for deal comes before the deal"
    dealer = (state.dealer + 1) % n if played_before else state.dealer
    hands: list[list[Card]] = [[] for _ in range(n)]
    dealt = rules.hand_size * n
    for i, card in enumerate(deck[:dealt]):
        hands[(dealer + 1 + i) % n].append(card)
    crib_end = dealt + rules.deck_to_crib
    return replace_state(
        state,
        phase="discard",
        dealer=dealer,
        hand_number=state.hand_number + 1,
        deck=deck[crib_end:],
        starter=None,
        crib=deck[dealt:crib_end],
        hands=tuple(map(tuple, hands)),
        kept=((),) * n,
        discards=((),) * n,
        count=0,
        count_cards=(),
        round=0,
        turn=None,
        gone=frozenset(),
        plays=(),
        records=state.records if not played_before else (),
        shows=(),
        show_next=0,
        previous=_summary(state) if played_before else state.previous,
        plans=(),
        plan_played=frozenset(),
        plan_played_before=state.plan_played,
        counts_ahead=(),
    )


def apply_discard(state: State, event: dict) -> State:
    seat = seat_of(state, event)
    require_turn(state, seat, "discard")
    if state.phase != "discard":
        raise wrong_phase(state, seat, "discard")
    rules = state.rules
    legal = lambda: legal_moves(state, seat)  # noqa: E731
    codes = event.get("cards")
    if not isinstance(codes, list):
        raise IllegalMove("malformed", "A discard needs 'cards': a list of card codes", legal)
    cards = tuple(card_of(c, legal) for c in codes)
    held = state.hands[seat]
    missing = [c.code for c in cards if c not in held]
    if missing:
        raise IllegalMove("not_held", f"Seat {seat} does not hold {' '.join(missing)}", legal, cards=missing)
    if len(set(cards)) != len(cards):
        raise IllegalMove(
            "same_card_twice",
            f"The same card twice: {' '.join(c.code for c in cards)}",
            legal,
            cards=[c.code for c in cards],
        )
    if len(cards) != rules.discard_count:
        raise IllegalMove(
            "wrong_throw_count",
            f"Lay away exactly {rules.discard_count} card(s) to the crib",
            legal,
            needed=rules.discard_count,
            given=len(cards),
        )
    rest = tuple(c for c in held if c not in cards)
    state = replace_state(
        close_window(state, seat),
        hands=with_item(state.hands, seat, rest),
        kept=with_item(state.kept, seat, rest),
        discards=with_item(state.discards, seat, cards),
    )
    if plan_of(state, seat) is not None:
        state = with_plan(state, seat, without(plan_of(state, seat), cards))
    if to_act(state):
        return state
    return _turn_starter(state)


def _turn_starter(state: State) -> State:
    crib = state.crib + tuple(c for cards in state.discards for c in cards)
    starter = state.deck[0]
    state = replace_state(state, crib=crib, starter=starter, deck=state.deck[1:])
    dealer = state.dealer
    assert dealer is not None, "the deal comes before the starter"
    if starter.rank == 11:
        # His heels pegs at once (never subject to muggins) and can win the game.
        state = peg(state, dealer, "heels", 2, (ScoreItem("heels", (starter,), 2),))
        if state.phase == "over":
            return state
    return replace_state(state, phase="play", turn=(dealer + 1) % state.rules.players)


def apply_play(state: State, event: dict) -> State:
    seat = seat_to_act(state, event, "play", "play")
    legal = lambda: legal_moves(state, seat)  # noqa: E731
    card = card_of(event.get("card"), legal)
    if card not in state.hands[seat]:
        raise IllegalMove("not_held", f"Seat {seat} does not hold {card.code}", legal, cards=[card.code])
    if state.count + card.value > 31:
        raise IllegalMove(
            "count_over_31",
            f"{card.code} would take the count past 31 (count is {state.count})",
            legal,
            card=card.code,
            count=state.count,
        )
    if event.get("plan"):
        chosen = planned_move(state)
        if chosen is None or chosen["seat"] != seat or chosen["card"] != card.code:
            raise IllegalMove(
                "not_the_plans_card", f"Seat {seat}'s plan does not play {card.code} now", legal, card=card.code
            )
    res, hands_after = play_result(state, seat, card)
    true = res.score
    if state.rules.muggins:
        claim = event.get("claim", 0)
        if type(claim) is not int or not 0 <= claim <= true.total:
            raise IllegalMove(
                "claim_out_of_range", f"Cannot claim {claim!r} for {card.code}", legal, card=card.code, claim=claim
            )
        points = claim
    else:
        points = true.total
    plays = state.plays + (PlayEntry(seat, card, res.count, points, state.round),)
    newly_gone = [s for s in res.went if s not in state.gone]
    plays += tuple(PlayEntry(s, None, res.count, 0, state.round) for s in newly_gone)
    state = replace_state(
        close_window(state, seat),
        hands=hands_after,
        count=res.count,
        count_cards=state.count_cards + (card,),
        plays=plays,
        gone=state.gone.union(newly_gone),
    )
    if event.get("plan"):
        state = replace_state(state, plan_played=state.plan_played | {seat})
    if state.rules.muggins:
        state = peg_claim(state, seat, "play", true, points)
    elif points:
        state = peg(state, seat, "play", points, true.items)
    if state.phase == "over":
        return state
    if not res.count_over:
        return replace_state(state, turn=res.next_seat)
    if not res.play_over:
        return replace_state(
            state, turn=res.next_seat, count=0, count_cards=(), gone=frozenset(), round=state.round + 1
        )
    # A plan ends with the hand's play.
    state = replace_state(state, count=0, count_cards=(), gone=frozenset(), turn=None, plans=())
    if state.rules.muggins:
        return replace_state(state, phase="show", show_next=0, turn=show_order(state)[0][0])
    return _show_all(state)


def _show_all(state: State) -> State:
    """Count every hand and the crib in order, stopping the moment someone wins."""
    assert state.starter is not None, "the starter is turned before the show"
    for seat, what in show_order(state):
        cards = show_cards(state, seat, what)
        score = score_hand(cards, state.starter, crib=what == "crib")
        state = replace_state(state, shows=state.shows + (ShowResult(seat, what, cards, score),))
        if score.total:
            state = peg(state, seat, "show", score.total, score.items)
            if state.phase == "over":
                return state
    return replace_state(state, phase="deal", turn=None)


def apply_count(state: State, event: dict) -> State:
    seat = seat_to_act(state, event, "show", "count")
    legal = lambda: legal_moves(state, seat)  # noqa: E731
    points = event.get("points")
    score = show_score(state)
    if type(points) is not int or not 0 <= points <= score.total:
        what = show_order(state)[state.show_next][1]
        raise IllegalMove(
            "count_out_of_range", f"Cannot count {points!r} for this {what}", legal, points=points, what=what
        )
    if event.get("plan") and planned_move(state) != {"kind": "count", "seat": seat, "points": points, "plan": True}:
        raise IllegalMove("not_the_count_ahead", f"Seat {seat} said no count of {points} ahead", legal, points=points)
    seat, what = show_order(state)[state.show_next]
    cards = show_cards(state, seat, what)
    state = replace_state(
        close_window(state, seat), shows=state.shows + (ShowResult(seat, what, cards, score, points),)
    )
    state = peg_claim(state, seat, "show", score, points)
    if state.phase == "over":
        return state
    nxt = state.show_next + 1
    if nxt == len(show_order(state)):
        return replace_state(state, phase="deal", turn=None, show_next=nxt)
    return replace_state(state, show_next=nxt, turn=show_order(state)[nxt][0])


def apply_muggins(state: State, event: dict) -> State:
    seat = seat_of(state, event)
    claim = state.open_claim
    if claim is None or state.rules.side_of(seat) == claim.side:
        raise IllegalMove("no_muggins", f"Seat {seat} has no muggins to call", legal_moves(state, seat))
    target = muggins_target(state)
    if target is None:
        raise IllegalMove(
            "muggins_nothing_missed",
            f"Seat {seat} has no muggins to call (nothing was missed)",
            legal_moves(state, seat),
        )
    state = replace_state(state, open_claim=None)
    return peg(state, seat, "muggins", target.missed, target.items)


def apply_go(state: State, event: dict) -> State:
    """ "go" is never a move: a seat that cannot play is skipped by the engine (see pegging)."""
    seat = seat_of(state, event)
    require_turn(state, seat, "go")
    cards = playable(state.hands[seat], state.count) if state.phase == "play" else []
    raise IllegalMove(
        "go_is_automatic",
        "Go is said for a seat that cannot play, never by it",
        lambda: legal_moves(state, seat),
        playable=[c.code for c in cards],
    )
