"""Making someone an organiser in one step, through the ladder's admin page: they become staff at
once and run that ladder only; the page says so."""

import pytest
from django.core import mail
from django.urls import reverse

from accounts.models import User
from tests.factories import admin_form_data, committed, make_user

pytestmark = pytest.mark.django_db


def change_page(ladder):
    return reverse("admin:ladders_ladder_change", args=[ladder.pk])


def form_data(client, ladder, **changes):
    """The ladder's change form as the page fills it, with `changes`."""
    return admin_form_data(client.get(change_page(ladder)), **changes)


def save(client, ladder, **changes):
    with committed():
        return client.post(change_page(ladder), form_data(client, ladder, **changes), follow=True)


def test_a_superuser_ticks_a_player_and_they_become_staff_and_run_the_ladder(client, make_ladder):
    superuser = make_user(is_staff=True, is_superuser=True)
    ladder, _ = make_ladder(3)
    player = make_user(display_name="Pat")  # not staff
    client.force_login(superuser)
    page = client.get(change_page(ladder))
    assert "becomes staff at once" in page.text  # the page explains the one step
    assert f'<option value="{player.pk}">' in page.text  # every player can be chosen, not staff only
    response = save(client, ladder, organisers=[player.pk])
    assert response.status_code == 200
    player.refresh_from_db()
    assert player.is_staff and not player.is_superuser and ladder.is_organiser(player)
    assert ladder.history.get(kind="organiser").text == f"{superuser} made {player} an organiser"
    client.force_login(player)
    assert client.get(change_page(ladder)).status_code == 200
    assert client.get(reverse("admin:ladders_ladder_entrants", args=[ladder.pk])).status_code == 200


def test_an_organiser_adds_a_co_organiser_by_email(client, make_ladder):
    olive = make_user(is_staff=True, display_name="Olive")
    ladder, _ = make_ladder(3, organiser=olive)
    other, _ = make_ladder(2)
    pat = make_user(email="pat@example.com", display_name="Pat")
    make_user(email="bystander@example.com", display_name="Bystander", is_staff=True)  # staff, not of this ladder
    client.force_login(olive)
    page = client.get(change_page(ladder))
    # An organiser is never shown the members to pick from: only this ladder's organisers.
    assert "bystander@example.com" not in page.text and "Bystander" not in page.text
    assert "Add an organiser by email" in page.text
    response = save(client, ladder, new_organiser="Pat@Example.com")
    shown = [m.message for m in response.context["messages"]]
    assert f"Pat (pat@example.com) is an organiser of {ladder} and can sign in to the admin." in shown
    pat.refresh_from_db()
    assert pat.is_staff and set(ladder.organisers.all()) == {olive, pat}
    assert not ladder.history.filter(kind="settings").exists()  # only the organiser was added
    client.force_login(pat)
    assert client.get(change_page(ladder)).status_code == 200
    assert client.get(change_page(other)).status_code == 403  # staff runs only their own ladders
    assert client.get(reverse("admin:accounts_user_changelist")).status_code == 403


def test_an_address_new_here_is_invited_and_made_an_organiser(client, make_ladder, settings):
    settings.SITE_URL = "https://cribbage.example"
    olive = make_user(is_staff=True)
    ladder, _ = make_ladder(2, organiser=olive)
    client.force_login(olive)
    mail.outbox.clear()
    save(client, ladder, new_organiser="new.organiser@example.com")
    user = User.objects.get(email="new.organiser@example.com")
    assert user.is_staff and ladder.is_organiser(user)
    assert [m.to for m in mail.outbox] == [["new.organiser@example.com"]]  # the invitation
    assert f"to help run the {ladder.name} ladder as an organiser" in mail.outbox[0].body


@pytest.mark.parametrize("email, error", [("not an address", "Enter a valid email address.")])
def test_a_bad_address_is_refused_and_nothing_changes(client, make_ladder, ladder_state, email, error):
    olive = make_user(is_staff=True)
    ladder, _ = make_ladder(2, organiser=olive)
    client.force_login(olive)
    before, users = ladder_state(ladder), User.objects.count()
    response = client.post(change_page(ladder), form_data(client, ladder, new_organiser=email))
    assert response.status_code == 200 and response.context["adminform"].form.errors == {"new_organiser": [error]}
    assert ladder_state(ladder) == before and User.objects.count() == users


def test_a_closed_account_is_refused(client, make_ladder):
    olive = make_user(is_staff=True)
    ladder, _ = make_ladder(2, organiser=olive)
    gone = make_user(email="gone@example.com", is_active=False)
    client.force_login(olive)
    response = save(client, ladder, new_organiser="gone@example.com")
    assert "The account of gone@example.com is closed: nobody was added." in [
        m.message for m in response.context["messages"]
    ]
    gone.refresh_from_db()
    assert not gone.is_staff and set(ladder.organisers.all()) == {olive}


def test_an_organiser_of_another_ladder_cannot_add_organisers_to_it(client, make_ladder):
    olive, oscar = make_user(is_staff=True), make_user(is_staff=True)
    ladder, _ = make_ladder(2, organiser=olive)
    client.force_login(oscar)
    pat = make_user(email="pat@example.com")
    response = client.post(change_page(ladder), {"name": "x", "new_organiser": "pat@example.com"})
    assert response.status_code == 403
    pat.refresh_from_db()
    assert not pat.is_staff and set(ladder.organisers.all()) == {olive}
