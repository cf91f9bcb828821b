"""The public player page: thin over ratings.profiles."""

from django.contrib.auth import get_user_model
from django.shortcuts import get_object_or_404, render
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_GET

from ratings import profiles


@require_GET
def player(request, user_id):
    person = get_object_or_404(get_user_model(), pk=user_id, is_active=True)
    context = profiles.profile(person, request.user)
    if context.get("chart"):
        context["chart"] = mark_safe(context["chart"])  # drawn by ratings.chart from numbers and fixed labels
    return render(request, "ratings/player.html", context)
