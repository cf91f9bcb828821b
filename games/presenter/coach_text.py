"""The coach in an email's words: the seat's own notes, and what a choice cost in win chance."""

import logging

from games import coaching
from games.presentation import cards_text, plural

log = logging.getLogger(__name__)


def turn_coach_lines(game, seat, view):
    """The coach's notes a turn email carries: the verdict on the player's discard in the first
    email after it, and the last hand's throw and pegging slips in the next hand's discard email.

    From games.coaching (the seat's own view only). The coach is an extra: if it fails, the
    turn email goes without it.
    """
    first_after_discard = view.phase == "play" and view.my_discards and not any(p["seat"] == seat for p in view.plays)
    new_hand = view.phase == "discard" and view.previous_hand
    if not (first_after_discard or new_hand):
        return []
    notes = coach_notes_for(game, seat)
    if notes is None:
        return []
    return coach_lines(
        {
            "discard": notes["discard"] if first_after_discard else None,
            "previous_hand": notes["previous_hand"] if new_hand else None,
        }
    )


def coach_notes_for(game, seat):
    try:
        return coaching.coach_notes(game, seat)
    except Exception:
        log.exception("The coach failed for game %s seat %s; the email goes without it.", game.pk, seat)
        return None


def _label(code):
    return cards_text([code]) if code else ""


def coach_lines(notes):
    """The coach's notes (games.coaching.coach_notes, or part of them) in words, one per line."""
    lines = []
    d = notes.get("discard")
    if d:
        line = f"You threw {cards_text(d['discard'])}: {d['ev']:.2f} points expected. "
        if d["is_best"]:
            line += "The best throw."
        else:
            line += (
                f"Best was {cards_text(d['best_discard'])} ({d['best_ev']:.2f}), {d['loss']:.2f} more: {d['verdict']}."
            )
        lines.append(line + chance_cost_words(d.get("chance")))
    h = notes.get("previous_hand")
    if h:
        line = f"Last hand (hand {h['number']})"
        if h["discard"]:
            line += f": your throw was {coaching.VERDICT_SAID.get(h['discard']['verdict'], h['discard']['verdict'])}"
            if not h["discard"]["is_best"]:
                line += f" ({h['discard']['loss']:.2f} points behind {cards_text(h['discard']['best_discard'])})"
        if h["discard"]:
            line += "." + chance_cost_words(h["discard"].get("chance")).rstrip(".")
        lines.append(line + "." + ("" if h["lapses"] else " No pegging slips."))
        for lapse in h["lapses"]:
            line = _lapse_line(lapse) + chance_cost_words(lapse.get("chance"))
            lines.append(line[0].upper() + line[1:])
    r = notes.get("review")
    if r:
        verdicts = r["verdicts"]
        lines.append(
            f"Game review: about {r['total_loss']:.1f} points lost "
            f"({r['discard_loss']:.1f} in discards, {r['pegging_loss']:.1f} in pegging) "
            f"over {plural(r['discards'], 'hand')}; your throws: "
            f"{verdicts['good']} good, {verdicts['inaccuracy']} inaccurate, {plural(verdicts['mistake'], 'mistake')}."
        )
        for w in r["worst_discards"]:
            lines.append(
                f"Hand {w['hand']}: you threw {cards_text(w['discard'])}; best was "
                f"{cards_text(w['best_discard'])} ({w['loss']:.2f} points, {w['verdict']})."
            )
        for w in r["worst_plays"]:
            lines.append(f"Hand {w['hand']}: " + _lapse_line(w))
    return lines


def chance_cost_words(chance):
    """ " It cost 4.1% win chance (J♥ K♥ gave 56.2%)." for a decision's ``chances.decision_json``;
    "" without one (no help, or no win-chance table for the game)."""
    if not chance:
        return ""
    if chance["chance_lost"] < 0.1:
        return f" No win chance lost ({chance['best_chance']}%)."
    return (
        f" It cost {chance['chance_lost']}% win chance "
        f"({cards_text(chance['best_by_chance'])} gave {chance['best_chance']}%)."
    )


def _lapse_line(lapse):
    better = lapse["safer"] or lapse["best"]
    reasons = "; ".join(lapse["reasons"])
    return (
        f"in the pegging, {_label(lapse['card'])} on {lapse['count_before']}"
        + (f": {reasons}" if reasons else "")
        + f"; {_label(better)} was {'safer' if lapse['safer'] else 'better'}"
        f" ({lapse['loss']:.2f} points, {lapse['verdict']})."
    )
