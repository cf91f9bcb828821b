"""The emails of play by email, built only from `games.selectors.view_for(game, seat)`.

`turn_context(game, seat)` turns a seat's view into what a turn email (or a
move-link page) shows: what the others just did and pegged, the hand, the
starter, the count, the scores as a text board, the deadline, and every legal
move with the words to reply with and its link. `turn_message(...)` makes it
an email (mail.messages.build, templates mail/email/turn.*), adding the
coach's notes (games.coaching, the seat's own view) and, for a player who has
not come back since their last turn email, what happened since
(`since_lines`: the log replayed through the engine's view for that seat
alone). `result_message(...)` is the game-over email.
"""

import logging

from django.urls import reverse
from django.utils import timezone

from games import coaching, cribbage, talk, times
from games.cribbage import card_from_code, notation
from games.cribbage.analysis import discard_options
from games.models import Event
from games.presentation import cards_text, clock_text, help_text, won_text
from games.selectors import view_for

from . import links, messages, quiet

log = logging.getLogger(__name__)
BAR_WIDTH = 30
# Words that can be sent at any time, besides the moves listed.
OTHER_WORDS = [
    ("status", "send this email again, with the game as it stands"),
    ("help", "how to reply"),
    ("resign", "concede the game"),
    ("more time N", f'give your opponent N more days for their move (1 to {times.MAX_MORE_DAYS}; or "extend N")'),
    ("say ...", "a word to the other players, shown at the top of their next email"),
    ("note ...", "your private note on this game"),
]
CLAIM_WORD = ("claim", "win the game of an opponent who ran out of time (we tell you when you may)")


def other_words(game, view=None):
    """The words besides the moves: "claim" only in games where a timeout may be claimed,
    "plan" from the deal until the play ends."""
    words = plan_words(view) if view and view["phase"] in ("discard", "play") and view["viewer"] is not None else []
    words += count_ahead_words(view) if view and game.muggins else []
    words += OTHER_WORDS
    if game.timeout_policy == game.TimeoutPolicy.OPPONENT_CHOOSES:
        words.append(CLAIM_WORD)
    return words


def side_names(view):
    """Name of each side (a player, or a partnership "Alice & Carol"), by side number."""
    names = []
    for side in range(len(view["scores"])):
        seats = [p for p in view["players"] if view["side_of_seat"][p["seat"]] == side]
        names.append(" & ".join(p["name"] for p in seats))
    return names


def seat_names(view):
    return {p["seat"]: p["name"] for p in view["players"]}


def game_title(view):
    return " v ".join(side_names(view))


def _cards(codes):
    return cards_text(codes) if codes else "none"


def board_rows(view):
    """The scores as a text board: a bar of '#' per side, filled to score/target."""
    rows = []
    names = side_names(view)
    width = max(len(n) for n in names) if names else 0
    for side, score in enumerate(view["scores"]):
        filled = min(BAR_WIDTH, round(BAR_WIDTH * score / view["target"]))
        bar = "#" * filled + "." * (BAR_WIDTH - filled)
        previous = view["previous_scores"][side] if view["previous_scores"] else 0
        rows.append(
            {
                "name": names[side],
                "score": score,
                "previous": previous,
                "bar": bar,
                "percent": min(100, round(100 * score / view["target"])),
                "text": f"{names[side].ljust(width)}  [{bar}] {score:>3}/{view['target']}",
            }
        )
    return rows


def _record_line(record, names):
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


def _show_line(show, names, starter):
    whose = names.get(show["seat"], f"Seat {show['seat']}")
    what = "crib" if show["what"] == "crib" else "hand"
    line = f"{whose}'s {what}: {_cards(show['cards'])} with the starter {_cards([starter])}"
    if "score" in show:
        line += f": {show['score']['text'] or 'nineteen (nothing)'} ({show['score']['total']})"
    if show.get("claimed") is not None:
        line += f", claimed {show['claimed']}"
    return line


