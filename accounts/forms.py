from django import forms
from django.contrib.auth.forms import BaseUserCreationForm, PasswordResetForm, SetPasswordMixin

from games.cribbage import PlanProblem, read_standing_plan, standing_plan_words

from . import mail, zones
from .models import User
from .services import PROFILE_FIELDS

TIME_ZONE_HELP = "Deadlines, the daily digest and your night hours are in this time zone."


def time_zone_field(required=True):
    return forms.ChoiceField(
        label="Time zone", choices=zones.grouped_choices, initial="UTC", help_text=TIME_ZONE_HELP, required=required
    )


class ChosenTimeZone:
    """A new player's form: the zone may be left out (UTC, as before it was asked)."""

    def clean_time_zone(self):
        return self.cleaned_data.get("time_zone") or "UTC"


def guess_time_zone(form):
    """Let static/js/time-zone.js choose the browser's zone in this form's select (a player who
    has not chosen one yet: a new account, or the default on a profile never set)."""
    form.fields["time_zone"].widget.attrs["data-guess-zone"] = "browser"


class ResetForm(PasswordResetForm):
    """Django's password reset, its email owed like every other (accounts/email/password_reset.*):
    the link Django made here is not kept; a new one is made when the email is sent."""

    def send_mail(
        self, subject_template_name, email_template_name, context, from_email, to_email, html_email_template_name=None
    ):
        mail.owe(context["user"], "password_reset")


class SignupForm(ChosenTimeZone, BaseUserCreationForm):
    time_zone = time_zone_field(required=False)

    class Meta:
        model = User
        fields = ["email", "display_name", "time_zone"]
        help_texts = {"display_name": "How other players see you."}

    field_order = ["email", "display_name", "password1", "password2", "time_zone"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["email"].widget.attrs["autocomplete"] = "email"
        self.fields["display_name"].widget.attrs["autocomplete"] = "nickname"
        if not self.is_bound:
            guess_time_zone(self)

    def clean_email(self):
        return self.cleaned_data["email"].strip().lower()

    def validate_unique(self):
        """An address in use is not an error on the page (that would tell anyone who has an
        account): accounts.services.sign_up emails its owner instead."""

    def clean_display_name(self):
        return _clean_display_name(self.cleaned_data["display_name"])


def _clean_display_name(value):
    value = " ".join(value.split())
    if not value:
        raise forms.ValidationError("Please choose a display name.")
    return value


class LoginLinkForm(forms.Form):
    email = forms.EmailField(
        label="Email address",
        max_length=254,
        widget=forms.EmailInput(attrs={"autocomplete": "email", "autofocus": True}),
    )
    next = forms.CharField(required=False, widget=forms.HiddenInput)


class InvitationForm(ChosenTimeZone, SetPasswordMixin, forms.Form):
    """An invited player picks the name others see and a password."""

    display_name = forms.CharField(
        max_length=60,
        help_text="How other players see you.",
        widget=forms.TextInput(attrs={"autocomplete": "nickname"}),
    )
    password1, password2 = SetPasswordMixin.create_password_fields()
    time_zone = time_zone_field(required=False)

    def __init__(self, user, *args, **kwargs):
        self.user = user
        super().__init__(*args, **kwargs)
        if not self.is_bound:
            guess_time_zone(self)

    def clean_display_name(self):
        return _clean_display_name(self.cleaned_data["display_name"])

    def clean(self):
        self.validate_passwords()
        self.validate_password_for_user(self.user)
        return super().clean()


DIGEST_HOURS = [(hour, f"{hour:02d}:00") for hour in range(24)]


def night_hour_field(label, help_text):
    """An hour of the player's night, or none."""
    return forms.TypedChoiceField(
        choices=DIGEST_HOURS, coerce=int, required=False, empty_value=None, label=label, help_text=help_text
    )


class ProfileForm(forms.ModelForm):
    """The player's preferences: the fields services.PROFILE_FIELDS names (extend it there)."""

    digest_hour = forms.TypedChoiceField(
        choices=DIGEST_HOURS,
        coerce=int,
        label="Digest hour",
        help_text="When the daily digest is sent, in your time zone.",
    )

    night_start_hour = night_hour_field(
        "My night starts at", "In games that stop the clock at night, yours stops from this hour (your time zone)..."
    )
    night_end_hour = night_hour_field("My night ends at", "...until this hour.")
    time_zone = time_zone_field()
    standing_plan = forms.CharField(
        label="My plan for every hand",
        required=False,
        max_length=100,
        help_text=(
            'Rules that play your cards in every hand, in their order: "score first" (the card that pegs '
            'most, when one pegs), "low first" or "high first" (the lowest or highest card that fits). '
            '"score first, low first" plays every card for you: one email a hand, for the discard. '
            "A plan you give with a discard replaces it for that hand. Empty: none. "
            'By reply to any game email: "plan always score first, low first", "plan always clear".'
        ),
    )
    KEPT_WHEN_UNSENT = ("confirm_moves", "theme")  # set elsewhere too (the colours switch)

    class Meta:
        model = User
        fields = list(PROFILE_FIELDS)
        labels = {"notify": "How to tell me it is my turn", "time_zone": "Time zone"}
        widgets = {"notify": forms.RadioSelect, "confirm_moves": forms.RadioSelect, "theme": forms.RadioSelect}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name in self.KEPT_WHEN_UNSENT:
            self.fields[name].required = False
        if not self.is_bound and self.instance.time_zone == User._meta.get_field("time_zone").default:
            guess_time_zone(self)
        if not self.is_bound:
            self.initial["standing_plan"] = standing_plan_words(self.instance.standing_plan or [])

    def clean_standing_plan(self):
        if self.add_prefix("standing_plan") not in self.data:  # not sent: unchanged
            return self.instance.standing_plan
        words = self.cleaned_data["standing_plan"].strip()
        if words.lower().startswith("plan "):
            words = words[5:]
        try:
            return read_standing_plan(words) if words else []
        except PlanProblem as problem:
            raise forms.ValidationError(problem.reason) from None

    def clean(self):
        cleaned = super().clean()
        for name in ("night_start_hour", "night_end_hour", *self.KEPT_WHEN_UNSENT):  # not sent: unchanged
            if cleaned.get(name) in (None, "") and name not in self.errors:
                cleaned[name] = getattr(self.instance, name)
        start, end = cleaned.get("night_start_hour"), cleaned.get("night_end_hour")
        if start is not None and end is not None and (end - start) % 24 > 12:
            self.add_error("night_end_hour", "A night lasts at most 12 hours.")
        return cleaned

    def clean_display_name(self):
        return _clean_display_name(self.cleaned_data["display_name"])
