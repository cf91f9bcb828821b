"""The game page's and the record's pieces drawn many times a page, written out in Python as the
templates they replace drew them (a template included for each costs far more):

- `pegging(rounds)` -> a hand's pegging, count by count (`presenter.Table.plays`)
- `counted_show(show)` -> a counted hand or crib, a combination at a time (`presenter.Table.shows`)

- `felt_others(others, phase)`, `card_picks(hand)`, `card_buttons(hand, playable, count)` -> the
  other seats round the felt, the discard form's cards and the play form's (a card at a time)
- `score_sides(sides)`, `plan_places(places)` -> the scoreboard's sides, the plan form's places

and the table talk panel, drawn on every look at the page (`talk_panel`, games/_talk.html's markup).
`{% pegging %}`, `{% counted_show %}`, `{% felt_others %}`, `{% card_picks %}`, `{% card_buttons %}`,
`{% score_sides %}`, `{% plan_places %}` and `{% talk_panel %}` in templates (`{% load cards %}`).
"""

import html as html_text
from functools import lru_cache

from django.template.defaultfilters import date
from django.templatetags.static import static
from django.urls import get_script_prefix, get_urlconf, reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.timezone import localtime

from games.board import board_html
from games.cribbage import FULL_GAME
from games.presentation import card_back, card_chip, card_chips, card_face, card_name, in_card_order


def pegging(rounds: list[dict]) -> SafeString:
    """A hand's pegging count by count (`presenter.Table.plays`), as the game page and the record
    draw it; written out, as a changed page draws two (this hand's and the last)."""
    html = ["\n"]
    for number, r in enumerate(rounds, 1):
        html.append(f'\n<ol class="pegging" aria-label="Count {number}">\n  ')
        for p in r["plays"]:
            who = f'<span class="who">{_escape(p["who"])}</span>'
            if p.get("go"):
                html.append(f"\n  <li>{who}: “go”</li>\n  ")
                continue
            points = p.get("points")
            pegged = f' <strong class="pegged">+{_escape(points)}</strong>' if points else ""
            html.append(
                f'\n  <li>{who} {card_chip(p["card"])} <span class="count">{_escape(p.get("count", ""))}</span>{pegged}</li>\n  '
            )
        html.append("\n</ol>\n")
    if not rounds:
        html.append('\n<p class="muted">No cards played yet.</p>\n')
    html.append("\n")
    return mark_safe("".join(html))  # noqa: S308 (every value escaped or a chip)


def counted_show(show: dict) -> SafeString:
    """One counted hand or crib said aloud a combination at a time (a show of
    `presenter.Table.shows`), as the game page and the record draw it. Written out rather than
    a template included for each show: a changed game page draws up to six."""
    title = _escape(show["title"])
    hand = "".join(
        f'<span class="show-card" data-card="{_escape(c)}">{card_chip(c)}</span>' for c in in_card_order(show["cards"])
    )
    if show["starter"]:
        starter = show["starter"]
        hand += f'<span class="show-card show-starter" data-card="{_escape(starter)}">{card_chip(starter)}<small>starter</small></span>'
    html = [f'\n<section class="show counted-show" aria-label="{title}">\n  <h4 class="show-title">{title}</h4>\n']
    html.append(f'  <p class="show-hand">{hand}</p>\n  ')
    score, claimed = show["score"], show["claimed"]
    if score:
        html.append('\n  <ol class="show-steps">\n    ')
        for row in show["rows"]:
            codes = _escape(" ".join(c.code for c in row.cards))
            html.append(
                f'\n    <li class="show-step {_escape(row.kind)}" data-cards="{codes}"><span class="said">'
                f'{_escape(_capfirst(row.said))}</span> <span class="show-cards">{card_chips(row.cards)}</span></li>\n    '
            )
        if not show["rows"]:
            html.append('\n    <li class="show-step nothing" data-cards="">Nothing to count: “nineteen”.</li>\n    ')
        total = score.total
        counted = ""
        if claimed is not None:
            missed = f": {total} was there to be counted" if claimed < total else ""
            counted = f" Counted as <strong>{claimed}</strong>{missed}."
        html.append(
            f'\n  </ol>\n  <p class="show-total">{title}: <strong>{total}</strong> point{"" if total == 1 else "s"}.'
            f"{counted}</p>\n  "
        )
    else:
        html.append(
            f'\n  <p class="show-total">Counted as <strong>{claimed}</strong>. The true count is shown once the chance'
            " to call muggins has passed.</p>\n  "
        )
    html.append("\n</section>\n")
    return mark_safe("".join(html))  # noqa: S308 (every value above escaped or a chip)


