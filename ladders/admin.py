"""The organisers' admin of a ladder: its form, its pages (the entrants, a challenge or match on
the players' behalf, and those of club_night_admin and organiser_pages), its actions, its history
and seasons. Challenges and matches are in ladders.match_admin; each organiser sees and changes
only the ladders they run (ladders.scoped_admin).

Every action goes through the ladder's operations (ladders.membership, .challenges,
.matches, .seasons: each writes the ladder's history with the actor) and is also
logged as a Django LogEntry.
"""

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Count, Q
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html, format_html_join

from events.admin_actions import AnnouncementPage, StandingsExport
from events.forms import posted_entrants
from events.progress import ProgressPage
from events.scoped_admin import EventPermissions, OrganisedEventFilter, ScopedInline
from games import game_settings

from . import announcements, challenges, forms, membership, progress, seasons, selectors, services
from .club_night_admin import ClubNightAdmin
from .match_admin import ChallengeAdmin, MatchAdmin
from .models import Challenge, Entrant, Ladder, LadderHistory, Match, Season
from .organiser_pages import OrganisersField
from .scoped_admin import ScopedAdmin
from .views import csv_response


class EntrantInline(ScopedInline):
    model = Entrant
    extra = 0
    readonly_fields = ("position", "player", "active", "last_active_at", "immune_until", "away_until")
    fields = readonly_fields
    can_delete = False
    ordering = ["-active", "position"]

    def has_add_permission(self, request, obj=None):
        return False

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("player")


