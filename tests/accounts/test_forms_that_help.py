"""The account forms help a newcomer: the time zone a select with the likely zones first (the
browser's own chosen by a script where the player has not chosen one), and each field's help
after its box (a password's rules after the place to type it, not between it and its label)."""

import re
from datetime import UTC, datetime

import pytest
from django.urls import reverse

from accounts import zones
from accounts.models import TIME_ZONE_CHOICES, User
from tests.accounts.test_invitations import invited
from tests.factories import make_user

pytestmark = pytest.mark.django_db

SIGN_UP = {
    "email": "ann@example.com",
    "display_name": "Ann",
    "password1": "pw-Secret-123",
    "password2": "pw-Secret-123",
}


def select(page, name="time_zone"):
    return re.search(rf'<select name="{name}"[^>]*>(.*?)</select>', page, re.S)


def test_the_time_zone_is_a_select_with_the_likely_zones_first_each_once():
    groups = zones.grouped_choices(datetime(2026, 1, 15, tzinfo=UTC))
    first, zones_in_it = groups[0]
    offered = [name for _, choices in groups for name, _ in choices]
    assert sorted(offered) == sorted(name for name, _ in TIME_ZONE_CHOICES)  # every zone, once
    assert {"Europe/London", "America/New_York", "Australia/Sydney", "UTC"} <= {n for n, _ in zones_in_it}
    labels = dict(zones_in_it)
    assert labels["America/New_York"] == "New York (UTC\u221205:00)" and labels["Asia/Kolkata"] == "Kolkata (UTC+05:30)"
    # West to east: a player finds their hour.
    assert (
        list(labels).index("America/New_York")
        < list(labels).index("Europe/London")
        < list(labels).index("Australia/Sydney")
    )
    assert dict(dict(groups)["America"])["America/Argentina/Buenos_Aires"].startswith("Buenos Aires, Argentina")


def test_sign_up_offers_the_zone_as_a_select_the_browser_may_guess(client):
    page = client.get(reverse("accounts:signup")).text
    zone = select(page)
    assert zone and 'data-guess-zone="browser"' in zone.group(0)
    assert zone.group(1).index('label="Where most players are"') < zone.group(1).index('label="Africa"')
    assert 'src="/static/js/time-zone.js"' in page
    # Without JavaScript the default is chosen, and it is UTC.
    assert re.search(r'<option value="UTC" selected>', zone.group(1))


def test_the_zone_chosen_at_sign_up_is_kept(client):
    client.post(reverse("accounts:signup"), {**SIGN_UP, "time_zone": "Europe/Paris"})
    assert User.objects.get().time_zone == "Europe/Paris"


def test_a_sign_up_without_a_zone_gets_utc(client):
    client.post(reverse("accounts:signup"), SIGN_UP)
    assert User.objects.get().time_zone == "UTC"


def test_a_zone_that_does_not_exist_is_refused_with_a_message(client):
    response = client.post(reverse("accounts:signup"), {**SIGN_UP, "time_zone": "Mars/Olympus_Mons"})
    assert response.status_code == 400 and not User.objects.exists()
    errors = re.search(r'<ul class="errorlist" id="id_time_zone_error">(.*?)</ul>', response.text, re.S)
    assert errors and "Select a valid choice" in errors.group(1)
    assert "data-guess-zone" not in select(response.text).group(0)  # the player's own answer stays


def test_the_profile_guesses_only_while_the_zone_is_the_default(client):
    player = make_user()
    client.force_login(player)
    page = client.get(reverse("accounts:profile")).text
    assert 'data-guess-zone="browser"' in select(page).group(0)
    User.objects.filter(pk=player.pk).update(time_zone="Europe/Paris")
    page = client.get(reverse("accounts:profile")).text
    assert "data-guess-zone" not in select(page).group(0)
    assert '<option value="Europe/Paris" selected>' in select(page).group(1)


def test_an_invited_player_chooses_a_zone_too(client, mailoutbox):
    _, path = invited(mailoutbox)
    page = client.get(path).text
    assert 'data-guess-zone="browser"' in select(page).group(0)
    client.post(
        path,
        {
            "display_name": "Carol",
            "password1": "pw-Secret-123",
            "password2": "pw-Secret-123",
            "time_zone": "Asia/Tokyo",
        },
    )
    assert User.objects.get(email="carol@example.com").time_zone == "Asia/Tokyo"


def test_a_password_s_rules_come_after_its_box(client):
    page = client.get(reverse("accounts:signup")).text
    label, box = page.index('<label for="id_password1">'), page.index('id="id_password1"')
    rules = page.index('id="id_password1_helptext"')
    assert label < box < rules
    assert 'aria-describedby="id_password1_helptext"' in page
    assert "at least" in page[rules : rules + 300]  # the rules themselves, from the validators
    # The same layout on every account form.
    client.force_login(make_user())
    page = client.get(reverse("accounts:password_change")).text
    assert page.index('id="id_new_password1"') < page.index('id="id_new_password1_helptext"')
