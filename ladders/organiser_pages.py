"""More of the organisers' admin pages for a ladder (mixed into ladders.admin.LadderAdmin):
writing to every entrant."""

from django import forms
from django.contrib import messages
from django.urls import path

from . import announcements, services


class AnnouncementForm(forms.Form):
    subject = forms.CharField(max_length=150)
    body = forms.CharField(
        label="Message",
        widget=forms.Textarea(attrs={"rows": 12, "cols": 70}),
        help_text="Plain text; a blank line starts a new paragraph. Every entrant gets it by email, "
        "with a link that stops announcements (and only them).",
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
