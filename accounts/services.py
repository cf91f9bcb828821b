"""Account operations: sign-up, email confirmation, login links, invitations, profile.

Views parse input, call one of these and render; other apps call ``invite``.
Every emailed link is a token from accounts.tokens, made when mail sends the email
(accounts.emails); every mail sent at someone's request counts against accounts.ratelimit
for its address.
"""

from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme

from . import mail, ratelimit, tokens
from .models import User
from .tokens import InvalidToken  # noqa: F401  (callers catch services.InvalidToken)

PROFILE_FIELDS = (
    "display_name",
    "time_zone",
    "notify",
    "digest_hour",
    "allow_forced_moves",
    "confirm_moves",
    "theme",
    "event_announcements",
    "acknowledge_replies",
    "profile_public",
    "night_start_hour",
    "night_end_hour",
    "standing_plan",
)


class TooManyEmails(Exception):
    """Too many emails went to this address lately; nothing was sent."""

    def __init__(self):
        minutes = ratelimit.window_minutes()
        super().__init__(
            f"Too many emails have been sent to this address recently. Please wait {minutes} minutes and try again."
        )


def normalize_email(email):
    return (email or "").strip().lower()


def local_url(url):
    """``url`` if it is a path on this site, else "" (never redirect elsewhere)."""
    if url and url_has_allowed_host_and_scheme(url, allowed_hosts=None) and url.startswith("/"):
        return url
    return ""


def take_mail_allowance(email):
    """Count one email to ``email`` against its limit; raises TooManyEmails when over."""
    if not ratelimit.take(normalize_email(email)):
        raise TooManyEmails()


# --- Sign-up and email confirmation ---------------------------------------------


def sign_up(*, email, display_name, password, time_zone="UTC"):
    """Create an account (unconfirmed) and email the confirmation link; following it logs in.

    For an address that has an account already, nothing is created: its owner is emailed
    how to log in instead. The caller answers the same either way, so the page never says
    whether an address has an account. Returns the new user, or None.
    """
    email = normalize_email(email)
    try:
        with transaction.atomic():
            user = User.objects.create_user(email, password, display_name=display_name.strip(), time_zone=time_zone)
            try:
                send_confirmation(user)  # owed with the account: both are kept, or neither
            except TooManyEmails:
                pass  # the profile page offers to resend once the window has passed
    except IntegrityError:  # the address has an account
        existing = User.objects.filter(email__iexact=email).first()
        if existing is not None:
            _tell_already_registered(existing)
        return None
    return user


def _tell_already_registered(user):
    try:
        take_mail_allowance(user.email)
    except TooManyEmails:
        return
    mail.owe(user, "already_registered")


def send_confirmation(user):
    """Email ``user`` a link confirming their address (again, after our emails to it failed),
    owed in the caller's transaction. Raises TooManyEmails."""
    if user.email_confirmed and not user.email_trouble:
        return
    take_mail_allowance(user.email)
    mail.owe(user, "confirm")


def check_confirmation(token):
    """The user a confirmation link is for (changes nothing). Raises InvalidToken."""
    user, _ = tokens.read_token(token, tokens.CONFIRM, User.objects.all())
    return user


@transaction.atomic
def confirm_email(token):
    """Mark the address confirmed, and mail to it going again; the link is spent. Raises InvalidToken."""
    user, _ = tokens.read_token(token, tokens.CONFIRM, User.objects.select_for_update())
    user.email_confirmed = True
    user.email_trouble, user.email_trouble_at = User.EmailTrouble.NONE, None
    user.save(update_fields=["email_confirmed", "email_trouble", "email_trouble_at"])
    return user


# --- One-time login links -------------------------------------------------------


def request_login_link(email, next_url=""):
    """Email a one-time login link if ``email`` has an account.

    Says nothing about whether it has: returns None either way. Raises
    TooManyEmails (for any address, known or not) when over the limit.
    """
    email = normalize_email(email)
    take_mail_allowance(email)
    user = User.objects.filter(email__iexact=email, is_active=True).first()
    if user is None:
        return
    mail.owe(user, "login_link", next_url=local_url(next_url))


