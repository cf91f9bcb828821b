"""The organisers' page for a ladder game played face to face (ladders.club_night has the rule; the ACC
club night, a season of nine-game nights, is tournaments.club_nights)."""

from django.contrib import messages
from django.urls import path
from django.utils import timezone

from . import club_night, forms, services

INTRO = (
    "Enter a game two entrants played at the club. It counts as a one-game match: if the lower-placed player "
    "won, they take the other's place (everyone between moves down one); otherwise nobody moves. It is worth "
    "its value (win, skunk, double skunk) in the season's tables, is rated, and is marked as played at the table. "
    "The challenge rules (range, open challenges, immunity) do not apply."
)


class ClubNightAdmin:
    """A mixin for LadderAdmin: its URL and page (uses LadderAdmin's _ladder_for, _page and _done)."""

    def club_night_urls(self, wrap):
        return [path("<int:pk>/club-night/", wrap(self.club_night_view), name="ladders_ladder_club_night")]

    def club_night_view(self, request, pk):
        ladder = self._ladder_for(request, pk)  # another ladder's organiser is refused here (403)
        form = forms.ClubNightForm(request.POST or None, ladder=ladder, initial={"played_on": timezone.localdate()})
        status = 200
        if request.method == "POST":
            if form.is_valid():
                data = form.cleaned_data
                try:
                    match = club_night.record_club_night(
                        ladder,
                        data["first"],
                        data["second"],
                        [data["first_score"], data["second_score"]],
                        played_on=data["played_on"],
                        actor=request.user,
                    )
                except services.LadderError as exc:
                    form.add_error(None, exc.message)
                else:
                    note = (
                        f"Counted the face-to-face game of {match.challenger} and {match.defender}: {match.winner} won."
                    )
                    return self._done(request, ladder, note)
            messages.error(request, "Nothing was recorded: please correct the fields marked below.")
            status = 400
        response = self._page(
            request,
            ladder,
            "ladders/admin/form_page.html",
            {"title": f"Record a face-to-face game on {ladder}", "form": form, "intro": INTRO},
        )
        response.status_code = status
        return response
