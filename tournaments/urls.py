from django.urls import path

from . import views

app_name = "tournaments"

urlpatterns = [
    path("", views.event_list, name="list"),
    path("<slug:slug>/", views.detail, name="detail"),
    path("<slug:slug>/standings.csv", views.standings_csv, name="standings_csv"),
]
