"""What each email a person asks for on the site says (accounts.mail.owe), its link made now.

Mail calls `context` when it sends the email (its outbox row holds the kind and a few plain
words, no link): a token made at sending time is never stored, and its life starts when it
leaves. The templates are accounts/email/<kind>.*.
"""

from django.contrib.auth.tokens import default_token_generator
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from . import privacy, tokens
from .mail import absolute
from .services import local_url


def _minutes(purpose):
    return int(purpose.max_age.total_seconds() // 60)


def confirm(user):
    token = tokens.make_token(user, tokens.CONFIRM)
    return {
        "user": user,
        "url": absolute(reverse("accounts:confirm_email", args=[token])),
        "days": tokens.CONFIRM.max_age.days,
    }


def login_link(user, next_url=""):
    token = tokens.make_token(user, tokens.LOGIN, n=local_url(next_url))
    return {
        "user": user,
        "url": absolute(reverse("accounts:login_link_use", args=[token])),
        "minutes": _minutes(tokens.LOGIN),
    }


def already_registered(user):
    """A sign-up with the address of `user`: a login link, unless the account is closed."""
    token = tokens.make_token(user, tokens.LOGIN) if user.is_active else None
    return {
        "user": user,
        "url": absolute(reverse("accounts:login_link_use", args=[token])) if token else "",
        "minutes": _minutes(tokens.LOGIN),
    }


def password_reset(user):
    """Django's reset link (PasswordResetConfirmView reads it), as its PasswordResetForm makes it."""
    return {
        "user": user,
        "uid": urlsafe_base64_encode(force_bytes(user.pk)),
        "token": default_token_generator.make_token(user),
    }


def delete_account(user):
    token = tokens.make_token(user, privacy.DELETE)
    return {
        "user": user,
        "url": absolute(reverse("accounts:delete_confirm", args=[token])),
        "days": privacy.DELETE.max_age.days,
    }


def change_email(user, new_email):
    token = tokens.make_token(user, privacy.CHANGE_EMAIL, e=new_email)
    return {
        "user": user,
        "new_email": new_email,
        "url": absolute(reverse("accounts:change_email_confirm", args=[token])),
        "days": privacy.CHANGE_EMAIL.max_age.days,
    }


def address_wanted(user):
    return {"user": user, "url": absolute(reverse("accounts:login_link"))}


CONTEXTS = {
    "confirm": confirm,
    "login_link": login_link,
    "already_registered": already_registered,
    "password_reset": password_reset,
    "delete_account": delete_account,
    "change_email": change_email,
    "address_wanted": address_wanted,
}
KINDS = tuple(CONTEXTS)


def context(kind, user, details):
    """The template context of email `kind` to `user`, with a link made now from `details`."""
    return CONTEXTS[kind](user, **details)


def not_needed(kind, user, to):
    """Why an email of `kind` owed to `user` at address `to` would be wrong to send now, or None.

    One asked for at the account's address is not sent once the address has changed (its link
    would open the account from an address that is no longer its own); a confirmation, once the
    address is confirmed (and its mail goes)."""
    if kind != "change_email" and to.lower() != user.email.lower():
        return "the account's address changed since it was asked for"
    if kind == "confirm" and user.email_confirmed and not user.email_trouble:
        return "the address is confirmed already"
    return None
