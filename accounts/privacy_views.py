"""One's own data and address: the data as a download, deleting the account, changing the email
address and undoing a change from the old address. Each calls accounts.privacy and renders.

Links that arrive by email only ever show a page on GET (mail scanners open
links); the state changes on the POST of that page's button.
"""

import json
import time

from django.contrib import messages
from django.contrib.auth import login, logout
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from . import privacy, ratelimit, services, tokens
from .models import User
from .pages import BACKEND, LINK_LOGIN_AT, LINK_LOGIN_FRESH, bad_link


@login_required
@require_GET
def own_data(request):
    """Everything about me, as a JSON download."""
    body = json.dumps(privacy.own_data(request.user), indent=2, ensure_ascii=False, default=str)
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="cribbage-my-data.json"'
    return response


@login_required
@require_POST
def delete_request(request):
    try:
        privacy.request_deletion(request.user)
    except services.TooManyEmails as error:
        messages.error(request, str(error))
    else:
        messages.success(
            request,
            f"We sent a link to {request.user.email}: your account is deleted once you "
            f"follow it. Nothing has changed yet.",
        )
    return redirect(reverse("accounts:profile") + "#own-data")


@require_http_methods(["GET", "POST"])
def delete_confirm(request, token):
    try:
        account = privacy.check_deletion(token) if request.method == "GET" else privacy.delete_account(token)
    except tokens.InvalidToken as error:
        return bad_link(request, error, "delete")
    if request.method == "GET":
        return render(request, "accounts/delete_confirm.html", {"account": account})
    logout(request)
    return render(request, "accounts/deleted.html")


def _logged_in_by_link_lately(request):
    at = request.session.get(LINK_LOGIN_AT)
    return at is not None and time.time() - at <= LINK_LOGIN_FRESH.total_seconds()


@login_required
@require_POST
def change_email_request(request):
    """A new address asks who is asking: the password, or, for an account without one, a login
    link followed lately (one is sent to the address now). A borrowed session alone changes
    nothing."""
    back = redirect(reverse("accounts:profile") + "#email")
    user = request.user
    if user.has_usable_password():
        if not ratelimit.take_password_try(user):
            messages.error(request, "Too many passwords tried: nothing was changed. Please try again in an hour.")
            return back
        if not user.check_password(request.POST.get("password", "")):
            messages.error(request, "That is not your password: nothing was changed.")
            return back
    elif not _logged_in_by_link_lately(request):
        try:
            services.request_login_link(user.email, reverse("accounts:profile") + "#email")
        except services.TooManyEmails as error:
            messages.error(request, str(error))
        else:
            minutes = int(LINK_LOGIN_FRESH.total_seconds() // 60)
            messages.info(
                request,
                f"To change your address, first follow the login link we sent to {user.email}, "
                f"then change it within {minutes} minutes. Nothing has changed yet.",
            )
        return back
    try:
        privacy.request_email_change(user, request.POST.get("email", ""))
    except privacy.PrivacyError as error:
        messages.error(request, error.message)
    except services.TooManyEmails as error:
        messages.error(request, str(error))
    else:
        # The same words for an address another account has (its owner is told instead).
        messages.success(request, "We sent a link to the new address: it becomes yours once you follow it.")
    return back


@require_http_methods(["GET", "POST"])
def change_email_confirm(request, token):
    if request.method == "GET":
        try:
            account, extra = tokens.read_token(token, privacy.CHANGE_EMAIL, User.objects.filter(is_active=True))
        except tokens.InvalidToken as error:
            return bad_link(request, error, "change_email")
        return render(request, "accounts/change_email_confirm.html", {"account": account, "new_email": extra.get("e")})
    try:
        account, _ = privacy.change_email(token)
    except tokens.InvalidToken as error:
        return bad_link(request, error, "change_email")
    except privacy.PrivacyError as error:
        return render(
            request,
            "accounts/bad_link.html",
            {"reason": "taken", "message": error.message, "kind": "change_email"},
            status=400,
        )
    messages.success(request, f"Your address is now {account.email}.")
    return redirect(reverse("accounts:profile") + "#email")


@require_http_methods(["GET", "POST"])
def undo_email_change(request, token):
    """The old address's link: the address is the account's again, every session ends (the
    password is cleared), and this browser is logged in to set a new password."""
    try:
        if request.method == "GET":
            account, old_email = privacy.check_undo(token)
            return render(request, "accounts/undo_email_change.html", {"account": account, "old_email": old_email})
        account = privacy.undo_email_change(token)
    except tokens.InvalidToken as error:
        return bad_link(request, error, "undo_email")
    except privacy.PrivacyError as error:
        return render(
            request, "accounts/bad_link.html", {"reason": "taken", "message": error.message, "kind": "undo_email"}, 400
        )
    login(request, account, backend=BACKEND)
    messages.success(
        request,
        f"Your address is {account.email} again, and every other session is logged out. "
        "Choose a new password now: whoever changed your address may know the old one.",
    )
    return redirect("accounts:password_change")