def check_login_link(token):
    """(user, next_url) for a login link (changes nothing). Raises InvalidToken."""
    user, extra = tokens.read_token(token, tokens.LOGIN, User.objects.filter(is_active=True))
    return user, extra.get("n", "")


@transaction.atomic
def use_login_link(token):
    """Spend a login link: (user, next_url) for the caller to log in. Raises InvalidToken.

    Touching last_login here (under a row lock) makes the link single-use even
    if two requests race. Following an emailed link also proves the address.
    """
    user, extra = tokens.read_token(token, tokens.LOGIN, User.objects.select_for_update().filter(is_active=True))
    user.last_login = timezone.now()
    user.email_confirmed = True
    user.save(update_fields=["last_login", "email_confirmed"])
    return user, extra.get("n", "")


# --- Invitations ----------------------------------------------------------------


def invite(email, invited_by, next_url, *, invited_to="", details=""):
    """The user for ``email``, invited by mail if the address is new here.

    An unknown address gets an account with no usable password and an
    invitation link; following it lets them choose a name and password, then
    logs them in and sends them to ``next_url`` (a path on this site, e.g. the
    game). For an address that already has an account nothing is sent here.
    Raises django.core.exceptions.ValidationError for a malformed address and
    ValueError for a ``next_url`` that is not a local path. ``invited_to`` says to what ("the
    Club ladder"; a game by default) and ``details`` its settings (the clock), for the email.
    """
    email = normalize_email(email)
    validate_email(email)
    if next_url and not local_url(next_url):
        raise ValueError(f"next_url must be a path on this site, not {next_url!r}")
    existing = User.objects.filter(email__iexact=email).first()
    if existing is not None:
        return existing
    user = User.objects.create_user(email, None, display_name=email.split("@")[0][:60])
    mail.owe_invitation(user, invited_by, next_url, invited_to=invited_to, details=details)
    return user


def invitation_context(user, invited_by, next_url, *, invited_to="", details=""):
    """What the invitation email of `user` says, with a fresh link (made when it is sent)."""
    token = tokens.make_token(user, tokens.INVITE, n=next_url or "", i=getattr(invited_by, "pk", None))
    return {
        "user": user,
        "invited_by": invited_by,
        "url": mail.absolute(reverse("accounts:invitation", args=[token])),
        "days": tokens.INVITE.max_age.days,
        "invited_to": invited_to or "a game of cribbage by mail",
        "details": details,
    }


def check_invitation(token):
    """(user, inviter or None) for an invitation link (changes nothing). Raises InvalidToken."""
    user, extra = tokens.read_token(token, tokens.INVITE, User.objects.filter(is_active=True))
    inviter = User.objects.filter(pk=extra.get("i")).first() if extra.get("i") else None
    return user, inviter


@transaction.atomic
def accept_invitation(token, *, display_name, password, time_zone="UTC"):
    """Activate an invited account: name, password, confirmed address.

    Returns (user, next_url) for the caller to log in and redirect. Raises InvalidToken.
    """
    user, extra = tokens.read_token(token, tokens.INVITE, User.objects.select_for_update().filter(is_active=True))
    user.display_name = display_name.strip()
    user.set_password(password)
    user.email_confirmed = True
    user.time_zone = time_zone
    user.save(update_fields=["display_name", "password", "email_confirmed", "time_zone"])
    return user, extra.get("n", "")


# --- Profile --------------------------------------------------------------------


def update_profile(user, **changes):
    """Save the player's preferences (already validated, e.g. by ProfileForm)."""
    unknown = set(changes) - set(PROFILE_FIELDS)
    if unknown:
        raise ValueError(f"not profile fields: {sorted(unknown)}")
    for field, value in changes.items():
        setattr(user, field, value)
    user.save(update_fields=list(changes))
    return user
