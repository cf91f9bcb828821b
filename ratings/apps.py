from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = "Ratings"

    def ready(self):
        from ratings import receivers  # noqa: F401  (rates finished games)
