import zoneinfo
from datetime import UTC

from django.contrib.auth.models import AbstractBaseUser, BaseUserManager, PermissionsMixin
from django.db import models
from django.utils import timezone

DAY_SECONDS = 86400
TIME_ZONE_CHOICES = [(name, name) for name in sorted(zoneinfo.available_timezones())]


class UserManager(BaseUserManager):
    use_in_migrations = True

    def _create_user(self, email, password, **extra):
        if not email:
            raise ValueError("An email address is required.")
        user = self.model(email=self.normalize_email(email).lower(), **extra)
        user.set_password(password)
        user.save(using=self._db)
        return user

    def create_user(self, email, password=None, **extra):
        extra.setdefault("is_staff", False)
        extra.setdefault("is_superuser", False)
        return self._create_user(email, password, **extra)

    def create_superuser(self, email, password=None, **extra):
        extra.update(is_staff=True, is_superuser=True, email_confirmed=True)
        return self._create_user(email, password, **extra)

    def get_by_natural_key(self, email):
        return self.get(email__iexact=email)


class User(AbstractBaseUser, PermissionsMixin):
    """A player. The email address is the login and where turns are sent."""

    class Notify(models.TextChoices):
        EVERY_TURN = "every_turn", "An email on every turn"
        DIGEST = "digest", "One daily digest of the games waiting for me"
        NONE = "none", "No email"

    class ConfirmMoves(models.TextChoices):
        TOUCH = "touch", "On a touch screen: a tapped card is chosen, a second tap (or the button) plays it"
        ALWAYS = "always", "Always: choose a card, then confirm it"
        NEVER = "never", "Never: a card plays as soon as it is clicked"

    class Theme(models.TextChoices):
        AUTO = "auto", "As my device is set"
        LIGHT = "light", "Light"
        DARK = "dark", "Dark"

    class EmailTrouble(models.TextChoices):
        NONE = "", "None"
        UNDELIVERED = "undelivered", "Our emails kept failing for days"
        REFUSED = "refused", "The address was refused (a hard bounce)"
        COMPLAINED = "complained", "The player reported our email as spam"

    email = models.EmailField("email address", unique=True)
    display_name = models.CharField(max_length=60)
    email_confirmed = models.BooleanField(default=False)
    # Set by mail's delivery (mail.delivery); cleared when the player confirms the address again,
    # and an UNDELIVERED one also by the next email that goes through.
    email_trouble = models.CharField(max_length=16, choices=EmailTrouble.choices, default="", blank=True)
    email_trouble_at = models.DateTimeField(null=True, blank=True)
    time_zone = models.CharField(max_length=64, choices=TIME_ZONE_CHOICES, default="UTC")
    notify = models.CharField(max_length=16, choices=Notify.choices, default=Notify.EVERY_TURN)
    digest_hour = models.PositiveSmallIntegerField(
        default=8, help_text="Hour of the day (in your time zone) for the daily digest."
    )
    allow_forced_moves = models.BooleanField(
        "play forced moves for me",
        default=True,
        help_text="When only one card can be played, play it without asking.",
    )
    confirm_moves = models.CharField(
        "confirm moves",
        max_length=8,
        choices=ConfirmMoves.choices,
        default=ConfirmMoves.TOUCH,
        help_text="A mis-tap can cost a game that lasts weeks: with this on, a card on the game page is "
        "first chosen, then played.",
    )
    theme = models.CharField("colours", max_length=8, choices=Theme.choices, default=Theme.AUTO)
    event_announcements = models.BooleanField(
        "news from my events' organisers",
        default=True,
        help_text="Emails an organiser writes to everyone in a ladder or other event you entered. "
        "Turning them off changes no other email.",
    )
    acknowledge_replies = models.BooleanField(
        "answer a reply that made a move",
        default=False,
        help_text="A short email saying what your reply did. Off, your inbox stays quiet: "
        "the next email about the game says what happened.",
    )
    profile_public = models.BooleanField(
        "show my player page to everyone",
        default=True,
        help_text="Your games, results, ratings and show figures on your player page. Off: it shows only your name.",
    )
    # A pegging plan for every hand (games.cribbage.plans: rules that name no card, e.g.
    # [{"rule": "score_first"}, {"rule": "low_first"}]), set for each seat at each deal.
    standing_plan = models.JSONField(
        "my plan for every hand",
        default=list,
        blank=True,
        help_text="Rules that play your cards in every hand's play; a hand's own plan replaces it for that hand.",
    )
    # Night hours (the clock may stop then, if a game says so) and vacation (see games/vacation.py).
    night_start_hour = models.PositiveSmallIntegerField(
        default=23, help_text="Your night starts at this hour (your time zone)."
    )
    night_end_hour = models.PositiveSmallIntegerField(
        default=7, help_text="Your night ends at this hour (your time zone)."
    )
    vacation_seconds = models.PositiveIntegerField(
        default=7 * DAY_SECONDS, help_text="Vacation held at vacation_days_at, in seconds (a day is 86400)."
    )
    vacation_days_at = models.DateTimeField(default=timezone.now)
    away_until = models.DateTimeField(null=True, blank=True, help_text="On vacation until then.")
    calendar_key = models.CharField(
        max_length=64, blank=True, help_text="Changed to give the calendar feed of deadlines a new address."
    )
    is_active = models.BooleanField(default=True)
    is_staff = models.BooleanField(default=False)
    date_joined = models.DateTimeField(default=timezone.now)

    objects = UserManager()

    USERNAME_FIELD = "email"
    EMAIL_FIELD = "email"
    REQUIRED_FIELDS = ["display_name"]

    class Meta:
        ordering = ["display_name"]

    def __str__(self):
        return self.display_name or self.email

    def get_full_name(self):
        return self.display_name

    def get_short_name(self):
        return self.display_name

    @property
    def wants_email(self):
        """Any email at all (turns, the digest, results, notices): not for a closed account, "no email",
        or an address that bounced or complained until it is confirmed again."""
        return self.is_active and bool(self.email) and self.notify != self.Notify.NONE and not self.email_stopped

    @property
    def email_stopped(self):
        """The provider reported a hard bounce or a complaint: no mail until the address is confirmed again."""
        return self.email_trouble in (self.EmailTrouble.REFUSED, self.EmailTrouble.COMPLAINED)

    @property
    def vacation_days(self):
        """The vacation held at vacation_days_at, in days (a fraction grows day by day)."""
        return self.vacation_seconds / DAY_SECONDS

    @vacation_days.setter
    def vacation_days(self, days):
        self.vacation_seconds = round(days * DAY_SECONDS)

    @property
    def zone(self):
        """The player's time zone; UTC if the name stored is not one this machine knows."""
        try:
            return zoneinfo.ZoneInfo(self.time_zone)
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            return UTC


