"""A player's own data: download it all, delete the account, change the email address.

accounts is under every other app, so it never reads their tables: it asks through
signals (accounts.signals.own_data, account_deleting), which each app that keeps
something about a player answers in its AppConfig.ready().

Deleting an account keeps the games whole: the player's seats, moves and results stay,
so every log still replays (`verify_games`), but the User row is emptied: the name
becomes "a former player", the address one that cannot receive mail, the password
unusable. Every app removes what else it holds (notes, table talk, mail to or from
the address). Nothing is deleted before the player follows the link emailed to them.
"""

import secrets
from datetime import timedelta

from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.contrib.admin.models import LogEntry
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from . import mail, signals, tokens
from .models import Block, StrangerMail, User, Vacation, VacationDay
from .services import TooManyEmails, normalize_email, take_mail_allowance  # noqa: F401

FORMER_PLAYER = "a former player"
DELETE = tokens.Purpose("delete", tokens.CONFIRM.max_age, ("email", "is_active", "password"))
# A change link is spent by the change, and by a new password (an undone change clears it).
CHANGE_EMAIL = tokens.Purpose("change_email", tokens.CONFIRM.max_age, ("email", "password"))
# The old address's link that undoes a change: not spent by another change or a new password
# (whoever took the account could do both), only by the undo itself (the address is back).
UNDO_EMAIL = tokens.Purpose("undo_email", timedelta(days=7), ("is_active",))
PROFILE = (
    "email",
    "display_name",
    "email_confirmed",
    "time_zone",
    "notify",
    "digest_hour",
    "allow_forced_moves",
    "event_announcements",
    "acknowledge_replies",
    "night_start_hour",
    "night_end_hour",
    "standing_plan",
    "date_joined",
    "last_login",
)


class PrivacyError(Exception):
    """A request about one's own data that cannot be done. Nothing was changed."""

    def __init__(self, message):
        super().__init__(message)
        self.message = message


def _iso(value):
    return value.isoformat() if hasattr(value, "isoformat") else value


# --- Download ---------------------------------------------------------------------


def own_data(user):
    """Everything kept about `user`, as one JSON-ready dict (the apps add their parts)."""
    data = {"profile": {name: _iso(getattr(user, name)) for name in PROFILE}}
    data["profile"]["vacation_days_held"] = round(user.vacation_days, 3)
    data["vacations"] = [
        {
            "starts_at": _iso(v.starts_at),
            "ends_at": _iso(v.ends_at),
            "ended_at": _iso(v.ended_at),
            "days": round(v.days, 3),
        }
        for v in Vacation.objects.filter(user=user)
    ]
    data["vacation_days_used_for_me"] = [_iso(d.day) for d in VacationDay.objects.filter(user=user)]
    data["blocked"] = [
        {"player": str(b.blocked), "since": _iso(b.created_at)} for b in Block.objects.filter(blocker=user)
    ]
    for _, part in signals.own_data.send(sender=User, user=user):
        data.update(part or {})
    return data


# --- Deletion -------------------------------------------------------------------------


def request_deletion(user):
    """Email `user` the link that deletes their account. Raises TooManyEmails."""
    take_mail_allowance(user.email)
    mail.owe(user, "delete_account")


def check_deletion(token):
    user, _ = tokens.read_token(token, DELETE, User.objects.all())
    if not user.is_active:
        raise tokens.InvalidToken("used")
    return user


@transaction.atomic
def delete_account(token):
    """Follow a deletion link: the account is emptied for good. Raises InvalidToken (a link
    used already, or expired, or not whole) and then changes nothing."""
    user, _ = tokens.read_token(token, DELETE, User.objects.select_for_update())
    if not user.is_active:
        raise tokens.InvalidToken("used")
    address = user.email
    signals.account_deleting.send(sender=User, user=user, email=address)
    # What the libraries under accounts keep of the address: failed logins, admin history.
    AccessAttempt.objects.filter(username__iexact=address).delete()
    AccessLog.objects.filter(username__iexact=address).delete()
    AccessFailureLog.objects.filter(username__iexact=address).delete()
    LogEntry.objects.filter(object_repr__icontains=address).update(object_repr=FORMER_PLAYER)
    StrangerMail.objects.filter(email__iexact=address).delete()
    Block.objects.filter(blocker=user).delete()
    user.email = f"former-player-{user.pk}-{secrets.token_hex(4)}@deleted.invalid"
    user.display_name = FORMER_PLAYER
    user.email_confirmed = False
    user.is_active = False
    user.is_staff = user.is_superuser = False
    user.notify = User.Notify.NONE
    user.calendar_key = secrets.token_urlsafe(24)
    user.time_zone = "UTC"
    user.last_login = None
    user.set_unusable_password()  # also ends every session of theirs (Django checks the hash)
    user.save()
    user.groups.clear()
    user.user_permissions.clear()
    return user


