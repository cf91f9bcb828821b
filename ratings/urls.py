from django.urls import path

from . import views

app_name = "ratings"

urlpatterns = [
    path("players/<int:user_id>/", views.player, name="player"),
    path("leaderboards/", views.leaderboard, name="leaderboards"),
    path("leaderboards/<slug:family>/", views.leaderboard, name="leaderboard"),
]
