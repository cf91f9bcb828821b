"""Times are shown in the signed-in player's zone (accounts.middleware.UserTimezoneMiddleware),
activated before each view but one marked `shows_no_time`, which need not read the player."""

import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import RequestFactory
from django.utils import timezone
from django.utils.functional import SimpleLazyObject

from accounts.middleware import UserTimezoneMiddleware, shows_no_time
from tests.factories import make_user

pytestmark = pytest.mark.django_db


def zone_seen_by(view, user):
    """The time zone `view` runs in for a request by `user`, through the middleware."""
    middleware = UserTimezoneMiddleware(lambda request: middleware.process_view(request, view, (), {}) or view(request))
    request = RequestFactory().get("/")
    request.user = user
    return middleware(request)


def current_zone(request):
    return timezone.get_current_timezone_name()


def test_a_view_runs_in_its_players_zone_and_a_logged_out_one_in_the_sites():
    assert zone_seen_by(current_zone, make_user(time_zone="Asia/Tokyo")) == "Asia/Tokyo"
    assert zone_seen_by(current_zone, AnonymousUser()) == "UTC"  # nothing kept from the last request


def test_a_view_that_shows_no_time_does_not_read_the_player():
    def unread():
        raise AssertionError("the player was read")

    @shows_no_time
    def poll(request):
        return current_zone(request)

    timezone.activate("Asia/Tokyo")  # as a thread's last request may have left it
    assert zone_seen_by(poll, SimpleLazyObject(unread)) == "UTC"
