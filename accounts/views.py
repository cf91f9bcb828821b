"""Account pages. Each parses the request, calls accounts.services and renders.

Links that arrive by email only ever show a page on GET (mail scanners open
links); the state changes on the POST of that page's button.
"""

import json
import time
from datetime import timedelta

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login, logout, update_session_auth_hash
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import SetPasswordForm
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render, resolve_url
from django.urls import reverse, reverse_lazy
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from . import blocks, privacy, ratelimit, services, tokens
from .context_processors import THEME_COOKIE
from .forms import InvitationForm, LoginLinkForm, ProfileForm, ResetForm, SignupForm
from .models import User

BACKEND = "django.contrib.auth.backends.ModelBackend"
# When this session last logged in by an emailed link, and for how long that lets an account
# without a password change its address.
LINK_LOGIN_AT = "accounts.link_login_at"
LINK_LOGIN_FRESH = timedelta(minutes=15)


def _next_or_default(request, url):
    if url and url_has_allowed_host_and_scheme(
        url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return url
    return resolve_url(settings.LOGIN_REDIRECT_URL)


def _bad_link(request, error, kind):
    return render(request, "accounts/bad_link.html", {"reason": error.reason, "kind": kind}, status=400)


def _too_many(request, template, context, error):
    context["form"].add_error(None, str(error))
    return render(request, template, context, status=429)


def _too_many_from_here(request, template, context, scope):
    hours = max(1, ratelimit.client_limit(scope)[1] // 3600)
    context["form"].add_error(
        None, f"Too many requests from your address. Please try again in {hours} hour{'s' if hours > 1 else ''}."
    )
    return render(request, template, context, status=429)


def locked_out(request, original_response=None, credentials=None):
    """django-axes' answer once password logins are paused for an account or an address."""
    return render(
        request,
        "accounts/locked_out.html",
        {
            "failure_limit": settings.AXES_FAILURE_LIMIT,
            "cooloff_minutes": int(settings.AXES_COOLOFF_TIME.total_seconds() // 60),
        },
        status=429,
    )


@require_http_methods(["GET", "POST"])
def signup(request):
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        if not ratelimit.take_for_client("signup", request):
            return _too_many_from_here(request, "accounts/signup.html", {"form": form}, "signup")
        # The same page whether the address is new or has an account (its owner gets an email).
        services.sign_up(
            email=form.cleaned_data["email"],
            display_name=form.cleaned_data["display_name"],
            password=form.cleaned_data["password1"],
            time_zone=form.cleaned_data["time_zone"],
        )
        return render(request, "accounts/signup_sent.html", {"email": form.cleaned_data["email"]})
    return render(request, "accounts/signup.html", {"form": form}, status=400 if form.is_bound else 200)


@require_http_methods(["GET", "POST"])
def confirm_email(request, token):
    try:
        if request.method == "POST":
            user = services.confirm_email(token)
        else:
            user = services.check_confirmation(token)
    except services.InvalidToken as error:
        return _bad_link(request, error, "confirm")
    if request.method == "POST":
        # The link came by email to this address: following it logs in, as a login link does.
        login(request, user, backend=BACKEND)
        messages.success(request, f"Thank you: {user.email} is confirmed.")
        return redirect(settings.LOGIN_REDIRECT_URL)
    return render(request, "accounts/confirm_email.html", {"account": user})


@login_required
@require_POST
def resend_confirmation(request):
    try:
        services.send_confirmation(request.user)
    except services.TooManyEmails as error:
        messages.error(request, str(error))
    else:
        if request.user.email_confirmed and not request.user.email_trouble:
            messages.info(request, "Your email address is already confirmed.")
        else:
            messages.success(request, f"We have sent a new confirmation link to {request.user.email}.")
    return redirect("accounts:profile")


@require_http_methods(["GET", "POST"])
def login_link_request(request):
    form = LoginLinkForm(request.POST or None, initial={"next": request.GET.get("next", "")})
    if request.method == "POST" and form.is_valid():
        if not ratelimit.take_for_client("login_link", request):
            return _too_many_from_here(request, "accounts/login_link_request.html", {"form": form}, "login_link")
        try:
            services.request_login_link(form.cleaned_data["email"], form.cleaned_data["next"])
        except services.TooManyEmails as error:
            return _too_many(request, "accounts/login_link_request.html", {"form": form}, error)
        return redirect("accounts:login_link_sent")
    return render(request, "accounts/login_link_request.html", {"form": form}, status=400 if form.is_bound else 200)


def login_link_sent(request):
    minutes = int(tokens.LOGIN.max_age.total_seconds() // 60)
    return render(request, "accounts/login_link_sent.html", {"minutes": minutes})


@require_http_methods(["GET", "POST"])
def login_link_use(request, token):
    try:
        if request.method == "POST":
            user, next_url = services.use_login_link(token)
        else:
            user, next_url = services.check_login_link(token)
    except services.InvalidToken as error:
        return _bad_link(request, error, "login")
    if request.method == "POST":
        login(request, user, backend=BACKEND)
        request.session[LINK_LOGIN_AT] = time.time()  # proves the address: may change it for a while
        return redirect(_next_or_default(request, next_url))
    return render(request, "accounts/login_link.html", {"account": user})


@require_http_methods(["GET", "POST"])
def invitation(request, token):
    try:
        user, inviter = services.check_invitation(token)
    except services.InvalidToken as error:
        return _bad_link(request, error, "invitation")
    form = InvitationForm(user, request.POST or None, initial={"display_name": user.display_name})
    if request.method == "POST" and form.is_valid():
        try:
            user, next_url = services.accept_invitation(
                token,
                display_name=form.cleaned_data["display_name"],
                password=form.cleaned_data["password1"],
                time_zone=form.cleaned_data["time_zone"],
            )
        except services.InvalidToken as error:
            return _bad_link(request, error, "invitation")
        login(request, user, backend=BACKEND)
        messages.success(request, f"Welcome, {user.display_name}!")
        return redirect(_next_or_default(request, next_url))
    return render(request, "accounts/invitation.html", {"form": form, "account": user, "inviter": inviter})


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


class PasswordChangeView(auth_views.PasswordChangeView):
    """Change the password; an invited player who never set one just sets one."""

    template_name = "registration/password_change_form.html"
    success_url = reverse_lazy("accounts:password_change_done")

    def get_form_class(self):
        if not self.request.user.has_usable_password():
            return SetPasswordForm
        return super().get_form_class()

    def form_valid(self, form):
        form.save()
        update_session_auth_hash(self.request, form.user)
        return redirect(self.get_success_url())


class PasswordResetView(auth_views.PasswordResetView):
    template_name = "registration/password_reset_form.html"
    form_class = ResetForm
    success_url = reverse_lazy("accounts:password_reset_done")

    def form_valid(self, form):
        self.extra_email_context = {"site_url": settings.SITE_URL}
        try:
            services.take_mail_allowance(form.cleaned_data["email"])
        except services.TooManyEmails as error:
            return _too_many(
                request=self.request, template=self.template_name, context=self.get_context_data(form=form), error=error
            )
        return super().form_valid(form)


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    success_url = reverse_lazy("accounts:password_reset_complete")

    def dispatch(self, *args, **kwargs):
        response = super().dispatch(*args, **kwargs)
        if not self.validlink and response.status_code == 200:
            response.status_code = 400  # the page says the link is not valid
        return response


# --- One's own data ----------------------------------------------------------------


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
        return _bad_link(request, error, "delete")
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
            return _bad_link(request, error, "change_email")
        return render(request, "accounts/change_email_confirm.html", {"account": account, "new_email": extra.get("e")})
    try:
        account, _ = privacy.change_email(token)
    except tokens.InvalidToken as error:
        return _bad_link(request, error, "change_email")
    except privacy.PrivacyError as error:
        return render(
            request,
            "accounts/bad_link.html",
            {"reason": "taken", "message": error.message, "kind": "change_email"},
            status=400,
        )
    messages.success(request, f"Your address is now {account.email}.")
    return redirect(reverse("accounts:profile") + "#email")


@require_POST
def theme(request):
    """The colours switch in the header: light, dark or as the device is set (auto), kept in a
    cookie for everyone and on the profile of a player who is logged in; back to the page it was on."""
    chosen = request.POST.get("theme", "")
    if chosen not in User.Theme.values:
        return HttpResponse("Choose light, dark or auto.", status=400, content_type="text/plain")
    if request.user.is_authenticated:
        services.update_profile(request.user, theme=chosen)
    response = redirect(_next_or_default(request, request.POST.get("next", "")))
    response.set_cookie(THEME_COOKIE, chosen, max_age=365 * 24 * 3600, samesite="Lax", secure=request.is_secure())
    return response


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
        return _bad_link(request, error, "undo_email")
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
    return redirect(_next_or_default(request, request.POST.get("next", "")))