def felt_others(others: list[dict], phase: str) -> SafeString:
    """The other seats round the felt (`presenter.Table.others`), as games/game.html's loop over
    them drew each (a test renders both): name, score, what they are doing, their cards face down."""
    html = []
    for p in others:
        to_act = p.get("to_act")
        computer = ' <span class="muted">(computer)</span>' if p.get("is_computer") else ""
        tags = '<span class="tag">deals: the crib is theirs</span>' if p.get("dealer") else ""
        if to_act:
            tags += '<span class="tag turn">to move</span>'
        if phase == "discard" and p.get("discarded"):
            tags += '<span class="tag">has laid away</span>'
        held = p.get("cards_held") or 0
        backs = card_back("") * int(held)
        html.append(
            f'\n    <li class="felt-seat{" to-act" if to_act else ""}">\n'
            f'      <span class="felt-name"><strong>{escaped(p.get("label", ""))}</strong>{computer}'
            f' <span class="felt-score">{escaped(p.get("score", ""))}</span></span>\n'
            f'      <span class="felt-tags">{tags}</span>\n'
            f'      <span class="felt-backs" role="img" aria-label="{escaped(held)} card{"" if held == 1 else "s"} in hand">'
            f"{backs}</span>\n    </li>\n  "
        )
    return mark_safe("".join(html))  # noqa: S308 (every value escaped)


def card_picks(hand) -> SafeString:
    """The discard form's cards, in card order, each a box to tick (games/game.html's loop)."""
    html = []
    for c in in_card_order(hand):
        code = _escape(c)
        html.append(
            f'\n        <label class="card-pick" data-card="{code}"><input type="checkbox" name="cards" value="{code}"'
            f' aria-label="{_escape(card_name(c))}">{card_face(c)}</label>\n      '
        )
    return mark_safe("".join(html))  # noqa: S308 (every value escaped or a card)


def card_buttons(hand, playable, count) -> SafeString:
    """The play form's cards, in card order: a button to play each, disabled for one too high to
    play on `count` (games/game.html's loop)."""
    html = []
    for c in in_card_order(hand):
        code, name = _escape(c), _escape(card_name(c))
        if c in (playable or ()):
            button = (
                f'<button type="submit" name="card" value="{code}" class="card-button" aria-label="Play {name}">'
                f"{card_face(c)}</button>"
            )
        else:
            button = (
                f'<button type="submit" name="card" value="{code}" class="card-button" disabled'
                f' aria-label="{name}: too high to play on {escaped(count)}">{card_face(c)}'
                '<span class="too-high">too high</span></button>'
            )
        html.append(f"\n        \n        {button}\n        \n      ")
    return mark_safe("".join(html))  # noqa: S308 (every value escaped or a card)


