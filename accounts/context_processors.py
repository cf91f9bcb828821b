"""What every page's frame needs from the player: the colours they chose."""

from .models import User

THEME_COOKIE = "theme"


def theme(request):
    """{{ theme }}: "light", "dark" or "auto" (as the device is set): the player's choice, else the cookie's."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return {"theme": user.theme}
    chosen = request.COOKIES.get(THEME_COOKIE, "")
    return {"theme": chosen if chosen in User.Theme.values else User.Theme.AUTO}