# --- A new address -----------------------------------------------------------------------


def request_email_change(user, new_email):
    """Email the new address a link that makes it the account's. Raises PrivacyError or
    TooManyEmails; nothing changes until the link is followed.

    The caller has checked that it is the account's owner asking (their password, or a login
    link followed lately). An address another account has is answered as any other (the
    page never says who has an account): its owner is told instead, and no link is sent.
    """
    new_email = normalize_email(new_email)
    try:
        validate_email(new_email)
    except ValidationError:
        raise PrivacyError(f"“{new_email}” is not an email address.") from None
    if new_email == normalize_email(user.email):
        raise PrivacyError("That is already your address.")
    take_mail_allowance(new_email)
    owner = User.objects.filter(email__iexact=new_email).first()
    if owner is not None:
        mail.owe(owner, "address_wanted")
        return
    mail.owe(user, "change_email", to=new_email, new_email=new_email)


@transaction.atomic
def change_email(token):
    """Follow the link sent to the new address: it becomes the account's (and is confirmed),
    and the old address is told, with a link that undoes it (mail's outbox, sent after
    commit). Raises InvalidToken or PrivacyError, and then changes nothing."""
    user, extra = tokens.read_token(token, CHANGE_EMAIL, User.objects.select_for_update().filter(is_active=True))
    new_email = extra.get("e", "")
    if User.objects.filter(email__iexact=new_email).exclude(pk=user.pk).exists():
        raise PrivacyError("Another account has that address now: nothing was changed.")
    old_email = user.email
    mail.owe_address_changed(user, old_email, new_email)  # owed to the old address, before it goes
    user.email, user.email_confirmed = new_email, True
    user.email_trouble, user.email_trouble_at = User.EmailTrouble.NONE, None
    user.save(update_fields=["email", "email_confirmed", "email_trouble", "email_trouble_at"])
    return user, timezone.now()


def undo_context(user, old_email, new_email):
    """What the email to the old address says, with a fresh undo link (made when it is sent)."""
    token = tokens.make_token(user, UNDO_EMAIL, o=old_email)
    return {
        "user": user,
        "old_email": old_email,
        "new_email": new_email,
        "url": mail.absolute(reverse("accounts:undo_email_change", args=[token])),
        "days": UNDO_EMAIL.max_age.days,
    }


def check_undo(token):
    """(user, the old address) for an undo link (changes nothing). Raises InvalidToken."""
    user, extra = tokens.read_token(token, UNDO_EMAIL, User.objects.filter(is_active=True))
    old_email = extra.get("o", "")
    if normalize_email(user.email) == normalize_email(old_email):
        raise tokens.InvalidToken("used")
    return user, old_email


@transaction.atomic
def undo_email_change(token):
    """Follow the old address's link: the address is the account's again, and its password is
    cleared, which ends every session and spends every link sent meanwhile (whoever made the
    change may know the password: the owner sets a new one). Returns the user, for the caller
    to log in. Raises InvalidToken or PrivacyError, and then changes nothing."""
    user, extra = tokens.read_token(token, UNDO_EMAIL, User.objects.select_for_update().filter(is_active=True))
    old_email = normalize_email(extra.get("o", ""))
    if normalize_email(user.email) == old_email:
        raise tokens.InvalidToken("used")
    if User.objects.filter(email__iexact=old_email).exclude(pk=user.pk).exists():
        raise PrivacyError("Another account has that address now: nothing was changed. Write to us for help.")
    user.email, user.email_confirmed = old_email, True
    user.email_trouble, user.email_trouble_at = User.EmailTrouble.NONE, None
    user.set_unusable_password()
    user.save(update_fields=["email", "email_confirmed", "email_trouble", "email_trouble_at", "password"])
    return user