def felt_middle(v, pile, seat, crib_owner) -> SafeString:
    """The middle of the felt (games/game.html's felt-middle, a test renders both): the starter,
    the count and its pile in the play (`pile()`, `presenter.Table.pile`, asked only then), the crib."""
    starter = card_face(v.starter) if v.starter else card_back("the starter, not turned yet")
    if v.phase == "play":
        laid = "".join(
            f"<li>{card_face(_look(p, 'card'))}<small>{escaped(_look(p, 'who'))}</small></li>" for p in pile()
        )
        laid = laid or '<li class="muted pile-empty">No card laid on this count yet.</li>'
        play = (
            '\n      <span class="felt-label" id="count-label">The count</span>\n'
            f'      <strong class="running-count" id="running-count">{escaped(v.count)}</strong>\n'
            f'      <ol class="pile">{laid}</ol>\n      '
        )
    else:
        said = (
            "Over: each hand is counted, then the crib."
            if v.phase == "show"
            else "Starts once every crib card is laid away."
        )
        play = (
            '\n      <span class="felt-label" id="count-label">The play</span>\n'
            f'      <p class="muted pile-empty">{said}</p>\n      '
        )
    if crib_owner:
        crib = "Your crib" if v.crib_owner == seat else f"{escaped(crib_owner)}’s crib"
    else:
        crib = "The crib"
    return mark_safe(  # noqa: S308 (every value escaped or a card)
        '<div class="felt-middle">\n    <div class="felt-deck">\n      <span class="felt-label">Starter</span>\n'
        f'      {starter}\n    </div>\n    <div class="felt-pile" aria-labelledby="count-label">\n      {play}\n'
        f'    </div>\n    <div class="felt-crib">\n      <span class="felt-label">{crib}</span>\n'
        f"      {card_back('the crib, face down')}\n    </div>\n  </div>"
    )