def recent_lines(view):
    """What happened since this seat last acted (the others' plays, with what they pegged and why)."""
    seat, names = view["viewer"], seat_names(view)
    lines = []
    if view["phase"] == "discard" and view.get("previous_hand"):
        prev = view["previous_hand"]
        if view.get("plan_played_last_hand"):
            # No email came during that play: tell it whole, one line a count.
            lines.append(f"Last hand ({names.get(prev['dealer'])}'s crib), the play (your plan played for you):")
            lines += ["  " + line for line in play_story(prev["plays"], names)]
        lines.append(f"Last hand ({names.get(prev['dealer'])}'s crib), the show:")
        lines += ["  " + _show_line(s, names, prev["starter"]) for s in prev["shows"]]
        lines += ["  " + _record_line(r, names) for r in prev["records"] if r["phase"] == "muggins"]
        return lines
    plays = view["plays"]
    mine = [i for i, p in enumerate(plays) if p["seat"] == seat]
    since = mine[-1] + 1 if mine else 0
    pegging = [r for r in view["records"] if r["phase"] == "play"]
    scored = [i for i, p in enumerate(plays) if p["points"]]
    reasons = dict(zip(scored, pegging)) if len(scored) == len(pegging) else {}
    for i in range(since, len(plays)):
        p = plays[i]
        who = names.get(p["seat"])
        line = f"{who} said go" if p["go"] else f"{who} played {_cards([p['card']])} (count {p['count']})"
        if i in reasons:
            line += f"; {_record_line(reasons[i], names)}"
        elif p["points"]:
            line += f"; pegged {p['points']}"
        lines.append(line)
    # His heels and three for last come with the starter, before any play: new only until the
    # seat's first play of the hand (after it, every email of the hand would say them again).
    told_once = () if mine else ("heels", "start")
    lines += [_record_line(r, names) for r in view["records"] if r["phase"] in (*told_once, "muggins")]
    if view["phase"] == "show":
        lines += [_show_line(s, names, view["starter"]) for s in view["shows"]]
    return lines


def play_story(plays, names):
    """A hand's play compactly, one line a count: "Bob KH 10, Alice KC 20 pegs 2, Bob go, ..."."""
    counts = {}
    for p in plays:
        who = names.get(p["seat"], f"Seat {p['seat']}")
        said = f"{who} go" if p["go"] else f"{who} {_cards([p['card']])} {p['count']}"
        counts.setdefault(p["round"], []).append(said + (f" pegs {p['points']}" if p["points"] else ""))
    return [", ".join(said) for _, said in sorted(counts.items())]


def count_ahead_words(view):
    """Under muggins, in the play (the starter is turned): how to count the show ahead."""
    if view["phase"] != "play" or view["viewer"] is None or not view.get("kept"):
        return []
    said = view.get("count_ahead")
    return [
        (
            "count N",
            "your count of your hand with the starter, said now for the show, so you are not asked again; "
            "it is counted when your turn to show comes (and you then call no muggins on the count before yours)"
            + (f". You have said {said}" if said is not None else ""),
        )
    ]


def plan_words(view):
    """How to say a plan, with the reader's own cards as the example (no other card may show)."""
    hand = view.get("hand") or []
    if view["phase"] == "discard":
        hand = hand[view["rules"]["discard_count"] :]
    if not hand:
        return []
    return [
        (
            f"plan {' '.join(hand)}",
            "play your cards in this order at your turns, without an email for each "
            f'(rules too: "score first", "on 5 play {hand[0]}", "ask"; "plan clear" drops it; '
            'reply "help"). On its own line, under your discard if you like',
        )
    ]


def _deadline(view, user):
    """The reader's deadline, whole and with its zone: an email is read later, so unlike
    times.deadline_text it says no "in 2 days"."""
    for p in view["players"]:
        if p["seat"] == view["viewer"] and p["deadline"]:
            local = timezone.localtime(p["deadline"], times.player_zone(user))
            return f"{local:%A %-d %B %Y, %H:%M} ({local.tzname()})"
    return None


