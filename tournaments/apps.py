from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Leagues, knockouts, duplicates and club nights"

    def ready(self):
        from games import event_games
        from mail import kinds
        from mail.models import OutboundEmail
        from ratings import profiles
        from tournaments import night_mail, receivers, replies, selectors  # noqa: F401  (counts finished event games; its address)

        event_games.register(selectors.event_game)
        kinds.register(OutboundEmail.Kind.CLUB_NIGHT, night_mail.compose)
        profiles.add_section("tournaments/_awards.html", lambda player: {"awards": selectors.awards_of(player)})
