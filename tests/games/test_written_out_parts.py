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


FELT_MINE = (
    "{% if seat is not None %}\n"
    '  <h2 id="hand-heading" class="felt-you"><span>You</span> {% for s in sides %}{% if s.mine %}<span class="felt-score">{{ s.score }}</span>{% endif %}{% endfor %}{% if v.dealer == seat %} <span class="tag">you deal: the crib is yours</span>{% endif %}</h2>\n'
    "\n"
    "  {% if can_discard %}\n"
    '  <form method="post" action="{% url \'games:move\' game.pk %}" class="move-form discard-form" data-pick="{{ discard_count }}">\n'
    "    {% csrf_token %}\n"
    '    <input type="hidden" name="action" value="discard"><input type="hidden" name="expected_seq" value="{{ v.seq }}"><input type="hidden" name="token" value="{{ token }}">\n'
    "    <fieldset>\n"
    "      <legend>Lay away {{ discard_count }} card{{ discard_count|pluralize }} to {% if v.crib_owner == seat %}your{% else %}{{ crib_owner }}’s{% endif %} crib</legend>\n"
    '      <div class="hand card-picks">\n'
    "      {% card_picks v.hand %}\n"
    "      </div>\n"
    '      <button type="submit">Lay away to the crib</button>\n'
    '      <p class="keys-hint muted">Keys: a card’s rank (A, 2–9, T, J, Q, K) picks it; Enter lays them away.</p>\n'
    "    </fieldset>\n"
    "  </form>\n"
    "  {% elif can_play %}\n"
    '  <form method="post" action="{% url \'games:move\' game.pk %}" class="move-form play-form">\n'
    "    {% csrf_token %}\n"
    '    <input type="hidden" name="action" value="play"><input type="hidden" name="expected_seq" value="{{ v.seq }}"><input type="hidden" name="token" value="{{ token }}">\n'
    "    <fieldset>\n"
    "      <legend>Play a card on {{ v.count }}</legend>\n"
    "      {% if v.muggins %}\n"
    '      <p><label for="claim">Points you peg for it (muggins: count them yourself)</label>\n'
    '        <input type="number" id="claim" name="claim" min="0" max="60" value="0" inputmode="numeric"></p>\n'
    "      {% endif %}\n"
    '      <div class="hand card-buttons">\n'
    "      {% card_buttons v.hand v.playable v.count %}\n"
    "      </div>\n"
    '      <p class="play-confirm" hidden><button type="submit" class="play-confirm-button">Play it</button> <button type="button" class="link play-cancel">Choose again</button></p>\n'
    '      <p class="keys-hint muted">Keys: a card’s rank (A, 2–9, T, J, Q, K) or ←/→ picks it; Enter plays it.</p>\n'
    "    </fieldset>\n"
    "  </form>\n"
    "  {% elif v.hand %}\n"
    '  <div class="hand">{% for c in v.hand|in_card_order %}{% face c %}{% endfor %}</div>\n'
    "  {% elif v.kept %}\n"
    '  <p class="felt-note">Kept for the show:</p>\n'
    '  <div class="hand">{% for c in v.kept|in_card_order %}{% face c %}{% endfor %}</div>\n'
    '  {% else %}<p class="muted">No cards in hand.</p>{% endif %}\n'
    '  {% if v.hand and v.kept and v.phase != "discard" and v.kept|length != v.hand|length %}<p class="felt-note">Kept for the show: {{ v.kept|in_card_order|cards }}</p>{% endif %}\n'
    '  {% if v.my_discards %}<p class="felt-note">You laid away: {{ v.my_discards|in_card_order|cards }}</p>{% endif %}\n'
    "\n"
    "  {% if can_count %}\n"
    '  <form method="post" action="{% url \'games:move\' game.pk %}" class="move-form count-form">\n'
    "    {% csrf_token %}\n"
    '    <input type="hidden" name="action" value="count"><input type="hidden" name="expected_seq" value="{{ v.seq }}"><input type="hidden" name="token" value="{{ token }}">\n'
    "    <fieldset>\n"
    "      <legend>Count your {{ counting.what }}</legend>\n"
    '      {% if counting.cards %}<p>{{ counting.cards|in_card_order|cards }} <span class="nowrap">with the starter {% card v.starter %}</span></p>{% endif %}\n'
    '      <p><label for="points">Points (muggins: what you miss, the others may claim)</label>\n'
    '        <input type="number" id="points" name="points" min="0" max="60" inputmode="numeric" required></p>\n'
    '      <button type="submit" name="say" value="count">Count</button>\n'
    "    </fieldset>\n"
    "  </form>\n"
    "  {% endif %}\n"
    "\n"
    "  {% if can_muggins %}\n"
    '  <form method="post" action="{% url \'games:move\' game.pk %}" class="move-form muggins-form">\n'
    "    {% csrf_token %}\n"
    '    <input type="hidden" name="action" value="muggins"><input type="hidden" name="expected_seq" value="{{ v.seq }}"><input type="hidden" name="token" value="{{ token }}">\n'
    '    <p>Think the last count missed something? <button type="submit" class="secondary">Call muggins</button></p>\n'
    "  </form>\n"
    "  {% endif %}\n"
    "{% else %}\n"
    '  <h2 id="hand-heading" class="sr-only">Players</h2>\n'
    "{% endif %}"
)


