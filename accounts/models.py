import zoneinfo

from django.contrib.auth.models import AbstractBaseUser, BaseUserManager, PermissionsMixin
from django.db import models
from django.utils import timezone

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

    email = models.EmailField("email address", unique=True)
    display_name = models.CharField(max_length=60)
    email_confirmed = models.BooleanField(default=False)
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
    def zone(self):
        return zoneinfo.ZoneInfo(self.time_zone)