@admin.register(Ladder)
class LadderAdmin(
    ProgressPage, OrganisersField, AnnouncementPage, StandingsExport, ClubNightAdmin, EventPermissions, ScopedAdmin
):
    announce_template = "ladders/admin/announce.html"
    refused_status = 200
    list_display = ["name", "season", "entrant_count", "is_open", "match_length", "scoring"]
    prepopulated_fields = {"slug": ["name"]}
    filter_horizontal = ["organisers"]
    readonly_fields = ["tools", "season"]
    inlines = [EntrantInline]
    actions = ["export_standings", "close_season", "apply_idle_rule", "lapse_overdue_challenges"]
    fieldsets = [
        (
            None,
            {
                "fields": [
                    "name",
                    "slug",
                    "description",
                    "organisers",
                    "new_organiser",
                    "is_open",
                    "season",
                    "tools",
                ]
            },
        ),
        ("Games", {"fields": list(game_settings.CHOSEN)}),
        (
            "Matches and values",
            {
                "fields": [
                    "match_length",
                    "scoring",
                    "value_win",
                    "value_skunk",
                    "double_skunk_rule",
                    "value_double_skunk",
                    "value_forfeit",
                ]
            },
        ),
        (
            "Challenges",
            {"fields": ["challenge_range", "accept_days", "max_open_challenges", "immunity_days", "rematch_days"]},
        ),
        (
            "Idle entrants and vacations",
            {"fields": ["idle_days", "idle_rule", "idle_drop_places", "vacation_allowed", "vacation_days_cap"]},
        ),
    ]

    def get_queryset(self, request):
        return (
            super().get_queryset(request).annotate(active_entrants=Count("entrants", filter=Q(entrants__active=True)))
        )

    @admin.display(description="entrants")
    def entrant_count(self, obj):
        return obj.active_entrants

    @admin.display(description="run the ladder")
    def tools(self, obj):
        if not obj.pk:
            return "Save the ladder first."
        links = [
            ("admin:ladders_ladder_entrants", "Add, remove and reorder entrants"),
            ("admin:ladders_ladder_on_behalf", "Start a challenge or match for players"),
            ("admin:ladders_ladder_announce", "Write to every entrant"),
            ("admin:ladders_ladder_club_night", "Record a face-to-face game"),
            ("ladders:detail", "The ladder's public page"),
        ]
        return format_html_join(
            " · ",
            '<a href="{}">{}</a>',
            (
                (reverse(name, args=[obj.slug if name.startswith("ladders:") else obj.pk]), label)
                for name, label in links
            ),
        )

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        seasons.current_season(obj)

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        ladder = form.instance
        if not request.user.is_superuser:
            ladder.organisers.add(request.user)  # nobody locks themselves out of their own ladder
        self.save_organisers(request, form)
        changed = [name for name in form.changed_data if name != "new_organiser"]
        if changed or not change:
            what = "changed the rules: " + ", ".join(changed) if change else "created the ladder"
            services.record_note(ladder, "settings", f"{request.user} {what}", actor=request.user)

    # --- custom pages ------------------------------------------------------

    def get_urls(self):
        wrap = self.admin_site.admin_view
        return [
            path("<int:pk>/entrants/", wrap(self.entrants_view), name="ladders_ladder_entrants"),
            path("<int:pk>/on-behalf/", wrap(self.on_behalf_view), name="ladders_ladder_on_behalf"),
            *self.announcement_urls(),
            *self.club_night_urls(wrap),
            *self.progress_urls(),
        ] + super().get_urls()

    def _ladder_for(self, request, pk):
        ladder = self.get_object(request, pk)
        if ladder is None:
            raise PermissionDenied
        if not self.has_change_permission(request, ladder):
            raise PermissionDenied
        return ladder

    def _page(self, request, ladder, template, context):
        return TemplateResponse(
            request,
            template,
            {
                **self.admin_site.each_context(request),
                "ladder": ladder,
                "opts": self.model._meta,
                "original": ladder,
                **context,
            },
        )

    def entrants_view(self, request, pk):
        ladder = self._ladder_for(request, pk)
        entrants = ladder.entrants.filter(active=True).select_related("player").order_by("position")
        add, emails = posted_entrants(request)
        reorder = forms.ReorderForm(prefix="reorder", initial={"order": "\n".join(e.player.email for e in entrants)})
        remove = forms.RemoveForm(prefix="remove", ladder=ladder)
        away = forms.AwayForm(prefix="away", ladder=ladder)
        if request.method == "POST":
            which = request.POST.get("form")
            try:
                if emails is not None:
                    added, invited, skipped = membership.add_entrants(ladder, emails, actor=request.user)
                    note = f"Added {len(added)} entrant(s); invited {len(invited)} new address(es)."
                    if skipped:
                        note += f" Already on the ladder: {', '.join(skipped)}."
                    return self._done(request, ladder, note)
                elif which == "reorder":
                    reorder = forms.ReorderForm(request.POST, prefix="reorder")
                    if reorder.is_valid():
                        by_email = {e.player.email.lower(): e.pk for e in entrants}
                        lines = [
                            line.strip().lower() for line in reorder.cleaned_data["order"].splitlines() if line.strip()
                        ]
                        unknown = [line for line in lines if line not in by_email]
                        if unknown:
                            raise services.LadderError(f"Not on this ladder: {', '.join(unknown)}.")
                        membership.reorder(ladder, [by_email[line] for line in lines], actor=request.user)
                        return self._done(request, ladder, "The ladder was reordered.")
                elif which == "remove":
                    remove = forms.RemoveForm(request.POST, prefix="remove", ladder=ladder)
                    if remove.is_valid():
                        entrant = remove.cleaned_data["entrant"]
                        membership.remove_entrant(entrant, actor=request.user, reason=remove.cleaned_data["reason"])
                        return self._done(request, ladder, f"Removed {entrant}.")
                elif which == "away":
                    away = forms.AwayForm(request.POST, prefix="away", ladder=ladder)
                    if away.is_valid():
                        entrant, until = away.cleaned_data["entrant"], away.cleaned_data["until"]
                        membership.set_away(entrant, until, actor=request.user)
                        return self._done(
                            request, ladder, f"{entrant} is away until {until}." if until else f"{entrant} is back."
                        )
            except ValidationError as exc:
                messages.error(request, " ".join(exc.messages))
            except services.LadderError as exc:
                messages.error(request, exc.message)
        return self._page(
            request,
            ladder,
            "ladders/admin/entrants.html",
            {
                "title": f"Entrants of {ladder}",
                "entrants": entrants,
                "add": add,
                "reorder": reorder,
                "remove": remove,
                "away": away,
            },
        )

    def on_behalf_view(self, request, pk):
        ladder = self._ladder_for(request, pk)
        form = forms.OnBehalfForm(request.POST or None, ladder=ladder)
        if request.method == "POST" and form.is_valid():
            challenger, defender = form.cleaned_data["challenger"], form.cleaned_data["defender"]
            try:
                if form.cleaned_data["start_now"]:
                    challenges.start_match(challenger, defender, actor=request.user)
                    note = f"Started the match {challenger} v {defender}."
                else:
                    challenges.challenge(challenger, defender, actor=request.user)
                    note = f"{challenger} challenged {defender}."
            except services.LadderError as exc:
                messages.error(request, exc.message)
            else:
                return self._done(request, ladder, note)
        return self._page(
            request,
            ladder,
            "ladders/admin/form_page.html",
            {"title": f"Start a challenge or match on {ladder}", "form": form},
        )

    def get_inlines(self, request, obj):
        return self.inlines if obj is not None else []  # a new ladder has nobody on it yet: no empty table

    def progress(self, ladder):
        return progress.of(ladder)

    def perform(self, request, ladder, name):
        season = seasons.close_season(ladder, actor=request.user, reseed="keep")
        return f"Closed season {season.number}; season {season.number + 1} has started."

    def add_entrants(self, request, ladder, emails):
        added, invited, skipped = membership.add_entrants(ladder, emails, actor=request.user)
        note = f"Added {len(added)} entrant(s); invited {len(invited)} new address(es)."
        return note + (f" Already on the ladder: {', '.join(skipped)}." if skipped else "")

    def announce(self, ladder, subject, body, *, actor):
        return announcements.announce(ladder, subject, body, actor=actor)

    def entrants_written_to(self, ladder):
        return ladder.entrants.filter(active=True).count()

    # --- actions -----------------------------------------------------------

    noun = "ladder"

    def standings_csv(self, ladder):
        return csv_response(ladder, selectors.standings(ladder))

    @admin.action(description="Close the season and open the next")
    def close_season(self, request, queryset):
        form = forms.CloseSeasonForm(request.POST if "apply" in request.POST else None)
        if form.is_bound and form.is_valid():
            for ladder in queryset:
                season = seasons.close_season(ladder, actor=request.user, reseed=form.cleaned_data["reseed"])
                self.log_change(request, ladder, f"Closed season {season.number}")
            self.message_user(request, f"Closed the season of {queryset.count()} ladder(s).")
            return None
        return self._form_page(
            request,
            queryset,
            "Close the season",
            form,
            "close_season",
            "The standings are frozen and kept; the next season starts now.",
        )

    @admin.action(description="Apply the idle rule now")
    def apply_idle_rule(self, request, queryset):
        for ladder in queryset:
            affected = membership.apply_idle_rule(ladder, actor=request.user)
            self.log_change(request, ladder, f"Applied the idle rule: {len(affected)} entrant(s)")
            self.message_user(request, f"{ladder}: the idle rule moved {len(affected)} entrant(s).")

    @admin.action(description="Count overdue challenges as forfeits now")
    def lapse_overdue_challenges(self, request, queryset):
        for ladder in queryset:
            done = challenges.lapse_challenges(ladder=ladder)
            self.log_change(request, ladder, f"Counted {len(done)} overdue challenge(s) as forfeits")
            self.message_user(request, f"{ladder}: {len(done)} overdue challenge(s) counted as forfeits.")


@admin.register(LadderHistory)
class LadderHistoryAdmin(ScopedAdmin):
    list_display = ["ladder", "seq", "season", "kind", "text", "actor", "created_at"]
    list_filter = [("ladder", OrganisedEventFilter), "kind"]
    readonly_fields = [f.name for f in LadderHistory._meta.fields]

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(Season)
class SeasonAdmin(ScopedAdmin):
    list_display = ["ladder", "number", "started_at", "closed_at", "closed_by", "frozen"]
    readonly_fields = [f.name for f in Season._meta.fields]

    @admin.display(description="frozen standings")
    def frozen(self, obj):
        if not obj.closed_at:
            return "—"
        return format_html('<a href="{}">view</a>', reverse("ladders:season", args=[obj.ladder.slug, obj.number]))

    def has_change_permission(self, request, obj=None):
        return False


admin.site.register(Challenge, ChallengeAdmin)
admin.site.register(Match, MatchAdmin)
