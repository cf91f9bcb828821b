"""Template helpers for cards and scores: `{% load cards %}`.

{% card c %}            one card chip (a Card or a code such as "5H")
{{ c|card }}            the same, as a filter
{{ hand|cards }}        several chips separated by spaces
{% face c %}            the card drawn as a card (SVG); {% back %} one face down
{% counted_show show %}  a counted hand or crib (a show of presenter.Table.shows)
{% pegging rounds %}     a hand's pegging, count by count (presenter.Table.plays)
{% plan_head v %}, {% plan_tail v plan_form %}   the plan section, either side of its live part
{% talk_panel %}        the table talk and the reader's note (talk.panel_for's context)
{% felt_others others v.phase %}   the other seats round the felt (presenter.Table.others)
{% card_picks hand %}, {% card_buttons hand playable count %}   the discard and play forms' cards
{% felt_middle %}       the middle of the felt: the starter, the count and its pile, the crib
{% felt_mine seat sides v can_discard can_play can_count can_muggins discard_count crib_owner counting %}
                        the reader's own place at the felt: hand, heading and move forms
{% score_sides sides %}, {% plan_places plan_form.places %}   the scoreboard's sides, the plan's places
{% scoreboard sides tracks v.target %}, {% score_records records %}   the scores and the board, the score records
{{ c|card_name }}       "5 of hearts"
{{ hand|in_card_order }} the codes low to high, suit order fixed (display only: the pile keeps its order)
{% board tracks 121 %}  the cribbage board: the long SVG and the folded one (see games.board.board_html)
"""

from django import template

from games import markup, presentation
from games.board import board_html
from games.cribbage import FULL_GAME

register = template.Library()


@register.simple_tag(name="card")
def card_tag(card):
    """{% card c %} -> <span class="card red" role="img" aria-label="5 of hearts">5♥</span>"""
    return presentation.card_chip(card)


@register.simple_tag(name="face")
def face_tag(card):
    return presentation.card_face(card)


@register.simple_tag(name="back")
def back_tag(label="a card face down"):
    return presentation.card_back(label)


@register.simple_tag(name="counted_show")
def counted_show_tag(show):
    return markup.counted_show(show)


@register.simple_tag(name="pegging")
def pegging_tag(rounds):
    return markup.pegging(rounds)


@register.simple_tag(name="felt_others")
def felt_others_tag(others, phase):
    return markup.felt_others(others, phase)


@register.simple_tag(name="card_picks")
def card_picks_tag(hand):
    return markup.card_picks(hand)


@register.simple_tag(name="card_buttons")
def card_buttons_tag(hand, playable, count):
    return markup.card_buttons(hand, playable, count)


@register.simple_tag(name="felt_middle", takes_context=True)
def felt_middle_tag(context):
    # The pile is asked only in the play, as the template asked it: `pile` is worked out when read.
    def pile():
        found = context.get("pile")
        return found() if callable(found) else found

    crib_owner = context.get("crib_owner", "")
    crib_owner = crib_owner() if callable(crib_owner) else crib_owner
    v = context["v"]
    return markup.felt_middle(v() if callable(v) else v, pile, context.get("seat"), crib_owner)


@register.simple_tag(name="felt_mine", takes_context=True)
def felt_mine_tag(
    context, seat, sides, v, can_discard, can_play, can_count, can_muggins, discard_count, crib_owner, counting
):
    can = {"discard": can_discard, "play": can_play, "count": can_count, "muggins": can_muggins}
    token, game = context.get("token", ""), context["game"]
    return markup.felt_mine(
        seat, sides, v, can, discard_count, crib_owner, counting, token, game, context.get("csrf_token")
    )


@register.simple_tag(name="score_sides")
def score_sides_tag(sides):
    return markup.score_sides(sides)


@register.simple_tag(name="scoreboard")
def scoreboard_tag(sides, tracks, target):
    return markup.scoreboard(sides, tracks, target)


@register.simple_tag(name="score_records")
def score_records_tag(records):
    return markup.score_records(records)


@register.simple_tag(name="plan_places")
def plan_places_tag(places):
    return markup.plan_places(places)


@register.simple_tag(name="plan_head")
def plan_head_tag(v):
    return markup.plan_head(v)


@register.simple_tag(name="plan_tail", takes_context=True)
def plan_tail_tag(context, v, plan_form):
    return markup.plan_tail(v, plan_form, context["game"], context.get("token", ""), context.get("csrf_token"))


@register.simple_tag(name="talk_panel", takes_context=True)
def talk_panel_tag(context):
    panel = {name: context[name] for name in ("talk", "said", "say_max", "talk_players", "note", "note_max")}
    return markup.talk_panel(panel, context["game"], context["user"], context.get("csrf_token"))


@register.filter(name="card")
def card_filter(card):
    return presentation.card_chip(card)


@register.filter(name="cards")
def cards_filter(cards):
    return presentation.card_chips(cards)


@register.filter(name="in_card_order")
def in_card_order_filter(cards):
    return presentation.in_card_order(cards or [])


@register.filter(name="card_name")
def card_name_filter(card):
    return presentation.card_name(card)


@register.simple_tag(name="board")
def board_tag(tracks, target=None, id_prefix="board"):
    # A template that names no target ("" when the include passes none) draws the full game.
    return board_html(tracks, target or FULL_GAME, id_prefix=id_prefix)
