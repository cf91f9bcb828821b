"""The game page's parts written out in Python (the clock panel, the table talk) draw what
their templates draw, byte for byte, whatever they show."""

import itertools
from datetime import UTC, datetime
from types import SimpleNamespace

import pytest
from django.template.loader import render_to_string
from django.utils import timezone

from clock.templatetags import clock
from games import markup


def _panel(rows, finished=False, claimable=None):
    return {
        "game": SimpleNamespace(pk=7),
        "rows": rows,
        "rules": "3 days per move <each>",
        "claimable": claimable,
        "max_days": 14,
        "finished": finished,
    }


def _row(number, **fields):
    row = {
        "seat": SimpleNamespace(number=number),
        "name": f"Ann & <Bo> {number}",
        "to_act": False,
        "deadline": "",
        "paused_until": "",
        "timed_out": False,
        "may_give_time": False,
        "bank": "",
    }
    return {**row, **fields}


ROWS = [
    _row(0),
    _row(1, to_act=True),
    _row(2, to_act=True, deadline="Thu 3 Dec, 18:00 (in 2 days)"),
    _row(3, to_act=True, deadline="Thu 3 Dec, 18:00 (1 hour ago)", timed_out=True, bank="2 days"),
    _row(4, paused_until="Fri 4 Dec, 9:00 (in 3 days)", deadline="Sat <5>", may_give_time=True),
    _row(5, may_give_time=True, bank="none"),
]


@pytest.mark.parametrize(
    ("finished", "claimable", "csrf"),
    list(itertools.product([False, True], [None, "Bo <the> seat"], ["tok&en", "NOTPROVIDED", None])),
)
def test_the_clock_panel_written_out_is_the_templates(finished, claimable, csrf):
    panel = _panel(ROWS, finished=finished, claimable=claimable)
    context = {**panel, "csrf_token": csrf} if csrf is not None else panel
    assert clock.clock_panel(panel, csrf) == render_to_string("clock/_game_clock.html", context)


def test_an_empty_clock_panel_is_the_templates():
    panel = _panel([])
    assert clock.clock_panel(panel, "t") == render_to_string("clock/_game_clock.html", {**panel, "csrf_token": "t"})


class _Named(SimpleNamespace):
    def __str__(self):
        return self.name


ME, YOU = _Named(pk=1, name="Me <&>"), _Named(pk=2, name='You "2"')


def _said(pk, author, reported=False):
    return SimpleNamespace(
        pk=pk,
        author=author,
        author_id=author.pk,
        text=f"Good <luck> & “fun” {pk}",
        created_at=datetime(2026, 3, 29, 0, 30 + pk, tzinfo=UTC),  # the night Paris moves its clocks
        reported_at=datetime(2026, 3, 29, tzinfo=UTC) if reported else None,
    )


@pytest.mark.parametrize(
    ("talk", "said", "players", "note"),
    [
        ([], "", [], ""),
        ([_said(1, ME), _said(2, YOU), _said(3, YOU, reported=True)], 'half <said> "this"', [(YOU, False)], "a <note>"),
        ([_said(4, YOU)], "", [(YOU, True), (_Named(pk=3, name="Third"), False)], ""),
    ],
)
@pytest.mark.parametrize("csrf", ["tok&en", None])
@pytest.mark.parametrize("zone", ["UTC", "Europe/Paris"])
def test_the_talk_panel_written_out_is_the_templates(talk, said, players, note, csrf, zone):
    panel = {
        "talk": talk,
        "said": said,
        "say_max": 300,
        "talk_players": [{"user": p, "muted": muted} for p, muted in players],
        "note": note,
        "note_max": 2000,
    }
    game = SimpleNamespace(pk=9)
    context = {**panel, "game": game, "user": ME, **({"csrf_token": csrf} if csrf else {})}
    with timezone.override(zone):
        assert markup.talk_panel(panel, game, ME, csrf) == render_to_string("games/_talk.html", context)


MOVE_DUE = (
    '{% load clock %}{% if deadline %}<span class="deadline">Move due by <time datetime="{{ deadline|date:\'c\' }}">'
    "{{ deadline|deadline_for:user }}</time>.</span>{% endif %}"
)


@pytest.mark.django_db
@pytest.mark.parametrize("zone", ["UTC", "Europe/Paris", "America/St_Johns"])
@pytest.mark.parametrize(
    "deadline", [None, datetime(2026, 3, 29, 0, 45, tzinfo=UTC), datetime(2027, 1, 2, 23, 59, tzinfo=UTC)]
)
def test_the_move_due_written_out_is_the_templates(zone, deadline):
    from django.contrib.auth.models import AnonymousUser
    from django.template import engines

    from tests.factories import make_user

    template = engines["django"].from_string(MOVE_DUE)
    for user in (make_user(time_zone=zone), AnonymousUser()):
        with timezone.override(zone):
            assert clock.move_due(deadline, user) == template.render({"deadline": deadline, "user": user})


def _template(source):
    from django.template import engines

    return engines["django"].from_string("{% load cards %}" + source)


