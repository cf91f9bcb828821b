from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = "Ratings"

    def ready(self):
        from accounts.signals import own_data
        from ratings import receivers  # noqa: F401  (rates finished games)

        from . import own_data as ratings_own_data

        own_data.connect(ratings_own_data.own_data, dispatch_uid="ratings.own_data")