def _view(**fields):
    view = {
        "dealer": 0,
        "crib_owner": 0,
        "seq": 41,
        "hand": [],
        "kept": [],
        "playable": [],
        "count": 0,
        "muggins": False,
        "phase": "discard",
        "my_discards": [],
        "starter": "9D",
        "count_ahead": None,
        "plan": None,
    }
    return SimpleNamespace(**{**view, **fields})


HAND = ["KS", "5H", "AD", "TC", "5S", "JH"]
VIEWS = [
    _view(hand=HAND),
    _view(dealer=1, crib_owner=1, hand=HAND[:5], muggins=True),
    _view(phase="play", hand=HAND[:4], kept=HAND[:4], playable=["5H", "AD"], count=24, my_discards=HAND[4:]),
    _view(phase="play", hand=HAND[:2], kept=HAND[:4], count=30, muggins=True, my_discards=HAND[4:], starter="9D"),
    _view(phase="show", hand=[], kept=HAND[:4], my_discards=HAND[4:], starter="9D", muggins=True),
    _view(phase="show", hand=[], kept=[], starter="9D"),
]
SIDES_SEEN = [
    [{"name": "Ann", "score": 12, "mine": True}, {"name": "Bo", "score": 30}],
    [{"name": "Ann", "score": "<7>"}, {"name": "Bo", "score": 30}],
]
COUNTING = [{"what": "crib <&>", "cards": ["5S", "JH", "2C", "3C"]}, {"what": "hand", "cards": []}, None]


@pytest.mark.parametrize("seat", [0, 1, None])
@pytest.mark.parametrize("csrf", ["tok&en", None])
def test_the_readers_place_at_the_felt_written_out_is_the_templates(seat, csrf):
    written = _template(
        "{% felt_mine seat sides v can_discard can_play can_count can_muggins discard_count crib_owner counting %}"
    )
    template = _template(FELT_MINE)
    moves = ("can_discard", "can_play", "can_count", "can_muggins")
    for v, sides, counting, (discard_count, owner) in itertools.product(
        VIEWS, SIDES_SEEN, COUNTING, [(2, "Bo & <Cy>"), (1, "")]
    ):
        for can in itertools.product([False, True], repeat=4):
            context = {
                "seat": seat,
                "sides": sides,
                "v": v,
                "discard_count": discard_count,
                "crib_owner": owner,
                "counting": counting,
                "token": "ab<12>",
                "game": SimpleNamespace(pk=5),
                **dict(zip(moves, can)),
                **({"csrf_token": csrf} if csrf else {}),
            }
            assert written.render(context) == template.render(context), (v, can)