OTHERS = (
    "  {% for p in others %}\n"
    '    <li class="felt-seat{% if p.to_act %} to-act{% endif %}">\n'
    '      <span class="felt-name"><strong>{{ p.label }}</strong>{% if p.is_computer %} <span class="muted">(computer)'
    '</span>{% endif %} <span class="felt-score">{{ p.score }}</span></span>\n'
    '      <span class="felt-tags">{% if p.dealer %}<span class="tag">deals: the crib is theirs</span>{% endif %}'
    '{% if p.to_act %}<span class="tag turn">to move</span>{% endif %}{% if v.phase == "discard" and p.discarded %}'
    '<span class="tag">has laid away</span>{% endif %}</span>\n'
    '      <span class="felt-backs" role="img" aria-label="{{ p.cards_held }} card{{ p.cards_held|pluralize }} in hand">'
    '{% for _ in ""|center:p.cards_held %}{% back "" %}{% endfor %}</span>\n'
    "    </li>\n"
    "  {% endfor %}"
)
PICKS = (
    "      {% for c in v.hand|in_card_order %}\n"
    '        <label class="card-pick" data-card="{{ c }}"><input type="checkbox" name="cards" value="{{ c }}"'
    ' aria-label="{{ c|card_name }}">{% face c %}</label>\n'
    "      {% endfor %}"
)
BUTTONS = (
    "      {% for c in v.hand|in_card_order %}\n"
    "        {% if c in v.playable %}\n"
    '        <button type="submit" name="card" value="{{ c }}" class="card-button" aria-label="Play {{ c|card_name }}">'
    "{% face c %}</button>\n"
    "        {% else %}\n"
    '        <button type="submit" name="card" value="{{ c }}" class="card-button" disabled aria-label="{{ c|card_name }}:'
    ' too high to play on {{ v.count }}">{% face c %}<span class="too-high">too high</span></button>\n'
    "        {% endif %}\n"
    "      {% endfor %}"
)


def _seat(seat, **fields):
    return {"seat": seat, "label": f"P{seat} <&>", "score": 7 * seat, "cards_held": 0, **fields}


@pytest.mark.parametrize("phase", ["discard", "play", "show"])
def test_the_others_round_the_felt_written_out_are_the_templates(phase):
    others = [
        _seat(1, to_act=True, dealer=True, cards_held=6),
        _seat(2, is_computer=True, discarded=True, cards_held=1),
        _seat(3, discarded=True, to_act=False, cards_held=4),
        _seat(4),
    ]
    for some in (others, others[1:2], []):
        context = {"others": some, "v": {"phase": phase}}
        assert _template("  {% felt_others others v.phase %}").render(context) == _template(OTHERS).render(context)


@pytest.mark.parametrize("hand", [["KS", "5H", "AD", "TC", "5S", "JH"], ["9D"], []])
def test_the_forms_cards_written_out_are_the_templates(hand):
    for playable, count in ((["5H", "AD"], 24), (hand, 0), ([], 30), (None, 31)):
        v = {"hand": hand, "playable": playable, "count": count}
        assert _template("      {% card_picks v.hand %}").render({"v": v}) == _template(PICKS).render({"v": v})
        written = _template("      {% card_buttons v.hand v.playable v.count %}").render({"v": v})
        assert written == _template(BUTTONS).render({"v": v})


SIDES = (
    "  {% for s in sides %}\n"
    '    <li class="score-side{% if s.mine %} mine{% endif %}"><svg class="side-swatch" viewBox="0 0 2 2" aria-hidden="true">'
    '<circle cx="1" cy="1" r="1" fill="{{ s.colour }}"/></svg><span class="side-name">{{ s.name }}{% if s.mine %} (you)'
    "{% endif %}</span>\n"
    '      <span class="side-score">{{ s.score }}</span> <span class="muted">was {{ s.previous }}</span></li>\n'
    "  {% endfor %}"
)
PLACES = (
    "      {% for card, field in plan_form.places %}\n"
    '        <label class="plan-place">{% card card %} place {{ field }}</label>\n'
    "      {% endfor %}"
)


def test_the_scoreboards_sides_written_out_are_the_templates():
    sides = [
        {"side": 0, "name": "Ann & <Bo>", "score": 121, "previous": 99, "mine": True, "colour": "#c0392b"},
        {"side": 1, "name": 'Cy "C"', "score": 0, "previous": 0, "mine": False, "colour": "#2471a3"},
    ]
    for some in (sides, sides[1:], []):
        context = {"sides": some}
        assert _template("  {% score_sides sides %}").render(context) == _template(SIDES).render(context)


@pytest.mark.parametrize("initial", [{}, {"place_5H": 1, "place_KS": 3, "on_rank": "T"}])
def test_the_plan_places_written_out_are_the_templates(initial):
    from games.play_forms import PlanFields

    plan_form = PlanFields(["KS", "5H", "AD", "TC"], initial)
    context = {"plan_form": plan_form}
    written = _template("      {% plan_places plan_form.places %}").render(context)
    assert written == _template(PLACES).render(context)
