"""The turn email's subject and text written out in Python, as the templates they replace
(mail/email/turn.subject.txt with mail/email/_game_subject.txt; mail/email/turn.txt with
mail/_since.txt, _state.txt, _coach.txt, _moves.txt and _footer.txt) render them, byte for
byte: every turn email renders both, and the template engine cost more CPU than the rest of
their rendering (tests/mail/test_turn_text.py compares them with the templates, branch by branch).

The templates stay the source of their words: a change to one is made here too (the test fails
until it is). Each takes the context mail.messages.render renders the templates with.
"""

from django.utils.formats import localize
from django.utils.timezone import template_localtime


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