PLAN = (
    "{% load cards fragments %}\n"
    '<section class="plan" id="plan" aria-labelledby="plan-heading">\n'
    '  <h3 id="plan-heading">Your pegging plan <span class="muted">(only you see it)</span></h3>\n'
    '  {% if v.plan %}<p>Now: <code>{{ v.plan.words }}</code></p>{% else %}<p class="muted">No plan: you are asked at each of your turns.</p>{% endif %}\n'
    '  <p class="muted">A plan for every hand, in all your games ("score first, low first" plays every card): <a href="{% url \'accounts:profile\' %}#id_standing_plan">your profile</a>{% live "standing-plan" %}{% if user.standing_plan %} (yours is set){% endif %}{% endlive %}.</p>\n'
    '  <form method="post" action="{% url \'games:plan\' game.pk %}" class="plan-form">\n'
    '    {% csrf_token %}<input type="hidden" name="token" value="{{ token }}">\n'
    "    <fieldset>\n"
    "      <legend>Play my cards for me, without an email for each turn</legend>\n"
    "      <p class=\"muted\">At each of your turns in this hand's play the rules come first, in this order, then your first card in the order that fits (one that would take the count past 31 waits). Leave a card out and, once the cards before it are played, you are asked. The plan ends with the hand's play.</p>\n"
    '      <div class="plan-places">\n'
    "      {% plan_places plan_form.places %}\n"
    "      </div>\n"
    '      <p class="check">{{ plan_form.score_first }} <label for="id_score_first">{{ plan_form.score_first_label }} (ties in my order)</label></p>\n'
    '      <p>On a {{ plan_form.on_rank }} laid just before me, play <input type="text" name="on_card" value="{{ plan_form.on_card }}" maxlength="3" size="3" aria-label="the card to play"> <span class="muted">(a card you hold, e.g. {{ v.hand.0 }})</span></p>\n'
    '      <button type="submit">Set the plan</button>\n'
    '      {% if v.plan %}<button type="submit" name="clear" value="1" class="secondary">Clear the plan</button>{% endif %}\n'
    "    </fieldset>\n"
    "  </form>\n"
    '  {% if v.muggins and v.phase == "play" and v.kept %}\n'
    '  <form method="post" action="{% url \'games:move\' game.pk %}" class="count-ahead" id="count-ahead">\n'
    '    {% csrf_token %}<input type="hidden" name="action" value="count_ahead"><input type="hidden" name="expected_seq" value="{{ v.seq }}"><input type="hidden" name="token" value="{{ token }}">\n'
    "    <fieldset>\n"
    "      <legend>Count my hand now, for the show</legend>\n"
    '      <p class="muted">The starter is turned: say your count of your hand and it is counted when your show comes, with no email for it (you then call no muggins on the count before yours).{% if v.count_ahead is not None %} You have said {{ v.count_ahead }}.{% endif %}</p>\n'
    '      <label>Points <input type="number" name="points" min="0" max="29" required{% if v.count_ahead is not None %} value="{{ v.count_ahead }}"{% endif %}></label>\n'
    '      <button type="submit">Say my count</button>\n'
    "    </fieldset>\n"
    "  </form>\n"
    "  {% endif %}\n"
    '  <p class="muted">By email: reply <code>plan</code> and your cards in order, e.g. <code>plan {{ v.hand|join:" " }}</code>; add <code>score first</code>, <code>on 5 play {{ v.hand.0 }}</code> or <code>ask</code> (stop there and ask me); <code>plan clear</code> drops it. Under muggins a planned card claims what it pegs.</p>\n'
    "</section>\n"
)
PLAN_WRITTEN = (
    '{% plan_head v %}{% live "standing-plan" %}{% if user.standing_plan %} (yours is set){% endif %}{% endlive %}'
    "{% plan_tail v plan_form %}"
)


