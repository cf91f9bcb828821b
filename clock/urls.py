from django.urls import path

from . import views

app_name = "clock"

urlpatterns = [
    path("games/<int:game_id>/more-time/", views.more_time, name="more_time"),
    path("games/<int:game_id>/claim/", views.claim, name="claim"),
    path("vacation/start/", views.vacation_start, name="vacation_start"),
    path("vacation/end/", views.vacation_end, name="vacation_end"),
    path("calendar/<str:key>.ics", views.calendar_feed, name="calendar_feed"),
    path("calendar/new-address/", views.calendar_new_key, name="calendar_new_key"),
]
