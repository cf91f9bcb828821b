import csv
import io

from django.urls import reverse

from ladders import services
from ladders.models import Challenge
from tests.factories import make_user


def test_the_page_shows_the_rules_and_lets_a_player_join_and_challenge(client, make_ladder):
    ladder, (a, b, c) = make_ladder(3, challenge_range=1, match_length=3, scoring="acc")
    page = client.get(ladder.get_absolute_url())
    assert "up to 1 place above you" in page.text and "first player with 3 game points" in page.text
    newcomer = make_user()
    client.force_login(newcomer)
    client.post(reverse("ladders:join", args=[ladder.slug]))
    me = ladder.entrants.get(player=newcomer)
    assert me.position == 4
    page = client.get(ladder.get_absolute_url())
    assert page.text.count(">Challenge</button>") == 1  # only C, one place above
    bad = client.post(reverse("ladders:challenge", args=[ladder.slug]), {"defender": a.pk}, follow=True)
    assert "at most 1 places above" in bad.text or "at most 1 place" in bad.text
    assert not Challenge.objects.exists()
    client.post(reverse("ladders:challenge", args=[ladder.slug]), {"defender": c.pk})
    item = Challenge.objects.get()
    client.force_login(c.player)
    client.post(reverse("ladders:accept", args=[ladder.slug, item.pk]))
    item.refresh_from_db()
    assert item.status == Challenge.Status.ACCEPTED
    page = client.get(ladder.get_absolute_url())
    assert "game 1" in page.text


def test_csv_export_lists_the_standings(client, make_ladder):
    ladder, (a, b) = make_ladder(2, match_length=1)
    match = services.start_match(b, a, actor=None)
    services.forfeit_game(match.games.get(), a, reason="no show", actor=None)
    rows = list(csv.reader(io.StringIO(client.get(reverse("ladders:standings_csv", args=[ladder.slug]))
                                       .content.decode())))
    assert [r[:4] for r in rows[1:]] == [["1", str(b.player), "1", "1"], ["2", str(a.player), "1", "0"]]
