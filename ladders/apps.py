from django.apps import AppConfig


class LaddersConfig(AppConfig):
    name = "ladders"
    verbose_name = "Club ladders"

    def ready(self):
        from games import event_games
        from ladders import receivers, replies  # noqa: F401  (counts finished ladder games; its reply words)
        from mail import kinds
        from mail.models import OutboundEmail

        from . import notices, presentation

        kinds.register(OutboundEmail.Kind.LADDER, notices.compose)
        event_games.register(presentation.event_game)
