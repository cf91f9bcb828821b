from django.contrib import admin
from django.urls import include, path

from . import views

urlpatterns = [
    path("", views.home, name="home"),
    path("help/", views.help_page, name="help"),
    path("healthz", views.healthz, name="healthz"),
    path("favicon.ico", views.favicon),
    path("dev/mail/", views.dev_mail, name="dev_mail"),
    path("admin/", admin.site.urls),
    path("accounts/", include("accounts.urls")),
    path("anymail/", include("mail.webhooks")),  # the inbound ones, a bad payload answered 400
    path("anymail/", include("anymail.urls")),
    path("m/", include("mail.urls")),
    path("ladders/", include("ladders.urls")),
    path("events/", include("tournaments.urls")),
    path("", include("games.urls")),  # first of the three: the game page and its poll are asked most
    path("", include("ratings.urls")),  # the player pages
    path("", include("clock.urls")),  # more time, claims, vacations
]
