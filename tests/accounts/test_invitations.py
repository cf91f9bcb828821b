import pytest
from django.conf import settings
from django.core.exceptions import ValidationError
from django.shortcuts import resolve_url
from django.urls import reverse

from accounts import services, tokens
from accounts.models import User
from tests.accounts.conftest import link_in
from tests.factories import committed, make_user

pytestmark = pytest.mark.django_db

FORM = {"display_name": "Carol", "password1": "pw-Secret-789", "password2": "pw-Secret-789"}


def logged_in_user(client):
    return client.get(reverse("home")).context["user"]


def test_inviting_a_new_address_makes_an_account_without_a_password_and_mails_it(mailoutbox):
    ann = make_user(display_name="Ann")
    with committed():
        carol = services.invite(" Carol@Example.com", ann, "/calculator/")
    assert (carol.email, carol.email_confirmed, carol.has_usable_password()) == ("carol@example.com", False, False)
    [message] = mailoutbox
    assert message.to == ["carol@example.com"]
    assert message.subject == "An invitation to a game of cribbage by mail, from Ann"  # no name leads it
    assert "Ann has invited you" in message.body
    assert link_in(message).startswith("/accounts/invitation/")


def test_inviting_a_known_address_returns_that_player_and_sends_nothing(mailoutbox):
    ann, bob = make_user(), make_user(email="bob@example.com")
    with committed():
        assert services.invite("BOB@example.com", ann, "/calculator/") == bob
        carol = services.invite("carol@example.com", ann, "/calculator/")
        assert services.invite("carol@example.com", bob, "/other/") == carol  # invited once only
    assert len(mailoutbox) == 1 and User.objects.count() == 3


def test_invite_refuses_a_bad_address_or_an_off_site_next_url(mailoutbox):
    ann = make_user()
    with pytest.raises(ValidationError):
        services.invite("not an address", ann, "/calculator/")
    with pytest.raises(ValueError):
        services.invite("carol@example.com", ann, "https://evil.example/")
    assert User.objects.count() == 1 and mailoutbox == []


def invited(mailoutbox, next_url="/calculator/"):
    with committed():
        carol = services.invite("carol@example.com", make_user(display_name="Ann"), next_url)
    return carol, link_in(mailoutbox[-1])


def test_the_invitation_page_shows_the_form_and_changes_nothing(client, mailoutbox):
    carol, path = invited(mailoutbox)
    for _ in range(2):
        page = client.get(path)
        assert page.status_code == 200
        assert "Ann has invited you" in page.text and "carol@example.com" in page.text
        assert 'value="carol"' in page.text  # a name to start from
    carol.refresh_from_db()
    assert not carol.email_confirmed and not carol.has_usable_password()
    assert not logged_in_user(client).is_authenticated


def test_accepting_an_invitation_end_to_end(client, mailoutbox):
    carol, path = invited(mailoutbox)
    response = client.post(path, FORM)
    assert response.status_code == 302 and response.url == "/calculator/"
    carol.refresh_from_db()
    assert carol.display_name == "Carol" and carol.email_confirmed
    assert carol.check_password("pw-Secret-789")
    assert logged_in_user(client) == carol
    client.post(reverse("accounts:logout"))
    response = client.post(reverse("accounts:login"), {"username": "carol@example.com", "password": "pw-Secret-789"})
    assert response.status_code == 302 and logged_in_user(client) == carol
    client.logout()
    for method in (client.get, lambda p: client.post(p, FORM)):  # the link is spent
        again = method(path)
        assert again.status_code == 400 and "already been used" in again.text


def test_an_invitation_without_a_next_url_lands_home(client, mailoutbox):
    _, path = invited(mailoutbox, next_url="")
    assert client.post(path, FORM).url == resolve_url(settings.LOGIN_REDIRECT_URL)


@pytest.mark.parametrize(
    "change, text",
    [
        ({"password2": "pw-Secret-780"}, "didn’t match"),
        ({"display_name": "  "}, "required"),
        ({"password1": "abc", "password2": "abc"}, "too short"),
    ],
)
def test_bad_input_on_the_invitation_form_changes_nothing(client, mailoutbox, change, text):
    carol, path = invited(mailoutbox)
    response = client.post(path, {**FORM, **change})
    assert response.status_code == 200 and text in response.text
    carol.refresh_from_db()
    assert not carol.email_confirmed and not carol.has_usable_password()
    assert not logged_in_user(client).is_authenticated


def test_forged_invitation_links_are_refused(client, mailoutbox):
    carol, _ = invited(mailoutbox)
    for token in ("forged", tokens.make_token(carol, tokens.LOGIN), tokens.make_token(carol, tokens.CONFIRM)):
        response = client.post(reverse("accounts:invitation", args=[token]), FORM)
        assert response.status_code == 400 and "not valid" in response.text
    carol.refresh_from_db()
    assert not carol.has_usable_password()


def test_an_expired_invitation_is_refused(client, mailoutbox):
    import time_machine
    from django.utils import timezone

    carol, path = invited(mailoutbox)
    with time_machine.travel(timezone.now() + tokens.INVITE.max_age * 2):
        response = client.post(path, FORM)
    assert response.status_code == 400 and "expired" in response.text


def test_an_invitee_may_come_in_by_login_link_instead(client, mailoutbox):
    carol, invitation_path = invited(mailoutbox)
    client.post(reverse("accounts:login_link"), {"email": "carol@example.com"})
    client.post(link_in(mailoutbox[-1]))
    assert logged_in_user(client) == carol
    carol.refresh_from_db()
    assert carol.email_confirmed
    assert client.get(invitation_path).status_code == 400  # superseded
