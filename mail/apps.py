from django.apps import AppConfig


class MailConfig(AppConfig):
    """Play by email: the outbox of every email, the one message builder, move links, replies."""

    name = "mail"
    label = "mail"
    verbose_name = "Play by email"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from accounts import emails
        from games import follow_ups

        from . import (  # noqa: F401  (registers the webhook checks; connects the signals)
            announcements,
            challenge_replies,
            checks,
            composers,
            event_replies,
            game_replies,
            inbound,
            kinds,
            outbox,
            receivers,
            reception,
            service_replies,
            services,
            tasks,
        )
        from .game_replies import answer_word
        from .models import OutboundEmail
        from .my_games import games_word, standing_plan_word

        answer_word("standing_plan", standing_plan_word)
        answer_word("games", games_word)

        # The outbox and the stored replies are their own durable rows: queued after commit and
        # swept by games.follow_ups like every after-commit work, each with its own task.
        follow_ups.register_queue(
            outbox.QUEUE, task=tasks.send_outbound, due=services.unsent_batch, worth=services.needing_a_task
        )
        follow_ups.register_queue(reception.QUEUE, task=tasks.process_inbound, due=inbound.unread_batch)

        kinds.register(OutboundEmail.Kind.TURN, composers.turn, needed=composers.turn_needed)
        kinds.register(OutboundEmail.Kind.RESULT, composers.result)
        kinds.register(OutboundEmail.Kind.CHALLENGE, composers.challenge_notice, even_without_email_on=True)
        kinds.register(OutboundEmail.Kind.INVITATION, composers.invitation, even_without_email_on=True)
        kinds.register(OutboundEmail.Kind.ADDRESS_CHANGED, composers.address_changed, even_without_email_on=True)
        kinds.register(OutboundEmail.Kind.ANNOUNCEMENT, announcements.compose)
        for kind in emails.KINDS:
            kinds.register(OutboundEmail.Kind(kind), composers.asked, needed=composers.asked_needed, asked=True)
        # Answers to what a player wrote (mail.answers): they go whatever the account chose, as asked.
        kinds.register(OutboundEmail.Kind.REPLY_ANSWER, game_replies.compose_answer, asked=True)
        kinds.register(OutboundEmail.Kind.REVIEW, game_replies.compose_review, asked=True)
        kinds.register(OutboundEmail.Kind.SERVICE_ANSWER, service_replies.compose_answer, asked=True)
        kinds.register(OutboundEmail.Kind.CHALLENGE_ANSWER, challenge_replies.compose_answer, asked=True)
        kinds.register(OutboundEmail.Kind.EVENT_ANSWER, event_replies.compose_answer, asked=True)