class Vacation(models.Model):
    """A time away: the player's clocks are paused from `starts_at` until it ends.

    Its days are taken from the allowance when it starts; ending it early gives
    back the days not used. At most one vacation per player is under way.
    """

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="vacations")
    starts_at = models.DateTimeField(default=timezone.now)
    ends_at = models.DateTimeField(help_text="When it ends by itself.")
    ended_at = models.DateTimeField(null=True, blank=True)
    seconds = models.PositiveIntegerField(help_text="Vacation taken from the allowance, in seconds.")

    class Meta:
        ordering = ["-starts_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["user"], condition=models.Q(ended_at__isnull=True), name="one_vacation_under_way"
            ),
        ]
        indexes = [
            models.Index(fields=["ends_at"], condition=models.Q(ended_at__isnull=True), name="vacation_open_end_idx")
        ]

    def __str__(self):
        return f"{self.user}: {self.starts_at:%Y-%m-%d} to {self.ends_at:%Y-%m-%d}"

    @property
    def days(self):
        return self.seconds / DAY_SECONDS


class VacationDay(models.Model):
    """A vacation day the timeout sweep spent for `user` on their local `day`: charged once, it
    covers every game of theirs whose time runs out that day (clock.vacation.spend_day_instead)."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="vacation_days_spent")
    day = models.DateField()
    spent_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-day"]
        constraints = [models.UniqueConstraint(fields=["user", "day"], name="one_vacation_day_per_day")]

    def __str__(self):
        return f"{self.user}: {self.day:%Y-%m-%d}"


class DigestSent(models.Model):
    """The daily digest went (or is going) to `user` for their local `day`: once a day, whatever runs twice."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="+")
    day = models.DateField()
    games = models.PositiveSmallIntegerField(default=0)
    sent_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = "digest sent"
        verbose_name_plural = "digests sent"
        constraints = [models.UniqueConstraint(fields=["user", "day"], name="one_digest_per_day")]


class StrangerMail(models.Model):
    """An email owed to an address no member has confirmed (an invitation, a challenge, an event's
    notice), whoever caused it: counted against the address's daily allowance (accounts.strangers)."""

    email = models.EmailField()
    kind = models.CharField(max_length=32)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = "email to a stranger"
        verbose_name_plural = "emails to strangers"
        indexes = [models.Index(fields=["email", "created_at"])]

    def __str__(self):
        return f"{self.kind} to {self.email} at {self.created_at:%Y-%m-%d %H:%M}"


class Block(models.Model):
    """`blocker` will not play or talk with `blocked`: no challenge, no seat at one table, none of
    their table talk (accounts.blocks). The blocked player is never told."""

    blocker = models.ForeignKey(User, on_delete=models.CASCADE, related_name="blocks")
    blocked = models.ForeignKey(User, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at"]
        constraints = [models.UniqueConstraint(fields=["blocker", "blocked"], name="one_block_per_pair")]

    def __str__(self):
        return f"{self.blocker} blocks {self.blocked}"