@pytest.mark.parametrize("csrf", ["tok&en", None])
@pytest.mark.parametrize("standing", [None, [{"rule": "score_first"}]])
def test_the_plan_section_written_out_is_the_templates(csrf, standing):
    from games.play_forms import PlanFields

    written, template = _template("{% load fragments %}" + PLAN_WRITTEN), _template(PLAN)
    views = [
        _view(hand=HAND[:4], kept=HAND[:4], phase="play", plan={"words": "score <first>, 5H KS"}, muggins=True),
        _view(hand=HAND[:4], kept=HAND[:4], phase="play", muggins=True, count_ahead=12, plan=None),
        _view(hand=HAND[:4], kept=HAND[:4], phase="play", muggins=True, count_ahead=0, plan={}),
        _view(hand=HAND[:3], kept=[], phase="play", muggins=True, count_ahead=None, plan=None),
        _view(hand=HAND[:4], kept=HAND[:4], phase="discard", muggins=False, count_ahead=None, plan=None),
        _view(hand=[], kept=HAND[:4], phase="play", muggins=True, count_ahead=None, plan=None),
    ]
    for v, initial in itertools.product(
        views, [{}, {"place_5H": 1, "score_first": True, "on_rank": "T", "on_card": "<5H>"}]
    ):
        context = {
            "v": v,
            "plan_form": PlanFields(v.hand, initial),
            "game": SimpleNamespace(pk=5),
            "token": "ab<12>",
            "user": SimpleNamespace(standing_plan=standing),
            **({"csrf_token": csrf} if csrf else {}),
        }
        assert written.render(context) == template.render(context), v


RECORDS = (
    '{% load cards %}{# Score records, newest first: {% include "games/_records.html" with records=records %} #}\n'
    '<ul class="records">\n'
    "{% for r in records %}\n"
    '  <li><span class="who">{{ r.who }}</span> <strong>+{{ r.points }}</strong>\n'
    '    <span class="phase">({% if r.phase == "play" %}pegging{% elif r.phase == "show" %}the show{% elif r.phase == "heels" %}his heels{% elif r.phase == "start" %}three for last{% else %}{{ r.phase }}{% endif %})</span>{% if r.phase == "muggins" %}: muggins, points the other side missed{% elif r.text and r.phase != "heels" and r.phase != "start" %}: {{ r.text }}{% elif r.missed %}: claimed {{ r.points }}, {{ r.missed }} missed{% endif %}{% if r.past_target %}. It made {{ r.points|add:r.past_target }}; the peg stops in the game hole, so {{ r.past_target }} {{ r.past_target|pluralize:"was,were" }} not pegged{% endif %}\n'
    '    {% if r.rows and r.phase == "play" %}<span class="record-cards">{% for row in r.rows %}{{ row.label }} {{ row.cards|cards }}{% if not forloop.last %}; {% endif %}{% endfor %}</span>{% endif %}</li>\n'
    "{% empty %}\n"
    '  <li class="muted">No points pegged yet this hand.</li>\n'
    "{% endfor %}\n"
    "</ul>\n"
)

SCOREBOARD = (
    '{% load cards %}{# The scores and the board: {% include "games/_scoreboard.html" %} #}\n'
    '<section class="scoreboard" aria-labelledby="scores-heading">\n'
    '  <h2 id="scores-heading" class="sr-only">Scores</h2>\n'
    '  <ul class="score-list">\n'
    "  {% score_sides sides %}\n"
    "  </ul>\n"
    '  {% include "games/_board.html" with tracks=tracks target=v.target board_id="board" %}\n'
    "</section>\n"
)


def _record(phase, points=2, **fields):
    return {"seat": 0, "who": "Ann <&>", "phase": phase, "points": points, "items": [], "rows": [], **fields}


