"""Duplicate events: every table of a round plays the same cards, and the table compares each
player with the others who held the same seat's cards."""

import random

import pytest
from django.urls import reverse

from games.models import Event
from tests.factories import committed, make_user
from tournaments import selectors, services
from tournaments.management.commands.simulate_tournament_season import play_out
from tournaments.models import PairingGame, Round, Tournament

pytestmark = pytest.mark.django_db


def _decks(game):
    return [e.data["deck"] for e in Event.objects.filter(game=game, kind="deal").order_by("seq")]


def test_a_round_deals_the_same_cards_at_every_table_and_each_round_new_ones(client, make_event):
    event, entrants = make_event(4, kind=Tournament.Kind.DUPLICATE)
    services.start(event)
    rounds = list(event.rounds.order_by("number"))
    assert [r.status for r in rounds] == ["open", "scheduled", "scheduled"]  # one round at a time
    first = list(PairingGame.objects.filter(pairing__round=rounds[0]).select_related("game", "pairing"))
    assert len(first) == 2
    assert {pg.game.deal_seed for pg in first} == {rounds[0].deal_seed} and len(rounds[0].deal_seed) == 32
    assert all(pg.game.first_dealer == 0 for pg in first)  # seat 0 deals first at every table
    assert _decks(first[0].game) == _decks(first[1].game)

    # The first table finishes; the second is still on the same cards: the first is sealed.
    levels = {e.player_id: level for e, level in zip(entrants, ["standard", "easy", "greedy", "standard"])}
    with committed():
        play_out(first[0].game, random.Random(1), levels)
    spectator = make_user()
    client.force_login(spectator)
    assert client.get(reverse("games:record", args=[first[0].game_id])).status_code == 403
    page = client.get(reverse("tournaments:detail", args=[event.slug]))
    assert page.status_code == 200 and rounds[0].deal_seed not in page.text
    with committed():
        play_out(first[1].game, random.Random(2), levels)
    assert client.get(reverse("games:record", args=[first[0].game_id])).status_code == 200
    hands = min(len(_decks(pg.game)) for pg in first)
    assert _decks(first[0].game)[:hands] == _decks(first[1].game)[:hands]

    rounds = list(event.rounds.order_by("number"))
    assert [r.status for r in rounds] == ["complete", "open", "scheduled"]
    assert rounds[1].deal_seed not in ("", rounds[0].deal_seed)
    # Against the field, round 1: the two holders of each seat's cards, margin against margin.
    results = [pg for pg in PairingGame.objects.filter(pairing__round=rounds[0], counted=True)]
    margins = {}
    for pg in results:
        p = pg.pairing
        margins[(0, p.home_id)] = pg.home_score - pg.away_score
        margins[(1, p.away_id)] = pg.away_score - pg.home_score
    expected = {}
    for (seat, entrant), margin in margins.items():
        other = next(m for (s, e), m in margins.items() if s == seat and e != entrant)
        expected[entrant] = margin - other
    rows = selectors.table(event)
    assert {r["entrant"]: r["field"] for r in rows} == {e: f"{v:+.1f}" for e, v in expected.items()}
    assert [r["boards"] for r in rows] == [1, 1, 1, 1]
    values = [float(r["field"]) for r in rows]
    assert values == sorted(values, reverse=True) and sum(values) == 0

    # The organiser's pages never show the seed either.
    organiser = make_user(is_staff=True)
    event.organisers.add(organiser)
    client.force_login(organiser)
    for url in (
        reverse("admin:tournaments_round_change", args=[rounds[1].pk]),
        reverse("admin:tournaments_round_changelist"),
        reverse("admin:tournaments_tournament_change", args=[event.pk]),
    ):
        response = client.get(url)
        assert response.status_code == 200 and rounds[1].deal_seed not in response.text
    assert Round.objects.filter(tournament=event, status="open").count() == 1
