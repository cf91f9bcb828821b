"""The turn email's subject and text written out in Python, as the templates they replace
(mail/email/turn.subject.txt with mail/email/_game_subject.txt; mail/email/turn.txt with
mail/_since.txt, _state.txt, _coach.txt, _moves.txt and _footer.txt) render them, byte for
byte: every turn email renders both, and the template engine cost more CPU than the rest of
their rendering (tests/mail/test_turn_text.py compares them with the templates, branch by branch).

The templates stay the source of their words: a change to one is made here too (the test fails
until it is). Each takes the context mail.messages.render renders the templates with.
"""

from functools import cache

from django.template.loader import render_to_string
from django.utils.formats import localize
from django.utils.html import conditional_escape
from django.utils.timezone import template_localtime  # type: ignore[attr-defined]  # (not in django-stubs)

from games.presentation import card_chip, card_chips


def _s(value):
    """A value as `{{ value }}` writes it with autoescape off."""
    if type(value) is str:
        return value
    return str(localize(template_localtime(value)))


def _get(obj, name):
    """`obj.name` as a template reads it: a key first, then an attribute."""
    try:
        return obj[name]
    except (TypeError, AttributeError, KeyError, ValueError, IndexError):
        return getattr(obj, name)


def game_subject(c):
    """mail/email/_game_subject.txt."""
    lead = c.get("subject_lead")
    out = f"{_s(lead)} — " if lead else ""
    out += _s(c.get("title", ""))
    if event := c.get("event_name"):
        out += f", {_s(event)}"
    if hand := c.get("subject_hand"):
        out += f", hand {_s(hand)}"
    return f"{out} (game {_s(c.get('game_id', ''))})\n"


def subject(c):
    """mail/email/turn.subject.txt."""
    return game_subject(c) + "\n"


def text(c):
    """mail/email/turn.txt."""
    out = []
    add = out.append
    if talk := c.get("talk"):
        add("At the table:")
        for m in talk:
            add(f"\n  {_s(_get(m, 'author'))}: {_s(_get(m, 'text'))}")
        add("\n\n")
    add(f"{_s(c.get('me', ''))}, it is your turn to {_s(c.get('asked', ''))} in game {_s(c.get('game_id', ''))}")
    add(f" ({_s(c.get('title', ''))}).\n")
    if clock_rules := c.get("clock_rules"):
        add(f"\nThe clock of this game: {_s(clock_rules)}\n")
    if help_text := c.get("help_text"):
        add(f"\n{_s(help_text)}\n")
    add("\n")
    _lines(add, c.get("since"), "Since our last email to you:\n")
    _state(add, c)
    add("\n")
    _lines(add, c.get("coach"), "The coach:\n")
    _moves(add, c)
    add("\n")
    add(
        f"--\nThe game on the site: {_s(c.get('game_url', ''))}\n"
        f'A new game, your games, a vacation: write "help" to {_s(c.get("service_address", ""))}\n'
        f"Stop these emails: {_s(c.get('unsubscribe_url', ''))}\n"
    )
    return "".join(out) + "\n"


def _lines(add, lines, heading):
    """mail/_since.txt, and mail/_coach.txt: a heading and its lines, indented, if any."""
    if lines:
        add(heading)
        for line in lines:
            add(f"  {_s(line)}\n")
        add("\n")


def _state(add, c):
    """mail/_state.txt."""
    _lines(add, c.get("recent"), "Since your last move:\n")
    add(f"Your hand: {_s(c.get('hand_text', ''))}")
    if played_text := c.get("played_text"):
        add(f"   (played: {_s(played_text)}, still counted in your show)")
    add("\n")
    if plan := c.get("plan"):
        add(f"Your plan (only you see it): {_s(_get(plan, 'words'))}\n")
    add(f"Starter: {_s(c.get('starter_text', ''))}\nCrib: {_s(c.get('crib_owner', ''))}")
    if c.get("phase") == "play":
        add(f"\nThe count: {_s(c.get('count', ''))}")
        if count_text := c.get("count_text"):
            add(f" ({_s(count_text)})")
    add(f"\n\nScores (to {_s(_get(c['view'], 'target'))}):\n")
    for row in c.get("board") or ():
        add(f"  {_s(_get(row, 'text'))}\n")
    if deadline := c.get("deadline"):
        add(f"\nReply by {_s(deadline)}.\n")
    add("\n")


