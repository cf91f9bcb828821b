"""The public player page and the leaderboards: thin over ratings.profiles and ratings.selectors."""

from django.contrib.auth import get_user_model
from django.core.paginator import InvalidPage, Paginator
from django.http import Http404
from django.shortcuts import get_object_or_404, render
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_GET

from accounts import blocks
from ratings import profiles, selectors
from ratings.models import FAMILY_CHOICES

# The boards, a variant family each (five-card cribbage is rated with the two-player games).
BOARDS = [(family, name) for family, name in FAMILY_CHOICES if family in selectors.FAMILIES]
PER_PAGE = 50


@require_GET
def player(request, user_id):
    person = get_object_or_404(get_user_model(), pk=user_id, is_active=True)
    try:
        context = profiles.profile(person, request.user, request.GET.get("page") or 1)
    except InvalidPage:
        raise Http404("There is no such page of this player's results.") from None
    if request.user.is_authenticated and request.user.pk != person.pk:
        context["can_block"], context["blocked"] = True, blocks.has_blocked(request.user, person)
    if context.get("chart"):
        context["chart"] = mark_safe(context["chart"])  # drawn by ratings.chart from numbers and fixed labels
    return render(request, "ratings/player.html", context)


@require_GET
def leaderboard(request, family="two"):
    names = dict(BOARDS)
    if family not in names:
        raise Http404("There is no such leaderboard.")
    paginator = Paginator(selectors.leaderboard(family), PER_PAGE)
    try:
        page = paginator.page(request.GET.get("page") or 1)
    except InvalidPage:
        raise Http404("There is no such page of the leaderboard.") from None
    return render(
        request,
        "ratings/leaderboard.html",
        {
            "family": family,
            "family_name": names[family],
            "boards": BOARDS,
            "page": page,
            "rows": [(page.start_index() + n, row, row.shown) for n, row in enumerate(page.object_list)],
            "active_days": selectors.ACTIVE_WINDOW.days,
            # The places on the pages before and after, for their links.
            "before": (page.start_index() - PER_PAGE, page.start_index() - 1) if page.has_previous() else None,
            "after": page.end_index() + 1 if page.has_next() else None,
        },
    )
