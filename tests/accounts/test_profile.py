import pytest
from django.urls import reverse

from accounts import services
from accounts.models import User
from tests.factories import make_user

pytestmark = pytest.mark.django_db

GOOD = {
    "display_name": "Ann B.",
    "time_zone": "Europe/Paris",
    "notify": "digest",
    "digest_hour": "19",
    "allow_forced_moves": "",
}


def test_the_profile_needs_a_login(client):
    response = client.get(reverse("accounts:profile"))
    assert response.status_code == 302 and reverse("accounts:login") in response.url


def test_the_profile_page_shows_every_preference(client):
    client.force_login(make_user(display_name="Ann", time_zone="Asia/Tokyo"))
    response = client.get(reverse("accounts:profile"))
    assert response.status_code == 200
    for name in ("display_name", "time_zone", "notify", "digest_hour", "allow_forced_moves"):
        assert f'name="{name}"' in response.text
    assert '<option value="Asia/Tokyo" selected>' in response.text
    assert "One daily digest" in response.text and "19:00" in response.text
    assert reverse("accounts:password_change") in response.text


def test_saving_the_profile(client):
    user = make_user(display_name="Ann")
    client.force_login(user)
    response = client.post(reverse("accounts:profile"), GOOD, follow=True)
    assert "Your profile is saved" in response.text
    user.refresh_from_db()
    assert (user.display_name, user.time_zone, user.notify, user.digest_hour, user.allow_forced_moves) == (
        "Ann B.",
        "Europe/Paris",
        "digest",
        19,
        False,
    )


@pytest.mark.parametrize(
    "change, field",
    [
        ({"time_zone": "Mars/Olympus_Mons"}, "time_zone"),
        ({"notify": "carrier_pigeon"}, "notify"),
        ({"digest_hour": "24"}, "digest_hour"),
        ({"digest_hour": "seven"}, "digest_hour"),
        ({"display_name": "   "}, "display_name"),
        ({"display_name": "x" * 61}, "display_name"),
    ],
)
def test_bad_input_is_named_and_nothing_changes(client, change, field):
    user = make_user(display_name="Ann")
    client.force_login(user)
    before = User.objects.filter(pk=user.pk).values().get()
    response = client.post(reverse("accounts:profile"), {**GOOD, **change})
    assert response.status_code == 400
    assert "Nothing was saved" in response.text
    assert response.context["form"].errors[field]
    assert User.objects.filter(pk=user.pk).values().get() == before
    assert '<span class="nav-me-name">Ann</span>' in response.text  # the page still shows the saved name


def test_update_profile_saves_only_profile_fields():
    user = make_user()
    services.update_profile(user, notify="none")
    user.refresh_from_db()
    assert user.notify == "none"
    with pytest.raises(ValueError):
        services.update_profile(user, is_staff=True)


@pytest.mark.parametrize(
    "night",
    [
        {"night_start_hour": "20", "night_end_hour": "9"},  # 13 hours
        {"night_start_hour": "6", "night_end_hour": "5"},  # 23 hours
        {"night_end_hour": "12"},  # from the saved 23:00: 13 hours
    ],
)
def test_a_night_longer_than_12_hours_is_refused(client, night):
    user = make_user(display_name="Ann")
    client.force_login(user)
    before = User.objects.filter(pk=user.pk).values().get()
    response = client.post(reverse("accounts:profile"), {**GOOD, **night})
    assert response.status_code == 400
    assert response.context["form"].errors == {"night_end_hour": ["A night lasts at most 12 hours."]}
    assert "A night lasts at most 12 hours." in response.text and "Nothing was saved" in response.text
    assert User.objects.filter(pk=user.pk).values().get() == before


@pytest.mark.parametrize(
    "night,saved",
    [
        ({"night_start_hour": "22", "night_end_hour": "6"}, (22, 6)),
        ({"night_start_hour": "20", "night_end_hour": "8"}, (20, 8)),  # exactly 12 hours
        ({"night_start_hour": "1", "night_end_hour": "9"}, (1, 9)),
        ({"night_start_hour": "0"}, (0, 7)),  # the end not sent: kept
        ({}, (23, 7)),  # neither sent: both kept
    ],
)
def test_saving_the_night_hours(client, night, saved):
    user = make_user(display_name="Ann")
    assert (user.night_start_hour, user.night_end_hour) == (23, 7)
    client.force_login(user)
    response = client.post(reverse("accounts:profile"), {**GOOD, **night}, follow=True)
    assert [str(m) for m in response.context["messages"]] == ["Your profile is saved."]
    user.refresh_from_db()
    assert (user.night_start_hour, user.night_end_hour, user.display_name) == (*saved, "Ann B.")