def _moves(add, c):
    """mail/_moves.txt."""
    if moves := c.get("moves"):
        add("Your moves. Reply with the words at the start of one line, or open its link:\n\n")
        for m in moves:
            add(_s(_get(m, "words")))
            if note := _get(m, "note"):
                add(f"   ({_s(note)})")
            add(f"   {_s(_get(m, 'url'))}\n")
        add("\n")
    if plan_line := c.get("plan_line"):
        whole = "hand" if c.get("phase") == "discard" else "play"
        add(f"Or a whole {whole} in one line (copy it, change the order if you like):\n")
        add(f"  {_s(plan_line[0])}\n  {_s(plan_line[1])}\n\n")
    add("Other words you can reply with:\n")
    for word, meaning in c.get("other_words") or ():
        add(f"  {_s(word)}: {_s(meaning)}\n")
    add("\n")


# --- The HTML part, before its CSS is inlined -------------------------------------------------


def _h(value):
    """A value as `{{ value }}` writes it in HTML: escaped unless safe."""
    if not isinstance(value, str):
        value = localize(template_localtime(value))
        if not isinstance(value, str):
            value = str(value)
    return conditional_escape(value)


@cache
def _css():
    """mail/email/email.css, as the base includes it (a template without tags)."""
    return render_to_string("mail/email/email.css", {})


def html(c):
    """mail/email/turn.html on mail/email/_base.html (its CSS not inlined yet)."""
    out = []
    add = out.append
    add(
        '<!doctype html>\n<html lang="en">\n<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">\n'
    )
    add(
        f'<style>{_css()}</style>\n</head>\n<body>\n  <div class="email">\n    <p class="brand">Cribbage by mail</p>\n    \n'
    )
    if talk := c.get("talk"):
        add('<div class="talk"><p><strong>At the table:</strong></p><ul>')
        for m in talk:
            add(f"<li>{_h(_get(m, 'author'))}: {_h(_get(m, 'text'))}</li>")
        add("</ul></div>")
    add(
        f"\n<p>{_h(c.get('me', ''))}, it is your turn to <strong>{_h(c.get('asked', ''))}</strong> in game"
        f" {_h(c.get('game_id', ''))} ({_h(c.get('title', ''))}).</p>\n"
    )
    if clock_rules := c.get("clock_rules"):
        add(f"<p>The clock of this game: {_h(clock_rules)}</p>")
    add("\n")
    if help_text := c.get("help_text"):
        add(f"<p>{_h(help_text)}</p>")
    add("\n")
    _html_lines(add, c.get("since"), "Since our last email to you")
    add("\n")
    _html_state(add, c)
    add("\n")
    _html_lines(add, c.get("coach"), "The coach")
    add("\n")
    _html_moves(add, c)
    add("\n")
    game_url, unsubscribe_url = c.get("game_url"), c.get("unsubscribe_url")
    add('\n    <p class="footer">')
    if game_url:
        add(f'<a href="{_h(game_url)}">The game on the site</a>')
    if game_url and unsubscribe_url:
        add(" · ")
    if unsubscribe_url:
        add(f'<a href="{_h(unsubscribe_url)}" class="quiet">Stop these emails</a>')
    add("\n      ")
    if game_url:
        add(f'<br>A new game, your games, a vacation: write "help" to {_h(c.get("service_address", ""))}')
    add(
        f'\n      <br><a href="{_h(c.get("help_url", ""))}" class="quiet">Rules and help</a></p>\n  </div>\n</body>\n</html>\n'
    )
    return "".join(out)


_H3 = '<h3 style="font-size:1rem;margin:1rem 0 .25rem">'
_TH = '<tr><th scope="row" style="text-align:left;padding:.15rem .75rem .15rem 0">'


def _html_lines(add, lines, heading):
    """mail/_since.html, and mail/_coach.html (and the state's recent lines)."""
    if lines:
        add(f'{_H3}{heading}</h3>\n<ul style="margin:0;padding-left:1.2rem">')
        for line in lines:
            add(f"<li>{_h(line)}</li>")
        add("</ul>")
    add("\n")