def move_choices(view, game_id, seq, *, with_values=False):
    """Every legal move as {words, url, note}.

    With `with_values` (the game's help is on for this seat: Game.help_allowed_for)
    the discards come best first with their expected value; without it they come
    in a neutral order, by rank and suit, with only the cards they keep.

    Under muggins a card (or a count) is offered once: the player says what
    they claim ("play 7C claim N", "count N"), since listing every claim would
    tell them the true score (the view's legal moves carry no claim anyway:
    cribbage.moves_to_offer).
    """
    seat, choices = view["viewer"], []
    moves = [{k: v for k, v in m.items() if k != "seat"} for m in view["legal_moves"]]
    discards = [m for m in moves if m["kind"] == "discard"]
    if discards and with_values:
        rules = view["rules"]
        my_side = view["side_of_seat"][seat]
        owner_side = view["side_of_seat"][view["crib_owner"]]
        hand = [card_from_code(c) for c in view["hand"]]
        for option in discard_options(hand, my_side == owner_side, players=rules["players"]):
            codes = sorted(c.code for c in option.discard)
            move = next(m for m in discards if sorted(m["cards"]) == codes)
            ev = float(option.total_ev)
            choices.append(
                {
                    "words": notation.write(move),
                    "label": cards_text(move["cards"]),
                    "note": f"keep {cards_text(option.keep)}: expected {ev:.2f} points "
                    f"(hand {float(option.hand_ev):.2f}, crib {float(option.crib_ev):+.2f})",
                    "url": links.move_url(game_id, seat, seq, move),
                }
            )
    elif discards:
        hand = [card_from_code(c) for c in view["hand"]]
        for move in sorted(discards, key=lambda m: sorted(card_from_code(c).index for c in m["cards"])):
            keep = [c for c in hand if c.code not in move["cards"]]
            choices.append(
                {
                    "words": notation.write(move),
                    "label": cards_text(move["cards"]),
                    "note": f"keep {cards_text(keep)}",
                    "url": links.move_url(game_id, seat, seq, move),
                }
            )
    seen = set()
    muggins = view["rules"]["muggins"]
    for move in moves:
        kind = move["kind"]
        if kind == "play" and muggins:
            if move["card"] in seen:
                continue
            seen.add(move["card"])
            choices.append(
                {
                    "words": notation.write(move, blank="N"),
                    "label": cards_text([move["card"]]),
                    "note": "N: the points you claim for it",
                    "url": links.move_url(game_id, seat, seq, {"kind": "play", "card": move["card"]}),
                }
            )
        elif kind == "play":
            choices.append(
                {
                    "words": notation.write(move),
                    "label": cards_text([move["card"]]),
                    "note": "",
                    "url": links.move_url(game_id, seat, seq, move),
                }
            )
        elif kind == "count":
            if "count" in seen:
                continue
            seen.add("count")
            choices.append(
                {
                    "words": notation.write(move, blank="N"),
                    "label": "count",
                    "note": "N: the points you claim for this show",
                    "url": links.move_url(game_id, seat, seq, {"kind": "count"}),
                }
            )
        elif kind == "muggins":
            choices.append(
                {
                    "words": notation.write(move),
                    "label": "muggins",
                    "note": "take the points the last claim missed",
                    "url": links.move_url(game_id, seat, seq, move),
                }
            )
    return choices


def turn_context(game, seat, user=None, view=None):
    """Everything a turn email or move page shows to `seat`, from its view alone."""
    view = view or view_for(game, seat)
    names = seat_names(view)
    rules = view["rules"]
    crib_owner = view.get("crib_owner")
    phase_words = {
        "discard": f"lay away {rules['discard_count']} card{'s' if rules['discard_count'] > 1 else ''} "
        f"to {'your' if crib_owner == seat else names.get(crib_owner, '') + chr(39) + 's'} crib",
        "play": "play a card",
        "show": "count your show",
    }
    return {
        "view": view,
        "game_id": game.pk,
        "seq": view["seq"],
        "title": game_title(view),
        "me": names.get(seat),
        "seat": seat,
        "phase": view["phase"],
        "asked": phase_words.get(view["phase"], ""),
        "recent": recent_lines(view),
        "hand": view.get("hand") or [],
        "hand_text": _cards(view.get("hand")),
        # The cards kept, once some are played (before, they are the hand).
        "kept_text": _cards(view.get("kept"))
        if view.get("kept") and view["phase"] != "discard" and len(view["kept"]) != len(view.get("hand") or [])
        else "",
        "crib_owner": "you" if crib_owner == seat else names.get(crib_owner),
        "starter": view.get("starter"),
        "starter_text": _cards([view["starter"]]) if view.get("starter") else "not turned yet",
        "count": view.get("count", 0),
        "count_cards": view.get("count_cards") or [],
        "count_text": _cards(view.get("count_cards")) if view.get("count_cards") else "",
        "board": board_rows(view),
        "deadline": _deadline(view, user),
        "moves": (
            move_choices(view, game.pk, view["seq"], with_values=game.help_allowed_for(seat))
            if view["legal_moves"]
            else []
        ),
        "other_words": other_words(game, view),
        "plan": view.get("plan"),
        "game_url": links.absolute(game.get_absolute_url()),
        "finished": game.is_finished,
    }


