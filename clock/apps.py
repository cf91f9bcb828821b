from django.apps import AppConfig


class ClockConfig(AppConfig):
    """Slow games: deadlines, pauses, reminders, more time, vacation, timeouts, claims, digests."""

    name = "clock"
    verbose_name = "Clock"

    def ready(self):
        from clock import receivers, replies  # noqa: F401  (turn deadlines; "more time" and "claim" by reply)
        from mail import kinds

        from . import emails

        for kind, compose in emails.COMPOSERS.items():
            kinds.register(kind, compose)
