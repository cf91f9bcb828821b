import pytest
from django.urls import reverse

from tests.accounts.conftest import SITE
from tests.factories import make_user

pytestmark = pytest.mark.django_db


def reset_path(message):
    import re
    from urllib.parse import urlsplit

    [link] = {
        found for found in re.findall(re.escape(SITE) + r"/[^\s\"<]+", message.body) if not found.endswith("/help/")
    }
    assert f'href="{link}"' in message.alternatives[0][0]
    return urlsplit(link).path


def test_the_password_reset_request_page(client):
    response = client.get(reverse("accounts:password_reset"))
    assert response.status_code == 200 and 'name="email"' in response.text


def test_a_password_reset_end_to_end(client, mailoutbox):
    user = make_user(email="ann@example.com")
    response = client.post(reverse("accounts:password_reset"), {"email": "ann@example.com"})
    assert response.url == reverse("accounts:password_reset_done")
    assert "Check your email" in client.get(response.url).text
    [message] = mailoutbox
    path = reset_path(message)
    form_page = client.get(path, follow=True)
    assert form_page.context["validlink"]
    set_url = form_page.redirect_chain[-1][0]
    mismatched = client.post(set_url, {"new_password1": "new-Secret-456", "new_password2": "new-Secret-457"})
    assert "didn’t match" in mismatched.text
    user.refresh_from_db()
    assert user.check_password("pw-Secret-123")
    done = client.post(set_url, {"new_password1": "new-Secret-456", "new_password2": "new-Secret-456"})
    assert done.url == reverse("accounts:password_reset_complete")
    assert "log in" in client.get(done.url).text
    user.refresh_from_db()
    assert user.check_password("new-Secret-456")
    again = client.get(path, follow=True)
    assert not again.context["validlink"] and "cannot be used" in again.text


def test_a_reset_for_an_unknown_address_looks_the_same_and_sends_nothing(client, mailoutbox):
    response = client.post(reverse("accounts:password_reset"), {"email": "nobody@example.com"})
    assert response.url == reverse("accounts:password_reset_done")
    assert mailoutbox == []


def test_a_forged_reset_link_is_refused(client):
    user = make_user()
    response = client.get(reverse("accounts:password_reset_confirm", args=["MQ", "forged-token"]), follow=True)
    assert not response.context["validlink"]
    user.refresh_from_db()
    assert user.check_password("pw-Secret-123")


def test_changing_the_password(client):
    user = make_user()
    client.force_login(user)
    assert client.get(reverse("accounts:password_change")).status_code == 200
    wrong = client.post(
        reverse("accounts:password_change"),
        {"old_password": "wrong", "new_password1": "new-Secret-456", "new_password2": "new-Secret-456"},
    )
    assert "incorrectly" in wrong.text
    response = client.post(
        reverse("accounts:password_change"),
        {"old_password": "pw-Secret-123", "new_password1": "new-Secret-456", "new_password2": "new-Secret-456"},
    )
    assert response.url == reverse("accounts:password_change_done")
    assert client.get(response.url).status_code == 200
    user.refresh_from_db()
    assert user.check_password("new-Secret-456")
    assert client.get(reverse("accounts:profile")).status_code == 200  # still logged in


def test_a_player_without_a_password_can_set_one(client):
    user = make_user(password=None)
    client.force_login(user)
    page = client.get(reverse("accounts:password_change"))
    assert "Set a password" in page.text and "old_password" not in page.text
    client.post(
        reverse("accounts:password_change"), {"new_password1": "new-Secret-456", "new_password2": "new-Secret-456"}
    )
    user.refresh_from_db()
    assert user.check_password("new-Secret-456")


def test_changing_the_password_needs_a_login(client):
    response = client.get(reverse("accounts:password_change"))
    assert response.status_code == 302 and reverse("accounts:login") in response.url
