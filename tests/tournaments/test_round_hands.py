"""A duplicate round's hands side by side: for each deal every table's throw, play and count on the
same cards, on a page linked from the event once the round is complete; never a card before."""

import random
import re

import pytest
from django.urls import reverse

from games.models import Event
from tests.factories import committed, make_user
from tournaments import services
from tournaments.management.commands.simulate_tournament_season import play_out
from tournaments.models import PairingGame, Tournament

pytestmark = pytest.mark.django_db

CARD = re.compile(r'aria-label="(?:ace|king|queen|jack|\d+) of (?:spades|hearts|diamonds|clubs)"')


def _thrown(game, hand, seat):
    """The cards `seat` threw in hand number `hand`, from the game's log."""
    deals = 0
    for event in Event.objects.filter(game=game).order_by("seq"):
        deals += event.kind == "deal"
        if deals == hand and event.kind == "discard" and event.data["seat"] == seat:
            return set(event.data["cards"])
    return None


def test_the_hands_of_a_round_show_once_every_table_is_done_and_never_before(client, make_event):
    event, entrants = make_event(4, kind=Tournament.Kind.DUPLICATE, name="Duplicate night", slug="dup")
    services.start(event)
    rnd = event.rounds.get(number=1)
    first, second = PairingGame.objects.filter(pairing__round=rnd).select_related("game").order_by("pairing__table")
    url = reverse("tournaments:round_hands", args=[event.slug, 1])
    client.force_login(make_user())

    # While a table plays on, the page shows no card at all, and the event page does not link it.
    with committed():
        play_out(first.game, random.Random(1))
    page = client.get(url).content.decode()
    assert "shown here when every table of the round has finished" in page and not CARD.search(page)
    assert url not in client.get(event.get_absolute_url()).content.decode()

    with committed():
        play_out(second.game, random.Random(2))
    rnd.refresh_from_db()
    assert rnd.status == "complete"
    assert f'href="{url}"' in client.get(event.get_absolute_url()).content.decode()
    page = client.get(url).content.decode()
    hands = re.findall(r'<section class="deal-comparison" aria-labelledby="hand-(\d+)">(.*?)</section>', page, re.S)
    played = [Event.objects.filter(game=pg.game, kind="deal").count() for pg in (first, second)]
    assert [int(n) for n, _ in hands] == list(range(1, max(played) + 1))
    # Hand 1, both tables: each seat's throw as its log has it, side by side.
    rows = re.findall(r"<tr>\s*<th scope=\"row\">(.*?)</tr>", hands[0][1], re.S)
    assert len(rows) == 2
    for row, pg in zip(rows, (first, second)):
        threw = [
            set(re.findall(r'aria-label="([^"]+)"', part))
            for part in re.findall(r'threw (.*?)<span class="seat-line">pegged', row, re.S)
        ]
        assert len(threw) == 2
        for seat in (0, 1):
            names = {_name(code) for code in _thrown(pg.game, 1, seat)}
            assert threw[seat] == names
        assert f'href="{pg.game.get_absolute_url()}"' in row
    # The same cards were dealt at both tables: the page says them once, for each seat.
    assert hands[0][1].count("<strong>First seat") == 1 and hands[0][1].count("<strong>Starter") == 1


def _name(code):
    from games.presentation import card_name

    return card_name(code)


def test_only_a_duplicate_round_has_the_page(client, make_event):
    league, _ = make_event(2, name="League", slug="league")
    services.start(league)
    assert client.get(reverse("tournaments:round_hands", args=["league", 1])).status_code == 404
    dup, _ = make_event(4, kind=Tournament.Kind.DUPLICATE, slug="dup2")
    assert client.get(reverse("tournaments:round_hands", args=["dup2", 1])).status_code == 404  # not drawn yet
    services.start(dup)
    assert client.get(reverse("tournaments:round_hands", args=["dup2", 9])).status_code == 404
