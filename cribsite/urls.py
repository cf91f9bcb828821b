from django.contrib import admin
from django.urls import include, path

from . import views

urlpatterns = [
    path("", views.home, name="home"),
    path("help/", views.help_page, name="help"),
    path("healthz", views.healthz, name="healthz"),
    path("favicon.ico", views.favicon),
    path("dev/mail/", views.dev_mail, name="dev_mail"),
    # The game page and its poll are asked most: their patterns come before the includes named by
    # a prefix, each of which answered the poll's address with a Resolver404 raised and caught
    # (20 µs of its 33 to resolve). The pages below pay some 8 µs for the games' patterns tried first.
    path("", include("games.urls")),
    path("admin/", admin.site.urls),
    path("accounts/", include("accounts.urls")),
    path("anymail/", include("mail.webhooks")),  # the inbound ones, a bad payload answered 400
    path("anymail/", include("anymail.urls")),
    path("m/", include("mail.urls")),
    path("ladders/", include("ladders.urls")),
    path("events/", include("tournaments.urls")),
    path("", include("ratings.urls")),  # the player pages
    path("", include("clock.urls")),  # more time, claims, vacations
]
