from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

from accounts import tokens
from accounts.models import User
from tests.factories import make_user

pytestmark = pytest.mark.django_db


def read(token, purpose):
    return tokens.read_token(token, purpose, User.objects.all())


def test_a_token_names_its_user_and_carries_extras():
    user = make_user()
    token = tokens.make_token(user, tokens.LOGIN, n="/games/3/")
    assert read(token, tokens.LOGIN) == (user, {"n": "/games/3/"})


@pytest.mark.parametrize(
    "made_for, used_for",
    [(tokens.CONFIRM, tokens.LOGIN), (tokens.LOGIN, tokens.INVITE), (tokens.INVITE, tokens.CONFIRM)],
)
def test_a_token_for_one_purpose_never_passes_for_another(made_for, used_for):
    user = make_user(email_confirmed=False)
    with pytest.raises(tokens.InvalidToken) as caught:
        read(tokens.make_token(user, made_for), used_for)
    assert caught.value.reason == "invalid"


@pytest.mark.parametrize(
    "forgery", ["", "garbage", "a:b:c", "eyJ1IjoxfQ:1tXyZ:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"]
)
def test_forged_tokens_are_invalid(forgery):
    make_user()
    with pytest.raises(tokens.InvalidToken) as caught:
        read(forgery, tokens.LOGIN)
    assert caught.value.reason == "invalid"


def test_a_token_with_an_altered_payload_is_invalid():
    user, other = make_user(), make_user()
    token = tokens.make_token(user, tokens.LOGIN)
    theirs = tokens.make_token(other, tokens.LOGIN)
    spliced = theirs.rsplit(":", 2)[0] + ":" + token.split(":", 1)[1]
    with pytest.raises(tokens.InvalidToken):
        read(spliced, tokens.LOGIN)


def test_a_token_signed_with_another_key_is_invalid(settings):
    user = make_user()
    settings.SECRET_KEY = "another-secret-key-entirely-" * 2
    token = tokens.make_token(user, tokens.LOGIN)
    settings.SECRET_KEY = "and-yet-another-secret-key--" * 2
    with pytest.raises(tokens.InvalidToken):
        read(token, tokens.LOGIN)


@pytest.mark.parametrize("purpose", [tokens.CONFIRM, tokens.LOGIN, tokens.INVITE])
def test_tokens_expire(purpose):
    user = make_user(email_confirmed=False)
    token = tokens.make_token(user, purpose)
    with time_machine.travel(timezone.now() + purpose.max_age - timedelta(seconds=5)):
        assert read(token, purpose)[0] == user
    with time_machine.travel(timezone.now() + purpose.max_age + timedelta(seconds=5)):
        with pytest.raises(tokens.InvalidToken) as caught:
            read(token, purpose)
    assert caught.value.reason == "expired"


def test_the_lifetimes_are_what_the_mails_promise():
    assert tokens.CONFIRM.max_age == timedelta(days=3)
    assert tokens.LOGIN.max_age == timedelta(minutes=30)


def test_a_login_token_is_spent_by_logging_in_and_by_a_new_password():
    user = make_user()
    token = tokens.make_token(user, tokens.LOGIN)
    user.last_login = timezone.now()
    user.save()
    with pytest.raises(tokens.InvalidToken) as caught:
        read(token, tokens.LOGIN)
    assert caught.value.reason == "used"
    token = tokens.make_token(user, tokens.LOGIN)
    user.set_password("another-Secret-456")
    user.save()
    with pytest.raises(tokens.InvalidToken):
        read(token, tokens.LOGIN)


def test_a_confirm_token_survives_logging_in_but_not_confirming():
    user = make_user(email_confirmed=False)
    token = tokens.make_token(user, tokens.CONFIRM)
    user.last_login = timezone.now()
    user.save()
    assert read(token, tokens.CONFIRM)[0] == user
    user.email_confirmed = True
    user.save()
    with pytest.raises(tokens.InvalidToken) as caught:
        read(token, tokens.CONFIRM)
    assert caught.value.reason == "used"


def test_a_token_for_a_deleted_user_is_invalid():
    user = make_user()
    token = tokens.make_token(user, tokens.LOGIN)
    user.delete()
    with pytest.raises(tokens.InvalidToken) as caught:
        read(token, tokens.LOGIN)
    assert caught.value.reason == "invalid"
