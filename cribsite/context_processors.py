"""What the header needs on every page: which of its sections the page belongs to."""

# The header's sections by the URL's namespace, or by namespace:name where one app's pages
# belong to two (the seeks are the community's, the other challenges are play).
_SECTIONS = {
    "games:my_games": "my-games",
    "games:game": "my-games",
    "games:record": "my-games",
    "games:seeks": "community",
    "ladders": "community",
    "tournaments": "community",
    "ratings": "community",
    "games": "play",
    "help": "help",
    "accounts:profile": "me",
}


def nav(request):
    """{{ nav_section }}: "play", "my-games", "community", "help", "me" or ""."""
    match = getattr(request, "resolver_match", None)
    if match is None:
        return {"nav_section": ""}
    name = f"{match.namespace}:{match.url_name}" if match.namespace else match.url_name or ""
    return {"nav_section": _SECTIONS.get(name) or _SECTIONS.get(match.namespace, "")}
