"""Actions the organisers' admin of every event app offers, mixed into its ScopedAdmin."""

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.template.response import TemplateResponse
from django.urls import path

from . import announcements
from .forms import AnnouncementForm


class ForfeitAction:
    """The organisers' action on one match (a ladder's, or an event's pairing): a forfeit by one
    side of the game in play, or an abandoned game adjudicated, through the app's own service.

    The admin gives `forfeit_form` (who forfeits, and why), `forfeit_sides` (the form's choice ->
    the entrant), `forfeit_game` (the service) and `forfeit_counts` (what the forfeit counts as);
    it is mixed into a ScopedAdmin. The object's `games` are its games in order.
    """

    @admin.action(description="Record a forfeit / adjudicate the game in play")
    def record_forfeit(self, request, queryset):
        what = queryset.model._meta.verbose_name
        if queryset.count() != 1:
            self.message_user(request, f"Choose one {what}.", messages.ERROR)
            return None
        obj = queryset.get()
        form = self.forfeit_form(request.POST if "apply" in request.POST else None)
        if not (form.is_bound and form.is_valid()):
            intro = f"A forfeit event is added to the game's log; {self.forfeit_counts}."
            return self._form_page(request, queryset, "Record a forfeit", form, "record_forfeit", intro)
        current = obj.games.filter(game__status="active").order_by("-number").first()
        loser, reason = self.forfeit_sides(obj)[form.cleaned_data["loser"]], form.cleaned_data["reason"]
        if current is None or loser is None:  # a bye has no other side
            self.message_user(request, f"This {what} has no game in play.", messages.ERROR)
            return None
        forfeit = lambda: self.forfeit_game(current, loser, reason=reason, actor=request.user)  # noqa: E731
        self._one(request, obj, forfeit, f"Recorded a forfeit by {loser}: {reason}")
        return None


class AnnouncementPage:
    """The page where an organiser writes to every entrant of the event, mixed into the event's
    ScopedAdmin. The app gives `announce(event, subject, body, actor=)`, `entrants_written_to(event)`,
    its page's template, and the status of a refused post."""

    announce_template = ""
    refused_status = 400

    def announcement_urls(self):
        opts = self.model._meta
        view = self.admin_site.admin_view(self.announce_view)
        return [path("<int:pk>/announce/", view, name=f"{opts.app_label}_{opts.model_name}_announce")]

    def announce_view(self, request, pk):
        event = self.get_object(request, pk)
        if event is None or not self.has_change_permission(request, event):
            raise PermissionDenied
        form = AnnouncementForm(request.POST or None)
        status = 200
        if request.method == "POST":
            if form.is_valid():
                try:
                    sent = self.announce(
                        event, form.cleaned_data["subject"], form.cleaned_data["body"], actor=request.user
                    )
                except self.refusal as exc:
                    messages.error(request, exc.message)
                else:
                    entrants = self.entrants_written_to(event)
                    note = f'Sent "{sent.subject}" to {sent.recipients} of {entrants} entrant(s)'
                    if sent.recipients < entrants:
                        note += " (the others turned announcements or email off)"
                    return self._done(request, event, note + ".")
            else:
                messages.error(request, "Nothing was sent: write a subject and a message.")
            status = self.refused_status
        return TemplateResponse(
            request,
            self.announce_template,
            {
                **self.admin_site.each_context(request),
                "title": f"Write to the entrants of {event}",
                "event": event,
                self.model._meta.model_name: event,
                "opts": self.model._meta,
                "original": event,
                "form": form,
                "sent": announcements.sent_on(event)[:50],
            },
            status=status,
        )


class StandingsExport:
    """The "Export the standings (CSV)" action of an event's admin: the app gives `standings_csv(event)`
    (the download) and `noun` (what the event is called in the refusal)."""

    noun = "event"

    @admin.action(description="Export the standings (CSV)")
    def export_standings(self, request, queryset):
        if queryset.count() != 1:
            self.message_user(request, f"Choose one {self.noun} to export.", messages.ERROR)
            return None
        event = queryset.get()
        self.log_change(request, event, "Exported the standings")
        return self.standings_csv(event)