def _html_state(add, c):
    """mail/_state.html with mail/_board.html."""
    add("\n")
    _html_lines(add, c.get("recent"), "Since your last move")
    add('<table role="presentation" style="border-collapse:collapse;margin:1rem 0">\n  ')
    hand, played = c.get("hand"), c.get("played")
    add(f"{_TH}Your hand</th><td>{_h(card_chips(hand)) if hand else 'none'}")
    if played:
        add(f' <span style="color:#5b574d">(played: {_h(card_chips(played))}, still counted in your show)</span>')
    add("</td></tr>\n  ")
    if plan := c.get("plan"):
        add(
            f'{_TH}Your plan</th><td><code>{_h(_get(plan, "words"))}</code> <span style="color:#5b574d">(only you see it)</span></td></tr>'
        )
    starter = c.get("starter")
    add(f"\n  {_TH}Starter</th><td>{_h(card_chip(starter)) if starter else 'not turned yet'}</td></tr>\n")
    add(f"  {_TH}Crib</th><td>{_h(c.get('crib_owner', ''))}</td></tr>\n  ")
    if c.get("phase") == "play":
        add(f"{_TH}The count</th><td>{_h(c.get('count', ''))}")
        if count_cards := c.get("count_cards"):
            add(f" ({_h(card_chips(count_cards))})")
        add("</td></tr>")
    target = _h(_get(c["view"], "target"))
    add(
        '\n</table>\n\n<table role="presentation" aria-label="Scores"'
        ' style="border-collapse:collapse;width:100%;margin:0 0 1rem">\n  '
    )
    for row in c.get("board") or ():
        add(
            '\n  <tr>\n    <th scope="row" style="text-align:left;padding:.2rem .75rem .2rem 0;white-space:nowrap">'
            f'{_h(_get(row, "name"))}</th>\n    <td style="width:100%;padding:.2rem 0">\n'
            '      <div style="background:#e7dfcc;border-radius:3px;height:.8rem"><div style="background:#1f5d3a;'
            f'width:{_h(_get(row, "percent"))}%;height:.8rem;border-radius:3px"></div></div>\n    </td>\n'
            '    <td style="padding:.2rem 0 .2rem .75rem;white-space:nowrap;font-variant-numeric:tabular-nums">'
            f"{_h(_get(row, 'score'))} / {target}</td>\n  </tr>\n  "
        )
    add("\n</table>\n\n")
    if deadline := c.get("deadline"):
        add(f"<p>Reply by <strong>{_h(deadline)}</strong>.</p>")
    add("\n")


_TD_WORDS = (
    '<td style="padding:.2rem .75rem .2rem 0;font-family:ui-monospace,Menlo,Consolas,monospace;white-space:nowrap">'
)
_A_STYLE = (
    "display:inline-block;padding:.15rem .6rem;background:#1f5d3a;color:#fff;text-decoration:none;border-radius:.3rem"
)


def _html_moves(add, c):
    """mail/_moves.html."""
    if moves := c.get("moves"):
        add(
            f"\n{_H3}Your moves</h3>\n"
            '<p style="margin:0 0 .5rem">Reply with the words on the left, or click a move (you will be asked to'
            ' confirm).</p>\n<table role="presentation" style="border-collapse:collapse">\n  '
        )
        for m in moves:
            add(
                f"\n  <tr>\n    {_TD_WORDS}{_h(_get(m, 'words'))}</td>\n"
                f'    <td style="padding:.2rem .75rem .2rem 0"><a href="{_h(_get(m, "url"))}" style="{_A_STYLE}">'
                f"{_h(_get(m, 'label'))}</a></td>\n"
                f'    <td style="padding:.2rem 0;color:#5b574d;font-size:.9rem">{_h(_get(m, "note"))}</td>\n  </tr>\n  '
            )
        add("\n</table>\n")
    add("\n")
    if plan_line := c.get("plan_line"):
        whole = "hand" if c.get("phase") == "discard" else "play"
        add(
            f'<p style="margin:1rem 0 .25rem"><strong>Or a whole {whole} in one line</strong> (copy it, change the'
            " order if you like):</p>\n"
            '<p style="margin:0;font-family:ui-monospace,Menlo,Consolas,monospace;font-size:1.05rem;user-select:all">'
            f"{_h(plan_line[0])}</p>\n"
            f'<p style="margin:.25rem 0 0;color:#5b574d;font-size:.9rem">{_h(plan_line[1])}</p>'
        )
    add('\n<p style="margin:1rem 0 0;font-size:.9rem">You can also reply with:\n')
    words = list(c.get("other_words") or ())
    for i, (word, meaning) in enumerate(words):
        add(f"<code>{_h(word)}</code> ({_h(meaning)})")
        if i < len(words) - 1:
            add(", ")
    add(".</p>\n")
