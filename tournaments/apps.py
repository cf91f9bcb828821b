from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Leagues, knockouts and duplicate events"

    def ready(self):
        from tournaments import receivers, replies  # noqa: F401  (counts finished event games; its address)