def felt_mine(seat, sides, v, can, discard_count, crib_owner, counting, token, game, csrf_token) -> SafeString:
    """The reader's own place at the felt (games/game.html's felt-mine, a test renders both): the
    heading, the hand and the forms to lay away, play, count or call muggins, for `seat` (None: a
    watcher, who sees only a heading); `can` the moves open (can_discard, can_play, can_count,
    can_muggins). Written out: a changed table drew these forms from some sixty template nodes."""
    if seat is None:
        return mark_safe('\n  <h2 id="hand-heading" class="sr-only">Players</h2>\n')
    score = "".join(f'<span class="felt-score">{escaped(_look(s, "score"))}</span>' for s in sides if _look(s, "mine"))
    deals = ' <span class="tag">you deal: the crib is yours</span>' if v.dealer == seat else ""
    html = [f'\n  <h2 id="hand-heading" class="felt-you"><span>You</span> {score}{deals}</h2>\n\n  ']
    hand, kept = v.hand, v.kept
    if can["discard"] or can["play"] or can["count"] or can["muggins"]:
        action, csrf = escaped(kept_url("games:move", game.pk)), csrf_input(csrf_token)
        hidden = (
            f'<input type="hidden" name="expected_seq" value="{escaped(v.seq)}">'
            f'<input type="hidden" name="token" value="{escaped(token)}">'
        )
    if can["discard"]:
        owner = "your" if v.crib_owner == seat else f"{escaped(crib_owner)}’s"
        many = escaped(discard_count)
        html.append(
            f'\n  <form method="post" action="{action}" class="move-form discard-form" data-pick="{many}">\n'
            f'    {csrf}\n    <input type="hidden" name="action" value="discard">{hidden}\n    <fieldset>\n'
            f"      <legend>Lay away {many} card{'' if discard_count == 1 else 's'} to {owner} crib</legend>\n"
            f'      <div class="hand card-picks">\n      {card_picks(hand)}\n      </div>\n'
            '      <button type="submit">Lay away to the crib</button>\n'
            '      <p class="keys-hint muted">Keys: a card’s rank (A, 2–9, T, J, Q, K) picks it; Enter lays them away.</p>\n'
            "    </fieldset>\n  </form>\n  "
        )
    elif can["play"]:
        claim = (
            '\n      <p><label for="claim">Points you peg for it (muggins: count them yourself)</label>\n'
            '        <input type="number" id="claim" name="claim" min="0" max="60" value="0" inputmode="numeric"></p>\n      '
            if v.muggins
            else ""
        )
        html.append(
            f'\n  <form method="post" action="{action}" class="move-form play-form">\n'
            f'    {csrf}\n    <input type="hidden" name="action" value="play">{hidden}\n    <fieldset>\n'
            f"      <legend>Play a card on {escaped(v.count)}</legend>\n      {claim}\n"
            f'      <div class="hand card-buttons">\n      {card_buttons(hand, v.playable, v.count)}\n      </div>\n'
            '      <p class="play-confirm" hidden><button type="submit" class="play-confirm-button">Play it</button>'
            ' <button type="button" class="link play-cancel">Choose again</button></p>\n'
            '      <p class="keys-hint muted">Keys: a card’s rank (A, 2–9, T, J, Q, K) or ←/→ picks it; Enter plays it.</p>\n'
            "    </fieldset>\n  </form>\n  "
        )
    elif hand:
        faces = "".join(card_face(c) for c in in_card_order(hand))
        html.append(f'\n  <div class="hand">{faces}</div>\n  ')
    elif kept:
        faces = "".join(card_face(c) for c in in_card_order(kept))
        html.append(f'\n  <p class="felt-note">Kept for the show:</p>\n  <div class="hand">{faces}</div>\n  ')
    else:
        html.append('<p class="muted">No cards in hand.</p>')
    html.append("\n  ")
    if hand and kept and v.phase != "discard" and len(kept) != len(hand):
        html.append(f'<p class="felt-note">Kept for the show: {card_chips(in_card_order(kept))}</p>')
    html.append("\n  ")
    if v.my_discards:
        html.append(f'<p class="felt-note">You laid away: {card_chips(in_card_order(v.my_discards))}</p>')
    html.append("\n\n  ")
    if can["count"]:
        cards = _look(counting, "cards")
        shown = (
            f'<p>{card_chips(in_card_order(cards))} <span class="nowrap">with the starter {card_chip(v.starter)}</span></p>'
            if cards
            else ""
        )
        html.append(
            f'\n  <form method="post" action="{action}" class="move-form count-form">\n'
            f'    {csrf}\n    <input type="hidden" name="action" value="count">{hidden}\n    <fieldset>\n'
            f"      <legend>Count your {escaped(_look(counting, 'what'))}</legend>\n      {shown}\n"
            '      <p><label for="points">Points (muggins: what you miss, the others may claim)</label>\n'
            '        <input type="number" id="points" name="points" min="0" max="60" inputmode="numeric" required></p>\n'
            '      <button type="submit" name="say" value="count">Count</button>\n    </fieldset>\n  </form>\n  '
        )
    html.append("\n\n  ")
    if can["muggins"]:
        html.append(
            f'\n  <form method="post" action="{action}" class="move-form muggins-form">\n'
            f'    {csrf}\n    <input type="hidden" name="action" value="muggins">{hidden}\n'
            '    <p>Think the last count missed something? <button type="submit" class="secondary">Call muggins</button></p>\n'
            "  </form>\n  "
        )
    html.append("\n")
    return mark_safe("".join(html))  # noqa: S308 (every value escaped or a card)


def _look(thing, name):
    """A template's lookup of `name` in `thing` (a key, else an attribute; "" for neither)."""
    if isinstance(thing, dict):
        return thing.get(name, "")
    return getattr(thing, name, "")


def score_sides(sides: list[dict]) -> SafeString:
    """The scoreboard's sides (`presenter.Table.sides`), as games/_scoreboard.html's loop drew each."""
    html = []
    for s in sides:
        mine = s.get("mine")
        html.append(
            f'\n    <li class="score-side{" mine" if mine else ""}"><svg class="side-swatch" viewBox="0 0 2 2"'
            f' aria-hidden="true"><circle cx="1" cy="1" r="1" fill="{escaped(s.get("colour", ""))}"/></svg>'
            f'<span class="side-name">{escaped(s.get("name", ""))}{" (you)" if mine else ""}</span>\n'
            f'      <span class="side-score">{escaped(s.get("score", ""))}</span>'
            f' <span class="muted">was {escaped(s.get("previous", ""))}</span></li>\n  '
        )
    return mark_safe("".join(html))  # noqa: S308 (every value escaped)


