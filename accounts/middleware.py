from django.utils import timezone
from django.utils.cache import patch_cache_control

# A page reached by a secret in its address (an emailed link's token, a calendar's key) is the
# page of the one person who was sent it, whoever opens it.
SECRET_ARGUMENTS = ("token", "key")


class UserTimezoneMiddleware:
    """Show times in the signed-in player's own time zone: activated before the view, for every
    view but those marked `shows_no_time` (reading the zone reads the player)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        timezone.deactivate()  # nothing kept from the thread's last request
        return self.get_response(request)

    def process_view(self, request, view, args, kwargs):
        if getattr(view, "shows_no_time", False):
            return
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            timezone.activate(user.zone)


def shows_no_time(view):
    """Marks a view whose answer shows no time: its player's time zone is not activated, so a
    view that needs only who its player is (the game's poll) need not read the player."""
    view.shows_no_time = True
    return view


class PrivatePages:
    """A page for one player (they are logged in, or came by a link or key only they were sent)
    is never kept by a browser or a shared cache: `Cache-Control: private, no-store`, so a
    hand, a profile or one's data cannot be read back from a shared computer's cache or a
    proxy. A view that sets its own Cache-Control keeps it (the game's poll, kept to be
    revalidated by its ETag, is `private, no-cache`)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if not response.has_header("Cache-Control") and is_private(request):
            patch_cache_control(response, private=True, no_store=True)
        return response


def is_private(request):
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return True
    match = getattr(request, "resolver_match", None)
    return match is not None and any(name in match.kwargs for name in SECRET_ARGUMENTS)
