from django.urls import path

from . import clock_views

app_name = "clock"

urlpatterns = [
    path("games/<int:game_id>/more-time/", clock_views.more_time, name="more_time"),
    path("games/<int:game_id>/claim/", clock_views.claim, name="claim"),
    path("vacation/start/", clock_views.vacation_start, name="vacation_start"),
    path("vacation/end/", clock_views.vacation_end, name="vacation_end"),
]
