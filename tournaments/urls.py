from django.urls import path

from . import views

app_name = "tournaments"

urlpatterns = [
    path("", views.event_list, name="list"),
    path("<slug:slug>/", views.detail, name="detail"),
    path("<slug:slug>/enter/", views.enter, name="enter"),
    path("<slug:slug>/withdraw/", views.withdraw, name="withdraw"),
    path("<slug:slug>/standings.csv", views.standings_csv, name="standings_csv"),
]