def scoreboard(sides, tracks, target) -> SafeString:
    """The scores and the board (games/_scoreboard.html and the games/_board.html it included, a
    test renders both): the sides (`presenter.Table.sides`), the board of `tracks` to `target`."""
    return mark_safe(  # noqa: S308 (every value escaped, or the board's markup)
        '\n<section class="scoreboard" aria-labelledby="scores-heading">\n'
        '  <h2 id="scores-heading" class="sr-only">Scores</h2>\n  <ul class="score-list">\n'
        f'  {score_sides(sides)}\n  </ul>\n  \n<link rel="stylesheet" href="{escaped(static("css/board.css"))}">\n'
        f'<figure class="board-figure">{board_html(tracks, target or FULL_GAME, id_prefix="board")}</figure>\n'
        "\n</section>\n"
    )


PHASES = {"play": "pegging", "show": "the show", "heels": "his heels", "start": "three for last"}


def score_records(records) -> SafeString:
    """The score records, newest first (`presenter.Table.records`), as games/_records.html drew them."""
    html = ['\n<ul class="records">\n']
    for r in records:
        phase, points = _look(r, "phase"), _look(r, "points")
        said = PHASES.get(phase) if phase in PHASES else escaped(phase)
        text, missed, past = _look(r, "text"), _look(r, "missed"), _look(r, "past_target")
        if phase == "muggins":
            tail = ": muggins, points the other side missed"
        elif text and phase not in ("heels", "start"):
            tail = f": {escaped(text)}"
        elif missed:
            tail = f": claimed {escaped(points)}, {escaped(missed)} missed"
        else:
            tail = ""
        if past:
            were = "was" if past == 1 else "were"
            tail += (
                f". It made {escaped(points + past)}; the peg stops in the game hole, so {escaped(past)} {were}"
                " not pegged"
            )
        rows = _look(r, "rows")
        cards = ""
        if rows and phase == "play":
            cards = "; ".join(f"{escaped(row.label)} {card_chips(row.cards)}" for row in rows)
            cards = f'<span class="record-cards">{cards}</span>'
        html.append(
            f'\n  <li><span class="who">{escaped(_look(r, "who"))}</span> <strong>+{escaped(points)}</strong>\n'
            f'    <span class="phase">({said})</span>{tail}\n    {cards}</li>\n'
        )
    if not records:
        html.append('\n  <li class="muted">No points pegged yet this hand.</li>\n')
    html.append("\n</ul>\n")
    return mark_safe("".join(html))  # noqa: S308 (every value escaped or a chip)


def plan_places(places) -> SafeString:
    """The plan form's places, a card and its select at a time (`PlanFields.places`), as
    games/_plan.html's loop drew them."""
    html = [
        f'\n        <label class="plan-place">{card_chip(card)} place {escaped(field)}</label>\n      '
        for card, field in places
    ]
    return mark_safe("".join(html))  # noqa: S308 (every value escaped, a chip or a select)


def plan_head(v) -> SafeString:
    """The plan section's head (games/_plan.html's markup to the standing plan's live part, a test
    renders both): the plan now, if any, and the way to a standing plan."""
    plan = _look(v.plan, "words")
    now = (
        f"<p>Now: <code>{escaped(plan)}</code></p>"
        if v.plan
        else '<p class="muted">No plan: you are asked at each of your turns.</p>'
    )
    return mark_safe(  # noqa: S308 (every value escaped)
        '\n<section class="plan" id="plan" aria-labelledby="plan-heading">\n'
        '  <h3 id="plan-heading">Your pegging plan <span class="muted">(only you see it)</span></h3>\n'
        f"  {now}\n"
        '  <p class="muted">A plan for every hand, in all your games ("score first, low first" plays every card):'
        f' <a href="{escaped(kept_url("accounts:profile"))}#id_standing_plan">your profile</a>'
    )


