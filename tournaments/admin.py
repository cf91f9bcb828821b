"""The organisers' admin for events. Each organiser sees and runs only the events they organise
(the ladders' rules: another event's pages and actions are refused with 403).

Every action goes through tournaments.services and is logged as a Django LogEntry.
No page here shows a duplicate round's deal seed.
"""

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html, format_html_join

from events import scoped_admin
from events.admin_actions import AnnouncementPage, ForfeitAction, StandingsExport
from events.exports import standings_csv_response
from events.forms import posted_entrants
from events.progress import ProgressPage
from games import game_settings
from games.forms import WholeNumberField

from . import announcements, club_night_admin, club_nights, entries, progress, selectors, services
from .models import Entrant, Pairing, PairingGame, Round, Tournament

# Settings fixed once the schedule is drawn.
FIXED_WHEN_RUNNING = ("kind", "legs", "best_of", "all_rounds_at_start", "variant", "target", "muggins")


class TournamentForm(forms.ModelForm):
    class Meta:
        model = Tournament
        fields = (
            "kind",
            "name",
            "slug",
            "description",
            "organisers",
            "starts_on",
            "ends_on",
            *game_settings.CHOSEN,
            "vacation_allowed",
            "vacation_days_cap",
            "legs",
            "all_rounds_at_start",
            "scoring",
            "best_of",
            "entries_close_on",
            "max_entrants",
            "min_rating",
            "min_reliability",
            "approval_required",
        )

    def clean(self):
        data = super().clean()
        try:
            services.check_dates(data.get("starts_on"), data.get("ends_on"))
        except services.TournamentError as exc:
            raise ValidationError(exc.message) from exc
        return data


class ForfeitForm(forms.Form):
    loser = forms.ChoiceField(choices=[("home", "The first-named player"), ("away", "The second-named player")])
    reason = forms.CharField(max_length=200, help_text="E.g. abandoned: no move for three weeks.")


class TableGameForm(forms.Form):
    home_score = WholeNumberField(label="First-named player's final score", min_value=0, max_value=200)
    away_score = WholeNumberField(label="Second-named player's final score", min_value=0, max_value=200)
    played_on = forms.DateField(required=False, help_text="The day it was played at the table (empty: today).")


