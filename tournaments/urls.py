from django.urls import path

from . import views

app_name = "tournaments"

urlpatterns = [
    path("", views.event_list, name="list"),
    path("<slug:slug>/", views.detail, name="detail"),
    path("<slug:slug>/enter/", views.enter, name="enter"),
    path("<slug:slug>/withdraw/", views.withdraw, name="withdraw"),
    path("<slug:slug>/standings.csv", views.standings_csv, name="standings_csv"),
    path("<slug:slug>/round/<int:number>/hands/", views.round_hands, name="round_hands"),
    path("<slug:slug>/report/", views.report, name="report"),
    path("<slug:slug>/report/<int:pk>/confirm/", views.answer_report, {"answer": "confirm"}, name="confirm_report"),
    path("<slug:slug>/report/<int:pk>/dispute/", views.answer_report, {"answer": "dispute"}, name="dispute_report"),
]
