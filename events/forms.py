"""The organisers' forms every event app shows: adding entrants by address, writing to them."""

from django import forms


class AddEntrantsForm(forms.Form):
    emails = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 6, "cols": 60}),
        help_text="One address a line (commas work too). They join at the bottom "
        "in this order; unknown addresses get an invitation.",
    )


class AnnouncementForm(forms.Form):
    subject = forms.CharField(max_length=150)
    body = forms.CharField(
        label="Message",
        widget=forms.Textarea(attrs={"rows": 12, "cols": 70}),
        help_text="Plain text; a blank line starts a new paragraph. Every entrant gets it by email, "
        "with a link that stops announcements (and only them).",
    )


def posted_entrants(request):
    """An entrants page's add form: (the form, bound when it was the one posted; the addresses
    pasted when it was posted and is valid, else None)."""
    if request.method == "POST" and request.POST.get("form") == "add":
        form = AddEntrantsForm(request.POST, prefix="add")
        return form, form.cleaned_data["emails"] if form.is_valid() else None
    return AddEntrantsForm(prefix="add"), None
