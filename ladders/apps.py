from django.apps import AppConfig


class LaddersConfig(AppConfig):
    name = "ladders"
    verbose_name = "Club ladders"

    def ready(self):
        from ladders import receivers, replies  # noqa: F401  (counts finished ladder games; its reply words)
        from mail import kinds
        from mail.models import OutboundEmail

        from . import notices

        kinds.register(OutboundEmail.Kind.LADDER, notices.compose)
