"""A ladder's own admin page (events.progress): where it stands, its entrants pasted there and its
season closed by a button, never only by a bulk action; another organiser's ladder refuses it."""

import pytest
from django.urls import reverse

from ladders.models import Season
from tests.factories import make_user

pytestmark = pytest.mark.django_db


def _act(client, ladder, action, **data):
    return client.post(reverse("admin:ladders_ladder_act", args=[ladder.pk]), {"action": action, **data})


def test_a_ladders_page_takes_entrants_and_closes_its_season(client, organisers, make_ladder):
    ladder, _ = make_ladder(0, organiser=organisers[0])
    client.force_login(organisers[0])
    page = client.get(reverse("admin:ladders_ladder_change", args=[ladder.pk])).text
    assert "Season 1: 0 on the ladder, open to new players" in page and 'value="close_season"' not in page
    players = [make_user(display_name=name) for name in ("Ann", "Ben", "Cat")]
    _act(client, ladder, "add_entrants", **{"add-emails": "\n".join(p.email for p in players)})
    assert list(ladder.entrants.order_by("position").values_list("player__display_name", flat=True)) == [
        "Ann",
        "Ben",
        "Cat",
    ]
    page = client.get(reverse("admin:ladders_ladder_change", args=[ladder.pk])).text
    assert "Season 1: 3 on the ladder" in page and "Close season 1" in page
    _act(client, ladder, "close_season")
    ladder.refresh_from_db()
    assert ladder.season == 2 and Season.objects.get(ladder=ladder, number=1).closed_at is not None
    assert "Season 2: 3 on the ladder" in client.get(reverse("admin:ladders_ladder_change", args=[ladder.pk])).text
    assert reverse("admin:ladders_ladder_change", args=[ladder.pk]) in client.get(reverse("admin:index")).text


def test_another_organisers_ladder_refuses_its_buttons(client, organisers, make_ladder):
    ladder, _ = make_ladder(3, organiser=organisers[1])
    client.force_login(organisers[0])
    assert _act(client, ladder, "close_season").status_code == 403
    ladder.refresh_from_db()
    assert ladder.season == 1