# --- Messages ----------------------------------------------------------------


def turn_message(game, seat, user, seat_row=None):
    """The turn email: the state and moves, the coach's notes after a discard or a hand and,
    for a player who has not come back since the last one (`seat_row`, the Seat, tells),
    what happened since that one."""
    context = turn_context(game, seat, user)
    context["coach"] = turn_coach_lines(game, seat, context["view"])
    if seat_row is not None:
        last = quiet.last_turn_email(seat_row)
        if last is None:  # the first turn email of the game: its clock, as agreed, and its help
            context["clock_rules"] = clock_text(game)
            context["help_text"] = help_text(game.assistance)
        context["talk"] = talk.talk_to_tell(game, user, since=last[0] if last else None)
        if last is not None and not quiet.came_back_since(seat_row, *last):
            context["since"] = since_lines(game, seat, last[1])
            context["recent"] = [] if context["since"] else context["recent"]  # told in full above
    return messages.build("mail/email/turn", context, to=user.email, user=user, game_id=game.pk, seat=seat)


# --- What happened since the last turn email (the quiet inbox) ----------------------


def since_lines(game, seat, since_seq):
    """What happened after state `since_seq`, as `seat` saw it at the table.

    The log is replayed through the engine's `view(state, seat)` (what that
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
            before = first = cribbage.view(state, seat)
        state = cribbage.apply(state, data)
        if seq <= since_seq:
            continue
        after = cribbage.view(state, seat)
        lines += _move_lines(data, source, before, after, names_you, seat)
        before = after
    if first is None:
        return []
    if first["scores"] != before["scores"]:
        sides = side_names({**before, "players": [{"seat": n, "name": name} for n, name in names.items()]})
        lines.append(
            "Scores then and now: "
            + ", ".join(
                f"{name} {then} \u2192 {now}" for name, then, now in zip(sides, first["scores"], before["scores"])
            )
        )
    return lines


def _move_lines(data, source, before, after, names, seat):
    kind = data.get("kind")
    if kind == "deal":
        return [f"Hand {after['hand_number']}: {names.get(after['dealer'])} dealt."]
    same_hand = after["hand_number"] == before["hand_number"]
    lines = []
    if after["starter"] and not (same_hand and before["starter"]):
        lines.append(f"The starter: {_cards([after['starter']])}")
    plays = after["plays"][len(before["plays"]) :] if same_hand else after["plays"]
    for_you = data.get("seat") == seat and source in (Event.Source.FORCED, Event.Source.TIMEOUT, Event.Source.PLAN)
    for p in plays:
        who = names.get(p["seat"])
        line = f"{who} said go" if p["go"] else f"{who} played {_cards([p['card']])} (count {p['count']})"
        if for_you and p["seat"] == seat:
            line += {Event.Source.FORCED: " (played for you)", Event.Source.PLAN: " (from your plan)"}.get(
                source, " (the computer stood in for you)"
            )
        lines.append(line)
    records = after["records"][len(before["records"]) :] if same_hand else after["records"]
    lines += [
        _record_line(r, names)
        for r in records
        if r["phase"] in ("play", "heels", "start", "muggins") and (r["points"] or r.get("missed"))
    ]
    shows = after["shows"][len(before["shows"]) :] if same_hand else after["shows"]
    lines += [_show_line(s, names, after["starter"]) for s in shows]
    return lines


# --- The coach -----------------------------------------------------------------------


def turn_coach_lines(game, seat, view):
    """The coach's notes a turn email carries: the verdict on the player's discard in the first
    email after it, and the last hand's throw and pegging slips in the next hand's discard email.

    From games.coaching (the seat's own view only). The coach is an extra: if it fails, the
    turn email goes without it.
    """
    first_after_discard = (
        view["phase"] == "play" and view.get("my_discards") and not any(p["seat"] == seat for p in view["plays"])
    )
    new_hand = view["phase"] == "discard" and view.get("previous_hand")
    if not (first_after_discard or new_hand):
        return []
    notes = _coach_notes(game, seat)
    if notes is None:
        return []
    return coach_lines(
        {
            "discard": notes["discard"] if first_after_discard else None,
            "previous_hand": notes["previous_hand"] if new_hand else None,
        }
    )


def _coach_notes(game, seat):
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
            f"over {r['discards']} hand{'s' if r['discards'] != 1 else ''}; your throws: "
            f"{verdicts['good']} good, {verdicts['inaccuracy']} inaccurate, {verdicts['mistake']} mistakes."
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


# --- The result of a finished game ---------------------------------------------------


def result_lines(view):
    """The result in words: who won, how, the skunk, the final scores; [] while playing."""
    result = view.get("result")
    if not result:
        return []
    sides = side_names(view)
    seat = view["viewer"]
    mine = seat is not None and view["side_of_seat"][seat] == result["winner"]
    text = won_text("You" if mine else sides[result["winner"]], result, seat_names(view), view["target"])
    scores = ", ".join(f"{name} {score}" for name, score in zip(sides, result["scores"]))
    return [f"{text}.", f"Final scores: {scores}."]


def last_show_lines(view):
    """The last hand's show (or, when the game was pegged out, the last pegging), as the reader saw it."""
    names = seat_names(view)
    if view["shows"]:
        return [_show_line(s, names, view["starter"]) for s in view["shows"]]
    prev = view.get("previous_hand")
    if view["plays"]:
        lines = []
        for p in view["plays"][-8:]:
            who = names.get(p["seat"])
            line = f"{who} said go" if p["go"] else f"{who} played {_cards([p['card']])} (count {p['count']})"
            lines.append(line + (f"; pegged {p['points']}" if p["points"] else ""))
        return lines
    if prev:
        return [_show_line(s, names, prev["starter"]) for s in prev["shows"]]
    return []


def result_context(game, seat, user=None):
    view = view_for(game, seat)
    context = turn_context(game, seat, user, view=view)
    notes = _coach_notes(game, seat)
    context.update(
        result=result_lines(view),
        last_show=last_show_lines(view),
        last_show_title="The last show" if view["shows"] or not view["plays"] else "The last pegging",
        coach=coach_lines({"review": notes["review"]}) if notes else [],
        review_offer=review_offer(game, seat),
        record_url=links.absolute(reverse("games:record", args=[game.pk])),
    )
    return context


def review_offer(game, seat):
    """What the game-over email says of the review: the luck and skill in a line, and how to get
    the whole of it (the reply "review", or the game page)."""
    try:
        review = coaching.full_review(game, seat)
    except Exception:
        log.exception("The review failed for game %s seat %s; the email goes without it.", game.pk, seat)
        return []
    if not review:
        return []
    swings = (review.get("chances") or {}).get("swings")
    biggest = [f"The biggest swing: {swings[0]['words']}."] if swings else []
    return [
        review["luck"]["summary"],
        *biggest,
        'Reply "review" for the whole review, every throw beside the best and every pegging choice '
        f"that cost points, hand by hand; or read it on the game page: "
        f"{links.absolute(game.get_absolute_url())}#review",
    ]


def result_message(game, seat, user):
    """The game-over email: the result, the last show, the coach's review, the record."""
    context = result_context(game, seat, user)
    return messages.build("mail/email/result", context, to=user.email, user=user, game_id=game.pk, seat=seat)


def done_words(move):
    """What a move did, said to the player who made it: "You laid away 5♥ J♦ to the crib"."""
    kind = move.get("kind")
    if kind == "discard":
        return f"You laid away {cards_text(move['cards'])} to the crib"
    if kind == "play":
        claim = f", claiming {move['claim']}" if "claim" in move else ""
        return f"You played {cards_text([move['card']])}{claim}"
    if kind == "count":
        return f"You counted {move.get('points')} for your show"
    if kind == "plan":
        return (
            f"Your plan is set: {notation.write(move)}"
            if move.get("order") or move.get("rules")
            else "Your plan is cleared"
        )
    return {"muggins": "You called muggins", "resign": "You resigned the game"}.get(kind, f"You moved: {kind}")


def answer_message(game, seat, user, *, problem, words=None, include_state=True, changed=False):
    """An answer to a reply: what was wrong (or the help; or, `changed`, what the reply did), then
    the game and the moves legal now."""
    if include_state:
        context = turn_context(game, seat, user)
    else:  # the game's subject still, so the answer threads with the game's other emails
        context = {"game_id": game.pk, "moves": [], "title": game_title(view_for(game, seat))}
    context.update(problem=problem, words=words, changed=changed)
    return messages.build("mail/email/answer", context, to=user.email, user=user, game_id=game.pk, seat=seat)
