"""The game page's and the record's pieces drawn many times a page, written out in Python as the
templates they replace drew them (a template included for each costs far more):

- `pegging(rounds)` -> a hand's pegging, count by count (`presenter.Table.plays`)
- `counted_show(show)` -> a counted hand or crib, a combination at a time (`presenter.Table.shows`)

`{% pegging %}` and `{% counted_show %}` in templates (`{% load cards %}`).
"""

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.text import capfirst

from games.presentation import card_chip, card_chips, in_card_order


def pegging(rounds: list[dict]) -> SafeString:
    """A hand's pegging count by count (`presenter.Table.plays`), as the game page and the record
    draw it; written out, as a changed page draws two (this hand's and the last)."""
    html = ["\n"]
    for number, r in enumerate(rounds, 1):
        html.append(f'\n<ol class="pegging" aria-label="Count {number}">\n  ')
        for p in r["plays"]:
            who = f'<span class="who">{escape(p["who"])}</span>'
            if p.get("go"):
                html.append(f"\n  <li>{who}: “go”</li>\n  ")
                continue
            points = p.get("points")
            pegged = f' <strong class="pegged">+{escape(points)}</strong>' if points else ""
            html.append(
                f'\n  <li>{who} {card_chip(p["card"])} <span class="count">{escape(p.get("count", ""))}</span>{pegged}</li>\n  '
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
    title = escape(show["title"])
    hand = "".join(
        f'<span class="show-card" data-card="{escape(c)}">{card_chip(c)}</span>' for c in in_card_order(show["cards"])
    )
    if show["starter"]:
        starter = show["starter"]
        hand += f'<span class="show-card show-starter" data-card="{escape(starter)}">{card_chip(starter)}<small>starter</small></span>'
    html = [f'\n<section class="show counted-show" aria-label="{title}">\n  <h4 class="show-title">{title}</h4>\n']
    html.append(f'  <p class="show-hand">{hand}</p>\n  ')
    score, claimed = show["score"], show["claimed"]
    if score:
        html.append('\n  <ol class="show-steps">\n    ')
        for row in show["rows"]:
            codes = escape(" ".join(c.code for c in row.cards))
            html.append(
                f'\n    <li class="show-step {escape(row.kind)}" data-cards="{codes}"><span class="said">'
                f'{escape(capfirst(row.said))}</span> <span class="show-cards">{card_chips(row.cards)}</span></li>\n    '
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
