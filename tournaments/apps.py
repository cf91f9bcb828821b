from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Leagues, knockouts, duplicates and club nights"

    def ready(self):
        from mail import kinds, subjects
        from mail.models import OutboundEmail
        from tournaments import night_mail, receivers, replies, selectors  # noqa: F401  (counts finished event games; its address)

        subjects.name_events(selectors.event_name_of_game)
        kinds.register(OutboundEmail.Kind.CLUB_NIGHT, night_mail.compose)
