"""The emails of play by email, built only from `games.selectors.view_for(game, seat)`.

`turn_context(game, seat)` turns a seat's view into what a turn email (or a
move-link page) shows: what the others just did and pegged, the hand, the
starter, the count, the scores as a text board, the deadline, and every legal
move with the words to reply with and its link. `turn_message(...)` wraps it
in an email with the headers mail clients and providers expect.
"""
from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.core.mail.message import make_msgid
from django.template.loader import render_to_string
from django.utils import timezone

from games.cribbage import card_from_code
from games.cribbage.analysis import discard_options
from games.presentation import cards_text
from games.selectors import view_for

from . import links

BAR_WIDTH = 30
# Words that can be sent at any time, besides the moves listed.
OTHER_WORDS = [
    ("status", "send this email again, with the game as it stands"),
    ("help", "how to reply"),
    ("resign", "concede the game"),
]


def side_names(view):
    """Name of each side (a player, or a partnership "Alice & Carol"), by side number."""
    rules = view["rules"]
    names = []
    for side in range(len(view["scores"])):
        seats = [p for p in view["players"] if (p["seat"] % 2 if rules["partnerships"] else p["seat"]) == side]
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
        rows.append({
            "name": names[side], "score": score, "previous": previous, "bar": bar,
            "percent": min(100, round(100 * score / view["target"])),
            "text": f"{names[side].ljust(width)}  [{bar}] {score:>3}/{view['target']}",
        })
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
    where = {"heels": " for his heels", "start": " for last (three-hand bonus)"}.get(record["phase"], "")
    return f"{who} pegged {record['points']}{where}" + (f": {reason}" if reason else "")


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
    lines += [_record_line(r, names) for r in view["records"] if r["phase"] in ("heels", "start", "muggins")]
    if view["phase"] == "show":
        lines += [_show_line(s, names, view["starter"]) for s in view["shows"]]
    return lines


def _deadline(view, user):
    for p in view["players"]:
        if p["seat"] == view["viewer"] and p["deadline"]:
            zone = user.zone if user is not None else timezone.get_default_timezone()
            local = timezone.localtime(p["deadline"], zone)
            return f"{local:%A %-d %B %Y, %H:%M} ({local.tzname()})"
    return None


def move_choices(view, game_id, seq):
    """Every legal move as {words, url, note}: discards best first with their expected value.

    Under muggins a card (or a count) is offered once: the player says what
    they claim, since listing every claim would tell them the true score.
    """
    seat, choices = view["viewer"], []
    moves = [{k: v for k, v in m.items() if k != "seat"} for m in view["legal_moves"]]
    discards = [m for m in moves if m["kind"] == "discard"]
    if discards:
        rules = view["rules"]
        my_side = seat % 2 if rules["partnerships"] else seat
        owner_side = view["crib_owner"] % 2 if rules["partnerships"] else view["crib_owner"]
        hand = [card_from_code(c) for c in view["hand"]]
        for option in discard_options(hand, my_side == owner_side, players=rules["players"]):
            codes = sorted(c.code for c in option.discard)
            move = next(m for m in discards if sorted(m["cards"]) == codes)
            ev = float(option.total_ev)
            choices.append({
                "words": f"crib {' '.join(move['cards'])}",
                "label": cards_text(move["cards"]),
                "note": f"keep {cards_text(option.keep)}: expected {ev:.2f} points "
                        f"(hand {float(option.hand_ev):.2f}, crib {float(option.crib_ev):+.2f})",
                "url": links.move_url(game_id, seat, seq, move),
            })
    seen = set()
    for move in moves:
        kind = move["kind"]
        if kind == "play" and "claim" in move:
            if move["card"] in seen:
                continue
            seen.add(move["card"])
            choices.append({"words": f"play {move['card']} claim N", "label": cards_text([move["card"]]),
                            "note": "N: the points you claim for it",
                            "url": links.move_url(game_id, seat, seq, {"kind": "play", "card": move["card"]})})
        elif kind == "play":
            choices.append({"words": f"play {move['card']}", "label": cards_text([move["card"]]), "note": "",
                            "url": links.move_url(game_id, seat, seq, move)})
        elif kind == "count":
            if "count" in seen:
                continue
            seen.add("count")
            choices.append({"words": "count N", "label": "count", "note": "N: the points you claim for this show",
                            "url": links.move_url(game_id, seat, seq, {"kind": "count"})})
        elif kind == "muggins":
            choices.append({"words": "muggins", "label": "muggins",
                            "note": "take the points the last claim missed",
                            "url": links.move_url(game_id, seat, seq, move)})
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
        "kept_text": _cards(view.get("kept")) if view.get("kept") and view["phase"] != "discard" else "",
        "crib_owner": "you" if crib_owner == seat else names.get(crib_owner),
        "starter": view.get("starter"),
        "starter_text": _cards([view["starter"]]) if view.get("starter") else "not turned yet",
        "count": view.get("count", 0),
        "count_cards": view.get("count_cards") or [],
        "count_text": _cards(view.get("count_cards")) if view.get("count_cards") else "",
        "board": board_rows(view),
        "deadline": _deadline(view, user),
        "moves": move_choices(view, game.pk, view["seq"]) if view["legal_moves"] else [],
        "other_words": OTHER_WORDS,
        "game_url": links.absolute(game.get_absolute_url()),
        "finished": game.is_finished,
    }


# --- Messages ----------------------------------------------------------------

def thread_root(game_id):
    """The Message-ID every email of one game refers to, so a mail client threads them."""
    return f"<cribbage-game-{game_id}@{settings.REPLY_DOMAIN}>"


def _headers(game_id, seat, user):
    unsubscribe = links.unsubscribe_url(user)
    reply = links.reply_address(game_id, seat)
    return {
        "Message-ID": make_msgid(f"game{game_id}.seat{seat}", domain=settings.REPLY_DOMAIN),
        "In-Reply-To": thread_root(game_id),
        "References": thread_root(game_id),
        "Auto-Submitted": "auto-generated",
        "X-Auto-Response-Suppress": "All",
        "List-Unsubscribe": f"<{unsubscribe}>, <mailto:{reply}?subject=unsubscribe>",
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    }


def build_message(template, context, *, game_id, seat, user, subject):
    """Render templates/mail/<template>.txt and .html into one email to `user` with our headers."""
    context = {**context, "unsubscribe_url": links.unsubscribe_url(user), "site_url": settings.SITE_URL,
               "reply_to": links.reply_address(game_id, seat), "recipient": user}
    text = render_to_string(f"mail/{template}.txt", context)
    html = render_to_string(f"mail/{template}.html", context)
    message = EmailMultiAlternatives(subject, text, settings.DEFAULT_FROM_EMAIL, [user.email],
                                     reply_to=[links.reply_address(game_id, seat)],
                                     headers=_headers(game_id, seat, user))
    message.attach_alternative(html, "text/html")
    return message


def turn_message(game, seat, user):
    context = turn_context(game, seat, user)
    subject = f"Your move: {context['title']} (game {game.pk})"
    return build_message("turn", context, game_id=game.pk, seat=seat, user=user, subject=subject)


def answer_message(game, seat, user, *, problem, words=None, include_state=True):
    """An answer to a reply: what was wrong (or the help), then the game and the moves legal now."""
    context = turn_context(game, seat, user) if include_state else {"game_id": game.pk, "moves": []}
    context.update(problem=problem, words=words)
    title = context.get("title") or f"game {game.pk}"
    subject = f"Re: {title} (game {game.pk})"
    return build_message("answer", context, game_id=game.pk, seat=seat, user=user, subject=subject)
