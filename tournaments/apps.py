from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Leagues, knockouts and duplicate events"

    def ready(self):
        from mail import subjects
        from tournaments import receivers, replies, selectors  # noqa: F401  (counts finished event games; its address)

        subjects.name_events(selectors.event_name_of_game)