def plan_tail(v, plan_form, game, token, csrf_token) -> SafeString:
    """The plan section after the standing plan's live part (games/_plan.html's markup): the plan
    form (`plan_form`, play_forms.PlanFields), the count ahead under muggins, the email's words."""
    hand = v.hand or []
    first = escaped(hand[0]) if hand else ""
    csrf, token = csrf_input(csrf_token), escaped(token)
    clear = '<button type="submit" name="clear" value="1" class="secondary">Clear the plan</button>' if v.plan else ""
    html = [
        f'.</p>\n  <form method="post" action="{escaped(kept_url("games:plan", game.pk))}" class="plan-form">\n'
        f'    {csrf}<input type="hidden" name="token" value="{token}">\n    <fieldset>\n'
        "      <legend>Play my cards for me, without an email for each turn</legend>\n"
        '      <p class="muted">At each of your turns in this hand\'s play the rules come first, in this order, then'
        " your first card in the order that fits (one that would take the count past 31 waits). Leave a card out"
        " and, once the cards before it are played, you are asked. The plan ends with the hand's play.</p>\n"
        f'      <div class="plan-places">\n      {plan_places(plan_form.places)}\n      </div>\n'
        f'      <p class="check">{escaped(plan_form.score_first)} <label for="id_score_first">'
        f"{escaped(plan_form.score_first_label)} (ties in my order)</label></p>\n"
        f"      <p>On a {escaped(plan_form.on_rank)} laid just before me, play"
        f' <input type="text" name="on_card" value="{escaped(plan_form.on_card)}" maxlength="3" size="3"'
        f' aria-label="the card to play"> <span class="muted">(a card you hold, e.g. {first})</span></p>\n'
        f'      <button type="submit">Set the plan</button>\n      {clear}\n    </fieldset>\n  </form>\n  '
    ]
    if v.muggins and v.phase == "play" and v.kept:
        said = v.count_ahead
        said_words = "" if said is None else f" You have said {escaped(said)}."
        value = "" if said is None else f' value="{escaped(said)}"'
        html.append(
            f'\n  <form method="post" action="{escaped(kept_url("games:move", game.pk))}" class="count-ahead"'
            f' id="count-ahead">\n    {csrf}<input type="hidden" name="action" value="count_ahead">'
            f'<input type="hidden" name="expected_seq" value="{escaped(v.seq)}">'
            f'<input type="hidden" name="token" value="{token}">\n    <fieldset>\n'
            "      <legend>Count my hand now, for the show</legend>\n"
            '      <p class="muted">The starter is turned: say your count of your hand and it is counted when your'
            " show comes, with no email for it (you then call no muggins on the count before yours)."
            f"{said_words}</p>\n"
            f'      <label>Points <input type="number" name="points" min="0" max="29" required{value}></label>\n'
            '      <button type="submit">Say my count</button>\n    </fieldset>\n  </form>\n  '
        )
    words = " ".join(escaped(c) for c in hand)
    html.append(
        '\n  <p class="muted">By email: reply <code>plan</code> and your cards in order, e.g.'
        f" <code>plan {words}</code>; add <code>score first</code>, <code>on 5 play {first}</code> or"
        " <code>ask</code> (stop there and ask me); <code>plan clear</code> drops it. Under muggins a planned card"
        " claims what it pegs.</p>\n</section>\n"
    )
    return mark_safe("".join(html))  # noqa: S308 (every value escaped, a chip or a select)


