"""More of the organisers' admin for a ladder (mixed into ladders.admin.LadderAdmin): making
someone an organiser in one step."""

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError

from accounts.models import User

from . import organisers

ORGANISERS_HELP = (
    "Who runs this ladder. Anyone added here, or by email below, becomes staff at once: they can sign in "
    "to this admin, where they see and change only the ladders they run (no other permission is needed "
    "or given). Taking someone off the list stops them running this ladder."
)


class LadderAdminForm(forms.ModelForm):
    new_organiser = forms.EmailField(
        required=False,
        label="Add an organiser by email",
        help_text="They become staff and an organiser of this ladder when you save. "
        "An address new here gets an invitation to the site first.",
    )


class OrganisersField(admin.ModelAdmin):
    """The ladder form's organisers in one step: a superuser picks among all active players, an
    organiser sees only this ladder's organisers (never the list of members) and adds one by email."""

    form = LadderAdminForm

    def get_form(self, request, obj=None, change=False, **kwargs):
        form = super().get_form(request, obj, change, **kwargs)
        superuser = request.user.is_superuser

        class ScopedLadderForm(form):  # type: ignore[valid-type, misc]
            def __init__(self, *args, **kwargs):
                super().__init__(*args, **kwargs)
                field = self.fields.get("organisers")
                if field is not None:
                    field.help_text = ORGANISERS_HELP
                    if superuser:
                        field.queryset = User.objects.filter(is_active=True)
                    else:
                        ids = self.instance.organisers.values("pk") if self.instance.pk else []
                        field.queryset = User.objects.filter(pk__in=ids)

        return ScopedLadderForm

    def save_organisers(self, request, form):
        """After the form's own organisers are saved: the one added by email, and staff for every
        organiser. A refused address is said and nothing else of it happens."""
        ladder = form.instance
        organisers.staff_for_organisers(ladder, actor=request.user)
        email = form.cleaned_data.get("new_organiser")
        if email:
            try:
                user = organisers.add_organiser(ladder, email, actor=request.user)
            except ValidationError as exc:
                messages.error(request, " ".join(exc.messages))
            else:
                messages.success(
                    request, f"{user} ({user.email}) is an organiser of {ladder} and can sign in to the admin."
                )
