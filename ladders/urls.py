from django.urls import path

from . import views

app_name = "ladders"

urlpatterns = [
    path("", views.ladder_list, name="list"),
    path("<slug:slug>/", views.ladder_detail, name="detail"),
    path("<slug:slug>/standings.csv", views.standings_csv, name="standings_csv"),
    path("<slug:slug>/season/<int:number>/", views.season, name="season"),
    path("<slug:slug>/join/", views.join, name="join"),
    path("<slug:slug>/challenge/", views.challenge, name="challenge"),
    path("<slug:slug>/challenges/<int:pk>/accept/", views.accept, name="accept"),
    path("<slug:slug>/challenges/<int:pk>/withdraw/", views.withdraw, name="withdraw"),
]
