"""A seat's own declarations, seen by nobody else (`PRIVATE_KINDS`): its pegging plan, and
under muggins its hand's count said ahead in the play."""

from __future__ import annotations

from .event_checks import seat_of
from .plans import Plan, PlanProblem, plan_from_event
from .scoring import score_hand
from .state import IllegalMove, State, replace_state, with_item

__all__ = ["with_plan", "apply_plan", "apply_count_ahead"]


def with_plan(state: State, seat: int, plan: Plan | None) -> State:
    plans = state.plans or (None,) * state.rules.players
    plans = with_item(plans, seat, plan)
    return replace_state(state, plans=plans if any(p is not None for p in plans) else ())


def apply_plan(state: State, event: dict) -> State:
    """Set (or, with no order and no rules, clear) the seat's plan; nothing public changes.

    A plan is private: it opens or closes no muggins window and moves no turn.
    """
    seat = seat_of(state, event)
    if state.phase not in ("discard", "play") or not state.hands[seat]:
        raise IllegalMove(
            "plan_too_late",
            "The play of this hand is over: a plan can be set from the deal until your last card is played.",
        )
    played = [p.card for p in state.plays if p.seat == seat and p.card]
    try:
        plan = plan_from_event(event, state.hands[seat], state.discards[seat], played)
    except PlanProblem as problem:
        raise _plan_refused(problem) from None
    return with_plan(state, seat, plan)


def apply_count_ahead(state: State, event: dict) -> State:
    """Under muggins, hold the seat's count of its own hand until its show comes.

    It can be said once the starter is turned (the play), so a player whose play runs from a
    plan need not be asked again at the show. It is the player's own count, never checked
    against a true score they could not know; counted when due, it closes the muggins window
    of the count before it, as counting does.
    """
    seat = seat_of(state, event)
    if not state.rules.muggins:
        raise IllegalMove("count_ahead_no_muggins", "Without muggins every show is counted for the players")
    if state.phase in ("deal", "discard"):
        raise IllegalMove("count_ahead_needs_starter", "A count ahead needs the starter, turned after the discard")
    if state.phase != "play":
        raise IllegalMove("count_ahead_too_late", "The show has begun: count when your turn comes")
    points = event.get("points")
    assert state.starter is not None, "the starter is turned before the play"
    true = score_hand(state.kept[seat], state.starter)
    if type(points) is not int or not 0 <= points <= true.total:
        raise IllegalMove("count_ahead_out_of_range", f"Cannot count {points!r} for this hand", points=points)
    counts = state.counts_ahead or (None,) * state.rules.players
    return replace_state(state, counts_ahead=with_item(counts, seat, points))


def _plan_refused(problem: PlanProblem) -> IllegalMove:
    return IllegalMove(problem.code, problem.reason, **problem.params)
