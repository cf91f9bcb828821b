"""What happened since a seat's last turn email: the log replayed through that seat's view alone."""

import logging

from games import cribbage
from games.models import Event

from .table_text import cards_or_none, names_by_side, record_line, show_line

log = logging.getLogger(__name__)


def since_lines(game, seat, since_seq):
    """What happened after state `since_seq`, as `seat` saw it at the table.

    The log is replayed through the engine's `seat_view(state, seat)` (what that
    seat could see, never another hand), and each move after `since_seq` is
    told from the difference between the views before and after it: the
    plays and goes, the points pegged with their reasons, the starter, the
    shows, each new deal; moves made for the player (forced, or by the
    computer standing in) are marked; then the scores then and now.
    """
    rules = cribbage.Rules.from_json(game.rules)
    state = cribbage.new_game(rules, first_dealer=game.first_dealer)
    names = {s.number: str(s) for s in game.seats.all()}
    names_you = {**names, seat: "You"}
    lines, before, first = [], None, None
    for seq, data, source in game.events.engine_moves().values_list("seq", "data", "source"):
        if seq > since_seq and before is None:
            before = first = cribbage.seat_view(state, seat)
        state = cribbage.apply(state, data)
        if seq <= since_seq:
            continue
        after = cribbage.seat_view(state, seat)
        lines += _move_lines(data, source, before, after, names_you, seat)
        before = after
    if first is None:
        return []
    if first.scores != before.scores:
        sides = names_by_side(names, before.side_of_seat, len(before.scores))
        lines.append(
            "Scores then and now: "
            + ", ".join(f"{name} {then} \u2192 {now}" for name, then, now in zip(sides, first.scores, before.scores))
        )
    return lines


def _move_lines(data, source, before, after, names, seat):
    kind = data.get("kind")
    if kind == "deal":
        return [f"Hand {after.hand_number}: {names.get(after.dealer)} dealt."]
    same_hand = after.hand_number == before.hand_number
    lines = []
    if after.starter and not (same_hand and before.starter):
        lines.append(f"The starter: {cards_or_none([after.starter])}")
    plays = after.plays[len(before.plays) :] if same_hand else after.plays
    for_you = data.get("seat") == seat and source in (Event.Source.FORCED, Event.Source.TIMEOUT, Event.Source.PLAN)
    for p in plays:
        who = names.get(p["seat"])
        line = f"{who} said go" if p["go"] else f"{who} played {cards_or_none([p['card']])} (count {p['count']})"
        if for_you and p["seat"] == seat:
            line += {Event.Source.FORCED: " (played for you)", Event.Source.PLAN: " (from your plan)"}.get(
                source, " (the computer stood in for you)"
            )
        lines.append(line)
    records = after.records[len(before.records) :] if same_hand else after.records
    lines += [
        record_line(r, names)
        for r in records
        if r["phase"] in ("play", "heels", "start", "muggins") and (r["points"] or r.get("missed"))
    ]
    shows = after.shows[len(before.shows) :] if same_hand else after.shows
    lines += [show_line(s, names, after.starter) for s in shows]
    return lines
