from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self):
        from accounts.signals import account_deleting, own_data
        from games import receivers  # noqa: F401  (connects the move's follow-ups)

        from . import computer, follow_ups, reviews, signals, tasks, timestamps
        from . import own_data as games_own_data

        timestamps.connect()  # timestamps read by psycopg's C loader where it reads them as Django does

        follow_ups.register_queue(follow_ups.FOLLOW_UPS, task=tasks.drain, due=follow_ups.due)
        signals.computer_turn.listen("games.computer", computer.play_turn)
        signals.game_finished.listen(reviews.LISTENER, reviews.prepare)  # the review, worked out by the worker

        own_data.connect(games_own_data.own_data, dispatch_uid="games.own_data")
        account_deleting.connect(games_own_data.account_deleting, dispatch_uid="games.account_deleting")