def talk_panel(panel, game, user, csrf_token) -> SafeString:
    """The table talk and the reader's note (games/_talk.html's markup, a test renders both), for
    `panel` (talk.panel_for's context) of `user` at `game`; `csrf_token` as {% csrf_token %} takes
    it. Written out: every look at the page draws it, and the template cost several times more."""
    csrf = csrf_input(csrf_token)
    esc = escaped
    html = [
        '<section id="talk" class="table-talk" aria-labelledby="table-heading">\n'
        '  <h2 id="table-heading">At the table</h2>\n  <h3>Table talk</h3>\n  '
    ]
    if panel["talk"]:
        html.append('\n  <ol class="talk">\n    ')
        for m in panel["talk"]:
            when = esc(date(localtime(m.created_at), "j M H:i"))
            html.append(
                f'\n    <li><strong>{esc(m.author)}</strong> <small class="muted">{when}</small>: {esc(m.text)}\n      '
            )
            if m.author_id != user.pk:
                action = esc(kept_url("games:report", game.pk, m.pk))
                said = "reported" if m.reported_at else "report"
                html.append(
                    f'\n      <form method="post" action="{action}" class="inline">{csrf}\n'
                    f'        <button type="submit" class="link">{said}</button></form>\n      '
                )
            html.append("\n    </li>\n    ")
        html.append("\n  </ol>\n  ")
    else:
        html.append('<p class="muted">Nothing said yet.</p>')
    say_max, typed = esc(panel["say_max"]), panel["said"]
    value = f' value="{esc(typed)}"' if typed else ""
    html.append(
        f'\n  <form method="post" action="{esc(kept_url("games:say", game.pk))}">{csrf}\n'
        f'    <label for="say-text">Say to the other players (at most {say_max} characters; never read as a move)</label>\n'
        f'    <input id="say-text" name="text" maxlength="{say_max}" autocomplete="off"{value}>\n'
        '    <button type="submit" class="secondary">Say</button>\n  </form>\n  '
    )
    for p in panel["talk_players"]:
        other = p["user"]
        if p["muted"]:
            button = (
                '<input type="hidden" name="undo" value="1"><button type="submit" class="link">'
                f"Unmute {esc(other)}</button>\n    "
            )
        else:
            button = f'<button type="submit" class="link">Mute {esc(other)}</button>'
        action = esc(kept_url("games:mute", game.pk, other.pk))
        html.append(f'\n  <form method="post" action="{action}" class="inline">{csrf}\n    {button}\n  </form>\n  ')
    note_max = esc(panel["note_max"])
    html.append(
        f'\n  <h3>My note</h3>\n  <form method="post" action="{esc(kept_url("games:note", game.pk))}">{csrf}\n'
        f'    <label for="note-text">Only you see it (at most {note_max} characters; empty it to delete it)</label>\n'
        f'    <textarea id="note-text" name="text" rows="3" maxlength="{note_max}">{esc(panel["note"])}</textarea>\n'
        '    <button type="submit" class="secondary">Save my note</button>\n  </form>\n</section>\n'
    )
    return mark_safe("".join(html))  # noqa: S308 (every value escaped)


def escaped(text) -> str:
    """django.utils.html.conditional_escape(text) as text, without the wrapper each call of
    Django's pays for lazy text: the written-out parts escape some hundred values a page."""
    if hasattr(text, "__html__"):
        return text.__html__()
    return html_text.escape(str(text))


def _escape(text) -> str:
    """django.utils.html.escape(text) as text (escaped even when marked safe), without its wrapper."""
    return html_text.escape(str(text))


def _capfirst(text) -> str:
    """django.utils.text.capfirst, without its wrapper."""
    text = str(text)
    return text[:1].upper() + text[1:]


def csrf_input(token) -> str:
    """What {% csrf_token %} writes for `token`: nothing for none (or "NOTPROVIDED")."""
    if not token or token == "NOTPROVIDED":
        return ""
    return format_html('<input type="hidden" name="csrfmiddlewaretoken" value="{}">', token)


def kept_url(name, *args):
    """reverse(name, args=args), kept per process (as cribsite.url_tag keeps the templates' {% url %}):
    the written-out parts reverse a form's action on every look."""
    return _kept_url(name, args, get_script_prefix(), get_urlconf())


@lru_cache(maxsize=1024)
def _kept_url(name, args, prefix, urlconf):
    return reverse(name, args=args, urlconf=urlconf)