class WithdrawForm(forms.Form):
    entrant = forms.ModelChoiceField(queryset=Entrant.objects.none())

    def __init__(self, *args, tournament, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["entrant"].queryset = tournament.entrants.select_related("player")  # type: ignore[attr-defined]


class ScopedAdmin(scoped_admin.ScopedAdmin):
    """Objects of the events the user organises; anything else is refused (403), as for ladders."""

    event_model = Tournament
    event_lookup = "tournament"
    refusal = services.TournamentError


class EntrantInline(scoped_admin.ScopedInline):
    model = Entrant
    extra = 0
    readonly_fields = ("seed", "player", "entered_at")
    fields = readonly_fields
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Tournament)
class TournamentAdmin(
    club_night_admin.ClubNightAdmin,
    ProgressPage,
    AnnouncementPage,
    StandingsExport,
    scoped_admin.EventPermissions,
    ScopedAdmin,
):
    announce_template = "tournaments/admin/announce.html"
    new_event_links = tuple((f"a {kind.replace('_', ' ')}", f"?kind={kind}") for kind in Tournament.Kind.values)
    form = TournamentForm
    list_display = ["name", "kind", "status", "starts_on", "ends_on"]
    prepopulated_fields = {"slug": ["name"]}
    filter_horizontal = ["organisers"]
    inlines = [EntrantInline]
    actions = ["start_event", "open_next_round", "export_standings"]
    fieldsets = [
        (None, {"fields": ["kind", "name", "slug", "description", "organisers", "status", "tools"]}),
        ("Season", {"fields": ["starts_on", "ends_on", "repeat_every_days"]}),
        ("Games", {"fields": [*game_settings.CHOSEN, "vacation_allowed", "vacation_days_cap"]}),
        ("Format", {"fields": ["legs", "all_rounds_at_start", "scoring", "best_of"]}),
        (
            "Players entering on their own",
            {"fields": ["entries_close_on", "max_entrants", "min_rating", "min_reliability", "approval_required"]},
        ),
    ]

    def get_fieldsets(self, request, obj=None):
        kind = obj.kind if obj is not None else (request.POST.get("kind") or request.GET.get("kind"))
        if kind == Tournament.Kind.CLUB_NIGHT:
            # A club night's format is the ACC's (nine games a night, 2/3/0, Grass Roots Points).
            return [fieldset for fieldset in self.fieldsets if fieldset[0] != "Format"]
        return self.fieldsets

    def save_model(self, request, obj, form, change):
        if obj.kind == Tournament.Kind.CLUB_NIGHT:
            obj.scoring = Tournament.Scoring.ACC
        super().save_model(request, obj, form, change)

    def get_readonly_fields(self, request, obj=None):
        fixed = FIXED_WHEN_RUNNING if obj is not None and obj.status != Tournament.Status.DRAFT else ()
        return ("status", "tools", *fixed)

    @admin.display(description="run the event")
    def tools(self, obj):
        if not obj.pk:
            return "Save the event first."
        if obj.kind == Tournament.Kind.CLUB_NIGHT:
            nights = reverse("admin:tournaments_tournament_nights", args=[obj.pk])
            return format_html('<a href="{}">Nights and the season\'s table</a>', nights)
        links = [
            (reverse("admin:tournaments_tournament_entrants", args=[obj.pk]), "Add and withdraw entrants"),
            (reverse("admin:tournaments_tournament_announce", args=[obj.pk]), "Write to the entrants"),
            (reverse("admin:tournaments_round_changelist") + f"?tournament__id__exact={obj.pk}", "Rounds"),
            (reverse("admin:tournaments_pairing_changelist") + f"?round__tournament__id__exact={obj.pk}", "Pairings"),
            (obj.get_absolute_url(), "The event's public page"),
        ]
        return format_html_join(" · ", '<a href="{}">{}</a>', links)

    def save_related(self, request, form, formsets, change):
        super().save_related(request, form, formsets, change)
        if not request.user.is_superuser:
            form.instance.organisers.add(request.user)  # nobody locks themselves out of their own event

    def get_urls(self):
        wrap = self.admin_site.admin_view
        return [
            path("<int:pk>/entrants/", wrap(self.entrants_view), name="tournaments_tournament_entrants"),
            *self.announcement_urls(),
            *self.progress_urls(),
            *self.club_night_urls(),
        ] + super().get_urls()

    def announce(self, event, subject, body, *, actor):
        return announcements.announce(event, subject, body, actor=actor)

    def entrants_written_to(self, event):
        return event.entrants.count()

    def entrants_view(self, request, pk):
        event = self.get_object(request, pk)
        if event is None or not self.has_change_permission(request, event):
            raise PermissionDenied
        add, emails = posted_entrants(request)
        withdraw = WithdrawForm(prefix="withdraw", tournament=event)
        if request.method == "POST":
            which = request.POST.get("form")
            try:
                if emails is not None:
                    added, invited = entries.add_entrants(event, emails, actor=request.user)
                    note = f"Entered {len(added)} player(s); invited {len(invited)} new address(es)."
                    return self._done(request, event, note)
                elif which == "approve":
                    entrant = event.entrants.filter(pk=request.POST.get("entrant"), approved=False).first()
                    if entrant is not None:
                        entries.approve(entrant, actor=request.user)
                        return self._done(request, event, f"Approved the entry of {entrant}.")
                elif which == "withdraw":
                    withdraw = WithdrawForm(request.POST, prefix="withdraw", tournament=event)
                    if withdraw.is_valid():
                        entrant = withdraw.cleaned_data["entrant"]
                        entries.withdraw_entrant(entrant, actor=request.user)
                        return self._done(request, event, f"Withdrew {entrant}.")
            except ValidationError as exc:
                messages.error(request, " ".join(exc.messages))
            except services.TournamentError as exc:
                messages.error(request, exc.message)
        return TemplateResponse(
            request,
            "tournaments/admin/entrants.html",
            {
                **self.admin_site.each_context(request),
                "title": f"Entrants of {event}",
                "event": event,
                "opts": self.model._meta,
                "original": event,
                "entrants": selectors.entrants(event),
                "add": add,
                "withdraw": withdraw,
            },
        )

    def get_inlines(self, request, obj):
        return self.inlines if obj is not None else []  # a new event has nobody entered yet: no empty table

    def progress(self, event):
        return progress.of(event)

    def perform(self, request, event, name):
        if name == "start" and event.kind == Tournament.Kind.CLUB_NIGHT:
            services.start(event, actor=request.user)
            return f"Started {event}: open its first night when the club meets."
        if name == "start":
            started = services.start(event, actor=request.user)
            return f"Started {event}: the schedule is drawn; {progress.of(started).state.lower()}."
        if name == "open_night":
            night = club_nights.open_night(event, actor=request.user)
            return f"Opened night {night.number}: enter its games on its page."
        if name == "finish_season":
            club_nights.finish_season(event, actor=request.user)
            return f"Ended {event}: every entrant is emailed the final table."
        rnd = services.open_next_round(event, actor=request.user)
        return f"Opened round {rnd.number}: its games have begun."

    def add_entrants(self, request, event, emails):
        added, invited = entries.add_entrants(event, emails, actor=request.user)
        return f"Entered {len(added)} player(s); invited {len(invited)} new address(es)."

    @admin.action(description="Start the event: draw the schedule and open the first round")
    def start_event(self, request, queryset):
        self._each(request, queryset, lambda e: services.start(e, actor=request.user), "Started")

    @admin.action(description="Open the next scheduled round")
    def open_next_round(self, request, queryset):
        self._each(
            request, queryset, lambda e: services.open_next_round(e, actor=request.user), "Opened the next round"
        )

    def standings_csv(self, event):
        return standings_csv_response(event.slug, selectors.columns(event), selectors.table(event))


