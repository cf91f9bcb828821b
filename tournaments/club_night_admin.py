"""The organisers' pages of an ACC club night season (tournaments.club_nights has the rules; its
state and next step are on its change page, tournaments.progress.club_night).

The season's page: its nights, a night opened on a date, its table, the season ended. A night's page: the night's games entered nine rows at a time,
the reports waiting (confirm or drop), 28 and 29 hands, and the button that closes the night.
Mixed into TournamentAdmin (uses ScopedAdmin's get_object, has_change_permission and _done).
"""

from django import forms
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils import timezone

from . import club_nights, selectors, services
from .forms import AwardForm, NightGames
from .models import ClubNight, NightGame, Tournament


class OpenNightForm(forms.Form):
    played_on = forms.DateField(label="Played on", help_text="The night's date (today unless you enter it later).")


class ClubNightAdmin:
    """A mixin for TournamentAdmin: the season's and the nights' pages."""

    def club_night_urls(self):
        wrap = self.admin_site.admin_view  # type: ignore[attr-defined]
        return [
            path("<int:pk>/nights/", wrap(self.season_view), name="tournaments_tournament_nights"),
            path("<int:pk>/nights/<int:night>/", wrap(self.night_view), name="tournaments_tournament_night"),
        ]

    def _season_for(self, request, pk):
        event = self.get_object(request, pk)  # type: ignore[attr-defined]
        if event is None or not self.has_change_permission(request, event):  # type: ignore[attr-defined]
            raise PermissionDenied
        if event.kind != Tournament.Kind.CLUB_NIGHT:
            raise Http404("Not a club night season.")
        return event

    def _render(self, request, event, template, title, context, status=200):
        return TemplateResponse(
            request,
            template,
            {
                **self.admin_site.each_context(request),  # type: ignore[attr-defined]
                "title": title,
                "event": event,
                "opts": self.model._meta,  # type: ignore[attr-defined]
                "original": event,
                **context,
            },
            status=status,
        )

    def season_view(self, request, pk):
        event = self._season_for(request, pk)
        opening = OpenNightForm(request.POST if request.POST.get("do") == "open" else None)
        opening.fields["played_on"].initial = timezone.localdate()
        status = 200
        if request.method == "POST":
            do = request.POST.get("do")
            try:
                if do == "open" and opening.is_valid():
                    night = club_nights.open_night(
                        event, played_on=opening.cleaned_data["played_on"], actor=request.user
                    )
                    self.log_change(request, event, f"Opened night {night.number}")  # type: ignore[attr-defined]
                    messages.success(request, f"Opened night {night.number}: enter its games.")
                    return HttpResponseRedirect(night_url(night))
                if do == "finish":
                    club_nights.finish_season(event, actor=request.user)
                    return self._done(request, event, "Ended the season: every entrant is emailed the final table.")  # type: ignore[attr-defined]
                messages.error(request, "Nothing was done: give the night's date.")
            except services.TournamentError as exc:
                messages.error(request, exc.message)
            status = 400
        event.refresh_from_db()
        return self._render(
            request,
            event,
            "tournaments/admin/club_season.html",
            f"Club nights of {event}",
            {
                "open_night": event.nights.filter(status=ClubNight.Status.OPEN).first(),
                "opening": opening,
                "nights": event.nights.order_by("-number"),
                "columns": selectors.CLUB_NIGHT_COLUMNS,
                "rows": [[row[key] for key, _ in selectors.CLUB_NIGHT_COLUMNS] for row in selectors.table(event)],
                "entrants": event.entrants.count(),
            },
            status,
        )

    def night_view(self, request, pk, night):
        event = self._season_for(request, pk)
        night = ClubNight.objects.filter(pk=night, tournament=event).first()
        if night is None:
            raise Http404("No such night in this season.")
        entrants = event.entrants.filter(approved=True).select_related("player").order_by("entered_at", "pk")
        do = request.POST.get("do") if request.method == "POST" else None
        games = NightGames(request.POST if do == "enter" else None, prefix="games", entrants=entrants)
        award = AwardForm(request.POST if do == "award" else None, prefix="award", entrants=entrants)
        status = 200
        if do:
            try:
                note = self._night_post(request, night, do, games, award)
            except services.TournamentError as exc:
                messages.error(request, exc.message)
            else:
                if note:
                    self.log_change(request, event, note)  # type: ignore[attr-defined]
                    messages.success(request, note)
                    return HttpResponseRedirect(request.path)
            status = 400
        counted = night.games.filter(status=NightGame.Status.COUNTED)
        played = {e.pk: counted.filter(first=e).count() + counted.filter(second=e).count() for e in entrants}
        return self._render(
            request,
            event,
            "tournaments/admin/club_night.html",
            f"Night {night.number} of {event}",
            {
                "night": night,
                "games": games,
                "award": award,
                "counted": counted.select_related("first__player", "second__player", "game"),
                "waiting": night.games.exclude(status=NightGame.Status.COUNTED).select_related(
                    "first__player", "second__player"
                ),
                "awards": night.awards.select_related("entrant__player"),
                "rows": selectors.night_table(night),
                "short": [(e, played[e.pk]) for e in entrants if 0 < played[e.pk] < 9],
            },
            status,
        )

    def _night_post(self, request, night, do, games, award):
        """What the night page's button `do` did, in words (None: the form is refused, said)."""
        if do == "enter":
            if not games.is_valid() or not games.games():
                messages.error(request, "Nothing was entered: give each game's two players and both scores.")
                return None
            done = club_nights.enter_games(night, games.games(), actor=request.user)
            return f"Entered {len(done)} game(s) of night {night.number}."
        if do == "award":
            if not award.is_valid():
                messages.error(request, "Nothing was recorded: choose the player and the hand.")
                return None
            data = award.cleaned_data
            club_nights.record_award(night, data["entrant"], data["kind"], actor=request.user)
            return f"Recorded {dict(award.fields['kind'].choices)[data['kind']].lower()} for {data['entrant']}."
        item = NightGame.objects.filter(pk=request.POST.get("game"), night=night).first()
        if do in ("confirm", "drop") and item is None:
            raise services.TournamentError("That reported game is gone.")
        if do == "confirm":
            club_nights.confirm_game(item, request.user)
            return f"Counted the game {item}."
        if do == "drop":
            club_nights.drop_game(item, actor=request.user)
            return f"Dropped the report {item}."
        if do == "close":
            short = club_nights.close_night(night, actor=request.user)
            left = f" Fewer than nine games: {', '.join(str(e) for e in short)}." if short else ""
            return f"Closed night {night.number}: its Grass Roots Points count and the results are emailed.{left}"
        raise services.TournamentError("Nothing was done: that button is unknown.")


def night_url(night):
    return reverse("admin:tournaments_tournament_night", args=[night.tournament_id, night.pk])
