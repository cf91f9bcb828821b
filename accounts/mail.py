"""Announce an account email (accounts never imports mail: mail owes it in its outbox and sends
it after commit, connected to these signals in MailConfig.ready())."""

from django.conf import settings

from . import signals
from .models import User


def owe(user, kind, *, to="", **details):
    """Owe `user` the email of `kind` ("confirm", "login_link", ...) answering what they just
    asked, in the caller's transaction; mail sends it after commit. Its link is made when it is
    sent (`accounts.emails.context`), so no link waits anywhere: `details` are the few plain
    words it is made from (the page to go on to, the new address). `to`: an address other
    than the account's (a new one, confirmed there)."""
    signals.account_email.send(sender=User, kind=kind, user=user, to=to or user.email, details=details)


def owe_invitation(user, invited_by, next_url, *, invited_to="", details=""):
    """Owe `user` (just invited) their invitation, after the caller's transaction commits."""
    signals.invitation_owed.send(
        sender=User, user=user, invited_by=invited_by, next_url=next_url or "", invited_to=invited_to, details=details
    )


def owe_address_changed(user, old_email, new_email):
    """Owe the old address of `user` the news that the account's address is now `new_email`,
    with a link that undoes it, in the caller's transaction."""
    signals.address_changed.send(sender=User, user=user, old_email=old_email, new_email=new_email)


def absolute(path):
    """An absolute link on this site (mail is read far from any request)."""
    return f"{settings.SITE_URL}{path}"
