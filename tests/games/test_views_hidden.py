"""No page shows a player a card they could not see at the table.

Random games are played through the move service; after every step the game
page (and its JSON state) is rendered for a seat or the spectator (each in
turn, so every viewer sees every phase many times), and
every card named in the HTML, by code ("5H") or by label ("5♥"), must be one
that seat's own view (`view_for`) contains. The cards that seat must not see
(other hands, the undealt deck, the unturned starter, the crib before the
show) are checked from the engine state as well, so the test cannot pass by
the view itself leaking them.
"""

import json
import random
import re

import pytest
from django.test import Client
from django.urls import reverse

from games import cribbage, selectors, services
from tests.factories import make_user, start_two_player_game

pytestmark = pytest.mark.django_db

CODE = re.compile(r"(?<![A-Za-z0-9])([A2-9TJQK][SHDC])(?![A-Za-z0-9])")
LABEL = re.compile(r"(?<![A-Za-z0-9])(10|[A2-9JQK])([♠♥♦♣])")
SUIT_OF_SYMBOL = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}


def cards_named(text):
    """Every card code a page names, by code or by label."""
    named = set(CODE.findall(text))
    named |= {("T" if rank == "10" else rank) + SUIT_OF_SYMBOL[suit] for rank, suit in LABEL.findall(text)}
    return named


def visible_to(game, seat):
    """Every card that appears anywhere in the seat's view: all it may be shown."""
    return set(CODE.findall(json.dumps(selectors.view_for(game, seat).to_json(), default=str)))


def hidden_from(state, seat):
    """Cards this seat certainly cannot see now, from the raw engine state."""
    hidden = set()
    for other, hand in enumerate(state.hands):
        if other != seat:
            hidden |= {c.code for c in hand}
    hidden |= {c.code for c in state.deck}
    if state.starter is None and state.deck:
        hidden.add(state.deck[0].code)
    if state.phase in ("discard", "play"):
        own = {c.code for c in state.discards[seat]} if seat is not None else set()
        hidden |= {c.code for c in state.crib} - own
    # The same cards were seen before: in the cut for deal, and in the last hand's play and show.
    seen = {c.code for cut in state.cuts for c in cut}
    seen |= {c.code for show in state.shows for c in show.cards}  # five-card: unplayed cards are shown
    if state.previous is not None:
        prev = state.previous
        seen |= {prev.starter.code} | {c.code for c in prev.crib}
        seen |= {c.code for kept in prev.kept for c in kept}
        seen |= {p.card.code for p in prev.plays if p.card}
    return hidden - seen


def check_page(game, seat, client, with_json=True):
    state = services.engine_state(game)
    html = client.get(reverse("games:game", args=[game.pk])).content.decode()
    named = cards_named(html)
    allowed = visible_to(game, seat)
    assert named <= allowed, (seat, state.phase, named - allowed)
    assert not named & hidden_from(state, seat), (seat, state.phase, named & hidden_from(state, seat))
    if with_json:
        data = client.get(reverse("games:state", args=[game.pk])).content.decode()
        assert not cards_named(data) - allowed


def check_every_step(game, rng, clients, stride=1):
    """Play to the end; after every `stride`-th step render the page for one viewer,
    in turn (every seat and the spectator see every phase many times over a game)."""
    viewers = list(clients.items())
    steps = 0
    while not game.is_finished:
        if steps % stride == 0:
            seat, client = viewers[(steps // stride) % len(viewers)]
            check_page(game, seat, client, with_json=steps % (4 * stride) == 0)
        state = services.engine_state(game)
        acting = rng.choice(cribbage.to_act(state))
        services.submit_move(game, acting, rng.choice(cribbage.legal_moves(state, acting)), rng=rng)
        game.refresh_from_db()
        steps += 1
    return steps


@pytest.mark.parametrize(
    "variant,target,muggins,stride",
    [
        ("two", 61, False, 1),
        ("two", 61, True, 1),
        ("four", 61, False, 1),
        # The same page; sampled to keep the suite quick.
        ("three", 61, False, 3),
        ("five_card", 61, True, 3),
    ],
)
def test_no_page_shows_a_card_its_viewer_could_not_see(variant, target, muggins, stride):
    rng = random.Random(f"{variant}-{target}")
    game = start_two_player_game(variant=variant, rng=rng, target=target, muggins=muggins)
    clients = {}
    for seat in game.seats.select_related("player"):
        clients[seat.number] = Client()
        clients[seat.number].force_login(seat.player)
    clients[None] = Client()
    clients[None].force_login(make_user())
    steps = check_every_step(game, rng, clients, stride)
    assert steps > 10
    # The finished game's page, record and downloads: still only what each seat saw.
    pages = ["games:game", "games:record", "games:record_json", "games:record_txt"]
    for seat, client in clients.items():
        for name in pages:
            text = client.get(reverse(name, args=[game.pk])).content.decode()
            record = json.dumps(selectors.record_for(game, seat))
            allowed = visible_to(game, seat) | set(CODE.findall(record))
            assert cards_named(text) <= allowed, (name, seat)


def test_the_text_record_of_a_muggins_game():
    rng = random.Random(3)
    game = start_two_player_game(rng=rng, target=61, muggins=True)
    while not game.is_finished:
        state = services.engine_state(game)
        seat = rng.choice(cribbage.to_act(state))
        services.submit_move(game, seat, rng.choice(cribbage.legal_moves(state, seat)), rng=rng)
        game.refresh_from_db()
    text = selectors.record_text(selectors.record_for(game, 0))
    assert "Won by" in text and "missed" in text
