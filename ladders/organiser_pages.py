"""More of the organisers' admin for a ladder (mixed into ladders.admin.LadderAdmin): writing to
every entrant, and making someone an organiser in one step."""

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.urls import path

from accounts.models import User

from . import announcements, organisers, services

ORGANISERS_HELP = (
    "Who runs this ladder. Anyone added here, or by email below, becomes staff at once: they can sign in "
    "to this admin, where they see and change only the ladders they run (no other permission is needed "
    "or given). Taking someone off the list stops them running this ladder."
)


class AnnouncementForm(forms.Form):
    subject = forms.CharField(max_length=150)
    body = forms.CharField(
        label="Message",
        widget=forms.Textarea(attrs={"rows": 12, "cols": 70}),
        help_text="Plain text; a blank line starts a new paragraph. Every entrant gets it by email, "
        "with a link that stops announcements (and only them).",
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


class AnnouncementPages:
    """The announce page: `_ladder_for`, `_page` and `_done` are LadderAdmin's."""

    def announcement_urls(self):
        return [
            path(
                "<int:pk>/announce/",
                self.admin_site.admin_view(self.announce_view),
                name="ladders_ladder_announce",
            )
        ]

    def announce_view(self, request, pk):
        ladder = self._ladder_for(request, pk)
        form = AnnouncementForm(request.POST or None)
        if request.method == "POST":
            if form.is_valid():
                try:
                    sent = announcements.announce(
                        ladder, form.cleaned_data["subject"], form.cleaned_data["body"], actor=request.user
                    )
                except services.LadderError as exc:
                    messages.error(request, exc.message)
                else:
                    entrants = ladder.entrants.filter(active=True).count()
                    note = f'Sent "{sent.subject}" to {sent.recipients} of {entrants} entrant(s)'
                    if sent.recipients < entrants:
                        note += " (the others turned announcements or email off)"
                    return self._done(request, ladder, note + ".")
            else:
                messages.error(request, "Nothing was sent: write a subject and a message.")
        return self._page(
            request,
            ladder,
            "ladders/admin/announce.html",
            {
                "title": f"Write to the entrants of {ladder}",
                "form": form,
                "sent": announcements.sent_on(ladder)[:50],
            },
        )