@admin.register(Round)
class RoundAdmin(ScopedAdmin):
    list_display = ["tournament", "number", "status", "opened_at", "completed_at"]
    list_filter = ["status"]
    fields = readonly_fields = ("tournament", "number", "status", "opened_at", "completed_at")
    actions = ["open_rounds"]

    @admin.action(description="Open the round (its games start)")
    def open_rounds(self, request, queryset):
        self._each(request, queryset, lambda r: services.open_round(r, actor=request.user), "Opened")


class PairingGameInline(scoped_admin.ScopedInline):
    model = PairingGame
    extra = 0
    readonly_fields = ("number", "game_link", "home_seat", "counted", "winner", "kind", "home_score", "away_score")
    fields = readonly_fields
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False

    @admin.display(description="game")
    def game_link(self, obj):
        # The public (spectator) page: the game admin would show the players' hidden cards.
        return format_html('<a href="{}">{}</a>', obj.game.get_absolute_url(), obj.game_id)


@admin.register(Pairing)
class PairingAdmin(ForfeitAction, ScopedAdmin):
    event_lookup = "round__tournament"
    list_display = ["__str__", "round", "table", "status", "home_wins", "away_wins", "winner"]
    list_filter = ["status"]
    fields = readonly_fields = ("round", "table", "home", "away", "status", "home_wins", "away_wins", "winner")
    inlines = [PairingGameInline]
    actions = ["record_forfeit", "enter_table_game"]

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("round__tournament", "home__player", "away__player")

    @admin.action(description="Enter the result of the game played at the table (face to face)")
    def enter_table_game(self, request, queryset):
        if queryset.count() != 1:
            self.message_user(request, "Choose one pairing.", messages.ERROR)
            return None
        pairing = queryset.get()
        form = TableGameForm(request.POST if "apply" in request.POST else None)
        if form.is_bound and form.is_valid():
            data = form.cleaned_data
            self._one(
                request,
                pairing,
                lambda: services.record_table_game(
                    pairing, data["home_score"], data["away_score"], actor=request.user, played_on=data["played_on"]
                ),
                f"Entered the game played at the table: {data['home_score']}-{data['away_score']}",
            )
            return None
        return self._form_page(
            request,
            queryset,
            "Enter a game played at the table",
            form,
            "enter_table_game",
            "The final board of a pairing played face to face: it counts for the standings and the "
            "ratings like a game played here, marked as played at the table. Only a pairing whose round "
            "has not opened can take it (a pairing is played once).",
        )

    forfeit_form = ForfeitForm
    forfeit_counts = "it counts as a forfeit win for the other player"

    def forfeit_sides(self, pairing):
        return {"home": pairing.home, "away": pairing.away}

    def forfeit_game(self, pairing_game, loser, *, reason, actor):
        services.forfeit_game(pairing_game, loser, reason=reason, actor=actor)
