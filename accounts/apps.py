from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = "Players"

    def ready(self):
        from django.contrib.auth.signals import user_logged_in

        from . import checks  # noqa: F401  (registers the SECRET_KEY check)
        from .signals import remind_unconfirmed

        user_logged_in.connect(remind_unconfirmed, dispatch_uid="accounts.remind_unconfirmed")
