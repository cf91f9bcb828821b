from django.apps import AppConfig


class ClockConfig(AppConfig):
    """Slow games: deadlines, pauses, reminders, more time, vacation, timeouts, claims, digests."""

    name = "clock"
    verbose_name = "Clock"