ROW = SimpleNamespace(label="fifteen <2>", cards=["5H", "TC"])
RECORDS_SEEN = [
    _record("play", rows=[ROW, SimpleNamespace(label="a pair", cards=["5S", "5H"])], text="15 & a pair"),
    _record("play", text="thirty-one", past_target=1),
    _record("show", 12, text="hand <x>", past_target=3, rows=[ROW]),
    _record("heels", text="his heels"),
    _record("start", 3, text="three"),
    _record("muggins", 4, text="missed"),
    _record("show", 6, missed=2),
    _record("<odd>", 1),
    _record("crib", 0, text=""),
]


def test_the_score_records_written_out_are_the_templates():
    for some in (RECORDS_SEEN, RECORDS_SEEN[3:4], []):
        context = {"records": some}
        assert _template("{% score_records records %}").render(context) == _template(RECORDS).render(context)


def test_the_scoreboard_written_out_is_the_templates():
    """The board is games/_board.html's, which the old scoreboard included (the home page still does)."""
    sides = [
        {"side": 0, "name": "Ann & <Bo>", "score": 61, "previous": 40, "mine": True, "colour": "#c0392b"},
        {"side": 1, "name": 'Cy "C"', "score": 12, "previous": 0, "mine": False, "colour": "#2471a3"},
    ]
    tracks = [{k: s[k] for k in ("name", "score", "previous", "colour")} for s in sides]
    for target in (121, 61, None):
        for some in (sides, sides[1:]):
            context = {"sides": some, "tracks": tracks, "v": {"target": target}}
            written = _template("{% scoreboard sides tracks v.target %}").render(context)
            assert written == _template(SCOREBOARD).render(context)


FELT_MIDDLE = (
    '  <div class="felt-middle">\n'
    '    <div class="felt-deck">\n'
    '      <span class="felt-label">Starter</span>\n'
    '      {% if v.starter %}{% face v.starter %}{% else %}{% back "the starter, not turned yet" %}{% endif %}\n'
    "    </div>\n"
    '    <div class="felt-pile" aria-labelledby="count-label">\n'
    '      {% if v.phase == "play" %}\n'
    '      <span class="felt-label" id="count-label">The count</span>\n'
    '      <strong class="running-count" id="running-count">{{ v.count }}</strong>\n'
    '      <ol class="pile">{% for p in pile %}<li>{% face p.card %}<small>{{ p.who }}</small></li>{% empty %}<li class="muted pile-empty">No card laid on this count yet.</li>{% endfor %}</ol>\n'
    "      {% else %}\n"
    '      <span class="felt-label" id="count-label">The play</span>\n'
    '      <p class="muted pile-empty">{% if v.phase == "show" %}Over: each hand is counted, then the crib.{% else %}Starts once every crib card is laid away.{% endif %}</p>\n'
    "      {% endif %}\n"
    "    </div>\n"
    '    <div class="felt-crib">\n'
    '      <span class="felt-label">{% if crib_owner %}{% if v.crib_owner == seat %}Your crib{% else %}{{ crib_owner }}’s crib{% endif %}{% else %}The crib{% endif %}</span>\n'
    '      {% back "the crib, face down" %}\n'
    "    </div>\n"
    "  </div>"
)


@pytest.mark.parametrize("seat", [0, 1, None])
def test_the_middle_of_the_felt_written_out_is_the_templates(seat):
    pile = [{"card": "5H", "who": "Ann <&>"}, {"card": "TC", "who": "You"}]
    for v, laid, owner in itertools.product(
        [*VIEWS, _view(phase="play", starter=None), _view(phase="show", crib_owner=1)], [pile, []], ["Bo & <Cy>", ""]
    ):
        context = {"v": v, "pile": laid, "seat": seat, "crib_owner": owner}
        assert _template("  {% felt_middle %}").render(context) == _template(FELT_MIDDLE).render(context), v
