"""The player's own settings: the profile's preferences, the colours switch, blocking a player.
Each parses the request, calls accounts.services (or accounts.blocks) and renders."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from . import blocks, services
from .context_processors import THEME_COOKIE
from .forms import ProfileForm
from .models import User
from .pages import next_or_default


@login_required
@require_http_methods(["GET", "POST"])
def profile(request):
    # Bind to a fresh copy so a rejected form never alters request.user.
    form = ProfileForm(request.POST or None, instance=User.objects.get(pk=request.user.pk))
    if request.method == "POST":
        if form.is_valid():
            services.update_profile(
                request.user,
                **{name: form.cleaned_data[name] for name in services.PROFILE_FIELDS if name in form.cleaned_data},
            )
            messages.success(request, "Your profile is saved.")
            return redirect("accounts:profile")
        messages.error(request, "Nothing was saved: please correct the fields marked below.")
    return profile_page(request, form, status=400 if form.is_bound else 200)


def profile_page(request, form=None, status=200):
    """The profile page (`form`: the profile form as sent; by default the profile as saved), also
    the page a refused action from it (a vacation) answers with, its `status` a 4xx."""
    if form is None:
        form = ProfileForm(instance=User.objects.get(pk=request.user.pk))
    return render(
        request, "accounts/profile.html", {"form": form, "blocked": blocks.blocked_list(request.user)}, status=status
    )


@require_POST
def theme(request):
    """The colours switch in the header: light, dark or as the device is set (auto), kept in a
    cookie for everyone and on the profile of a player who is logged in; back to the page it was on."""
    chosen = request.POST.get("theme", "")
    if chosen not in User.Theme.values:
        return HttpResponse("Choose light, dark or auto.", status=400, content_type="text/plain")
    if request.user.is_authenticated:
        services.update_profile(request.user, theme=chosen)
    response = redirect(next_or_default(request, request.POST.get("next", "")))
    response.set_cookie(THEME_COOKIE, chosen, max_age=365 * 24 * 3600, samesite="Lax", secure=request.is_secure())
    return response


@login_required
@require_POST
def block(request, user_id):
    """Block a player (from their page), or unblock them (`unblock` in the form, from their page or
    the profile's list); back to the page it came from. The blocked player is never told."""
    other = get_object_or_404(User, pk=user_id)
    if request.POST.get("unblock"):
        blocks.unblock(request.user, other)
        messages.success(request, f"You have unblocked {other}: they may challenge you again.")
    else:
        try:
            blocks.block(request.user, other)
        except blocks.BlockError as error:
            return HttpResponse(error.message, status=400, content_type="text/plain")
        messages.success(
            request,
            f"You have blocked {other}: they cannot challenge you or sit at a table with you, and you no longer "
            "see what they say at a table. They are not told. Unblock them here or on your profile.",
        )
    return redirect(next_or_default(request, request.POST.get("next", "")))
