from django.apps import AppConfig


class MailConfig(AppConfig):
    """Play by email: turn emails (outbox), move links, replies (inbound)."""

    name = "mail"
    label = "mail"
    verbose_name = "Play by email"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from . import checks, receivers  # noqa: F401  (the webhook checks; inbound webhooks; the emails a move owes)
