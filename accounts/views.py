"""Getting in: sign-up, confirming the address, login links, invitations, passwords, the lock-out
page. Each parses the request, calls accounts.services and renders. One's own settings are
accounts.profile_views; one's data and address accounts.privacy_views.

Links that arrive by email only ever show a page on GET (mail scanners open
links); the state changes on the POST of that page's button.
"""

import time

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login, update_session_auth_hash
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import SetPasswordForm
from django.shortcuts import redirect, render
from django.urls import reverse_lazy
from django.views.decorators.http import require_http_methods, require_POST

from . import ratelimit, services, tokens
from .forms import InvitationForm, LoginLinkForm, ResetForm, SignupForm
from .pages import BACKEND, LINK_LOGIN_AT, bad_link, next_or_default


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
        return bad_link(request, error, "confirm")
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
        return bad_link(request, error, "login")
    if request.method == "POST":
        login(request, user, backend=BACKEND)
        request.session[LINK_LOGIN_AT] = time.time()  # proves the address: may change it for a while
        return redirect(next_or_default(request, next_url))
    return render(request, "accounts/login_link.html", {"account": user})


@require_http_methods(["GET", "POST"])
def invitation(request, token):
    try:
        user, inviter = services.check_invitation(token)
    except services.InvalidToken as error:
        return bad_link(request, error, "invitation")
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
            return bad_link(request, error, "invitation")
        login(request, user, backend=BACKEND)
        messages.success(request, f"Welcome, {user.display_name}!")
        return redirect(next_or_default(request, next_url))
    return render(request, "accounts/invitation.html", {"form": form, "account": user, "inviter": inviter})


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
