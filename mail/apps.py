from django.apps import AppConfig


class MailConfig(AppConfig):
    """Play by email: the outbox of every email, the one message builder, move links, replies."""

    name = "mail"
    label = "mail"
    verbose_name = "Play by email"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from . import announcements, checks, composers, kinds, receivers  # noqa: F401  (registers the webhook checks; connects the signals)
        from .game_replies import answer_word
        from .models import OutboundEmail
        from .my_games import games_word, standing_plan_word

        answer_word("standing_plan", standing_plan_word)
        answer_word("games", games_word)

        kinds.register(OutboundEmail.Kind.TURN, composers.turn, needed=composers.turn_needed)
        kinds.register(OutboundEmail.Kind.RESULT, composers.result)
        kinds.register(OutboundEmail.Kind.CHALLENGE, composers.challenge_notice, even_without_email_on=True)
        kinds.register(OutboundEmail.Kind.INVITATION, composers.invitation, even_without_email_on=True)
        kinds.register(OutboundEmail.Kind.ANNOUNCEMENT, announcements.compose)
