"""The table in the words of an email: names, the text board, what was just laid and pegged."""

import logging

from games.presentation import cards_text

log = logging.getLogger(__name__)


BAR_WIDTH = 30


def side_names(view):
    """Name of each side (a player, or a partnership "Alice & Carol"), by side number."""
    return names_by_side(seat_names(view), view.side_of_seat, len(view.scores))


def names_by_side(names, side_of_seat, sides):
    """Name of each of `sides` sides from the seats' names ({seat: name}) and `side_of_seat`."""
    return [" & ".join(name for seat, name in names.items() if side_of_seat[seat] == side) for side in range(sides)]


def seat_names(view):
    return {p.seat: p.name for p in view.players}


def game_title(view):
    return " v ".join(side_names(view))


def cards_or_none(codes):
    return cards_text(codes) if codes else "none"


def board_rows(view):
    """The scores as a text board: a bar of '#' per side, filled to score/target."""
    rows = []
    names = side_names(view)
    width = max(len(n) for n in names) if names else 0
    for side, score in enumerate(view.scores):
        filled = min(BAR_WIDTH, round(BAR_WIDTH * score / view.target))
        bar = "#" * filled + "." * (BAR_WIDTH - filled)
        previous = view.previous_scores[side] if view.previous_scores else 0
        rows.append(
            {
                "name": names[side],
                "score": score,
                "previous": previous,
                "bar": bar,
                "percent": min(100, round(100 * score / view.target)),
                "text": f"{names[side].ljust(width)}  [{bar}] {score:>3}/{view.target}",
            }
        )
    return rows


def record_line(record, names):
    who = names.get(record["seat"], f"Seat {record['seat']}")
    if record["phase"] == "muggins":
        return f"{who} called muggins and took {record['points']}"
    if "text" not in record:  # a claim still open to muggins: its reasons are not told yet
        return f"{who} claimed {record['points']}"
    reason = record.get("text") or ""
    if record.get("missed"):
        reason = f"claimed {record['points']}, missed {record['missed']}"
    # Said as at the table, once: the dealer's jack turned is "two for his heels".
    if record["phase"] == "heels":
        return f"{who} turned a jack for the starter: two for his heels"
    if record["phase"] == "start":
        return f"{who} pegged three for last at the start (five-card cribbage gives the pone three)"
    return f"{who} pegged {record['points']}" + (f": {reason}" if reason else "")


def show_line(show, names, starter):
    whose = names.get(show["seat"], f"Seat {show['seat']}")
    what = "crib" if show["what"] == "crib" else "hand"
    line = f"{whose}'s {what}: {cards_or_none(show['cards'])} with the starter {cards_or_none([starter])}"
    if "score" in show:
        line += f": {show['score']['text'] or 'nineteen (nothing)'} ({show['score']['total']})"
    if show.get("claimed") is not None:
        line += f", claimed {show['claimed']}"
    return line


def recent_lines(view):
    """What happened since this seat last acted (the others' plays, with what they pegged and why)."""
    seat, names = view.viewer, seat_names(view)
    lines = []
    if view.phase == "discard" and view.previous_hand:
        prev = view.previous_hand
        if view.plan_played_last_hand:
            # No email came during that play: tell it whole, one line a count.
            lines.append(f"Last hand ({names.get(prev['dealer'])}'s crib), the play (your plan played for you):")
            lines += ["  " + line for line in play_story(prev["plays"], names)]
        lines.append(f"Last hand ({names.get(prev['dealer'])}'s crib), the show:")
        lines += ["  " + show_line(s, names, prev["starter"]) for s in prev["shows"]]
        lines += ["  " + record_line(r, names) for r in prev["records"] if r["phase"] == "muggins"]
        return lines
    plays = view.plays
    mine = [i for i, p in enumerate(plays) if p["seat"] == seat]
    since = mine[-1] + 1 if mine else 0
    pegging = [r for r in view.records if r["phase"] == "play"]
    scored = [i for i, p in enumerate(plays) if p["points"]]
    reasons = dict(zip(scored, pegging)) if len(scored) == len(pegging) else {}
    for i in range(since, len(plays)):
        p = plays[i]
        who = names.get(p["seat"])
        line = f"{who} said go" if p["go"] else f"{who} played {cards_or_none([p['card']])} (count {p['count']})"
        if i in reasons:
            line += f"; {record_line(reasons[i], names)}"
        elif p["points"]:
            line += f"; pegged {p['points']}"
        lines.append(line)
    # His heels and three for last come with the starter, before any play: new only until the
    # seat's first play of the hand (after it, every email of the hand would say them again).
    told_once = () if mine else ("heels", "start")
    lines += [record_line(r, names) for r in view.records if r["phase"] in (*told_once, "muggins")]
    if view.phase == "show":
        lines += [show_line(s, names, view.starter) for s in view.shows]
    return lines


def play_story(plays, names):
    """A hand's play compactly, one line a count: "Bob KH 10, Alice KC 20 pegs 2, Bob go, ..."."""
    counts = {}
    for p in plays:
        who = names.get(p["seat"], f"Seat {p['seat']}")
        said = f"{who} go" if p["go"] else f"{who} {cards_or_none([p['card']])} {p['count']}"
        counts.setdefault(p["round"], []).append(said + (f" pegs {p['points']}" if p["points"] else ""))
    return [", ".join(said) for _, said in sorted(counts.items())]
