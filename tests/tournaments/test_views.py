"""The public pages of an event: standings, bracket, schedule and games, the CSV."""

import pytest
from django.urls import reverse

from ratings.selectors import rating_of
from tests.factories import committed
from tournaments import services
from tournaments.models import PairingGame, Tournament

pytestmark = pytest.mark.django_db


def test_a_league_page_shows_the_table_the_schedule_and_links_to_the_games(client, make_event):
    event, entrants = make_event(3, name="Winter League")
    page = client.get(reverse("tournaments:detail", args=[event.slug]))
    assert page.status_code == 200 and "The schedule is drawn when the event starts" in page.text
    services.start(event)
    pg = PairingGame.objects.filter(pairing__round__tournament=event).first()
    with committed():  # the result's signal after commit: the ratings count it
        services.forfeit_game(pg, pg.pairing.home, reason="away", actor=None)
    page = client.get(reverse("tournaments:detail", args=[event.slug]))
    assert page.status_code == 200
    assert "Standings" in page.text and "Ahead of the next on" in page.text
    assert "Round 3" in page.text and ": a bye" in page.text
    assert pg.game.get_absolute_url() in page.text
    assert f"won by {pg.pairing.away}" in page.text
    # Each row links to the player's profile and shows the two-player rating the game moved.
    winner = pg.pairing.away.player
    assert reverse("ratings:player", args=[winner.pk]) in page.text
    shown = rating_of(winner, "two")
    assert shown.games == 1 and f">{shown.words}</span>" in page.text
    listing = client.get(reverse("tournaments:list"))
    assert event.get_absolute_url() in listing.text
    csv_response = client.get(reverse("tournaments:standings_csv", args=[event.slug]))
    assert csv_response["Content-Disposition"] == f'attachment; filename="{event.slug}-standings.csv"'
    assert csv_response.content.decode().splitlines()[1].startswith(f"1,{pg.pairing.away},1,1,1,0,")
    assert client.get(reverse("tournaments:detail", args=["no-such-event"])).status_code == 404


def test_a_knockout_page_draws_the_bracket_with_byes_and_slots_to_come(client, make_event):
    event, entrants = make_event(5, kind=Tournament.Kind.KNOCKOUT)
    services.start(event)
    page = client.get(reverse("tournaments:detail", args=[event.slug]))
    assert page.status_code == 200
    text = page.text
    assert 'class="bracket"' in text
    assert text.index("Quarter-finals") < text.index("Semi-finals") < text.index("Final")
    assert text.count('class="bracket-match bye"') == 3
    assert "to come" in text  # the semi-finals and final are not drawn yet


def test_a_display_name_that_a_spreadsheet_would_run_is_text_in_the_csv(client, make_event):
    event, entrants = make_event(2)
    player = entrants[0].player
    player.display_name = '=HYPERLINK("http://evil.example","x")'
    player.save(update_fields=["display_name"])
    text = client.get(reverse("tournaments:standings_csv", args=[event.slug])).content.decode()
    assert "'=HYPERLINK" in text and ",=HYPERLINK" not in text


def test_a_game_is_named_by_the_events_numbering_on_its_page_and_the_events(client, make_event):
    event, _ = make_event(4, name="Winter League")
    services.start(event)
    pg = PairingGame.objects.get(pairing__round__number=2, pairing__table=2, number=1)
    title = "Round 2, table 2 · game 1"
    listing = client.get(event.get_absolute_url()).text
    assert f'<a href="{pg.game.get_absolute_url()}" title="{title}">game 1</a>' in listing
    page = client.get(pg.game.get_absolute_url()).text
    assert f"<h1>{title}: " in page and f"<title>{title}, Winter League" in page
    assert f'<a href="{event.get_absolute_url()}">Winter League</a> (game {pg.game.pk} on this site)' in page


@pytest.mark.parametrize(
    ("allowed", "cap", "game_cap", "words"),
    [(True, 5, 5, "Vacation: up to 5 days a game."), (False, 21, 0, "No vacation days")],
)
def test_an_events_vacation_policy_holds_in_its_games_and_is_said_on_its_page(
    client, make_event, allowed, cap, game_cap, words
):
    event, _ = make_event(2, vacation_allowed=allowed, vacation_days_cap=cap)
    services.start(event)
    game = PairingGame.objects.get(pairing__round__tournament=event).game
    assert game.vacation_cap_days == game_cap
    assert words in client.get(event.get_absolute_url()).text
