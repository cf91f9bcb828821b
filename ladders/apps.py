from django.apps import AppConfig


class LaddersConfig(AppConfig):
    name = "ladders"
    verbose_name = "Club ladders"

    def ready(self):
        from ladders import receivers  # noqa: F401  (counts finished ladder games)
        from mail import kinds
        from mail.models import OutboundEmail

        from . import notices

        kinds.register(OutboundEmail.Kind.LADDER, notices.compose)
