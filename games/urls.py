from django.urls import path

from .views import calculator, challenges, lobby, play, talk

app_name = "games"

urlpatterns = [
    # First: the game page's poll, asked by every open page every 15 s; each pattern tried before
    # it is a regular expression searched in vain (resolving it took 39 µs seventh, 21 µs first).
    path("games/<int:game_id>/state.json", play.state, name="state"),
    path("calculator/", calculator.calculator, name="calculator"),
    path("games/", lobby.my_games, name="my_games"),
    path("practice/", lobby.practice, name="practice"),
    path("games/<int:game_id>/", play.game, name="game"),
    path("games/<int:game_id>/move/", play.move, name="move"),
    path("games/<int:game_id>/plan/", play.plan, name="plan"),
    path("games/<int:game_id>/review.json", play.review_state, name="review_state"),
    path("games/<int:game_id>/record/", play.record, name="record"),
    path("games/<int:game_id>/rematch/", challenges.rematch, name="rematch"),
    path("games/<int:game_id>/record.txt", play.record_download, {"fmt": "txt"}, name="record_txt"),
    path("games/<int:game_id>/record.json", play.record_download, {"fmt": "json"}, name="record_json"),
    path("games/<int:game_id>/note/", talk.note, name="note"),
    path("games/<int:game_id>/say/", talk.say, name="say"),
    path("games/<int:game_id>/mute/<int:user_id>/", talk.mute, name="mute"),
    path("games/<int:game_id>/report/<int:message_id>/", talk.report, name="report"),
    path("challenges/new/", challenges.new_challenge, name="new_challenge"),
    path("challenges/<int:challenge_id>/", challenges.challenge, name="challenge"),
    path("challenges/<int:challenge_id>/accept/", challenges.accept, name="challenge_accept"),
    path("challenges/<int:challenge_id>/decline/", challenges.decline, name="challenge_decline"),
    path("challenges/<int:challenge_id>/cancel/", challenges.cancel, name="challenge_cancel"),
    path("seeks/", challenges.seeks, name="seeks"),
]
