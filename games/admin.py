import json

from django.contrib import admin
from django.utils.html import format_html

from .models import Event, FollowUp, Game, Seat, TableMessage

# While a game is on, its snapshot and these events hold cards no player may see
# yet (every hand, the shuffled deck, the face-down discards, the pegging plans): staff play too.
HIDDEN_KINDS = ("deal", "discard", "plan", "count_ahead")
HIDDEN = "Hidden while the game is on (players' cards)."


def _event_data(event):
    if event.kind in HIDDEN_KINDS and (not event.game.is_finished or event.game.cards_sealed()):
        return HIDDEN
    return json.dumps(event.data)


class ReadOnlyAdmin(admin.ModelAdmin):
    """Rows the staff read and never add, change or delete: a game's log, the overdue seats."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    readonly_fields = ("number", "player", "computer_level", "team", "to_act", "deadline")
    fields = readonly_fields
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


class EventInline(admin.TabularInline):
    """The log, read-only: events are never edited; corrections are new events."""

    model = Event
    extra = 0
    readonly_fields = ("seq", "kind", "seat", "source", "actor", "what", "created_at")
    fields = readonly_fields
    can_delete = False
    ordering = ["seq"]

    @admin.display(description="data")
    def what(self, event):
        return _event_data(event)

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ["id", "__str__", "variant", "target", "status", "seq", "updated_at"]
    list_filter = ["status", "variant", "target", "muggins"]
    search_fields = ["seats__player__email", "seats__player__display_name"]
    exclude = ["snapshot", "deal_seed"]  # the seed tells a duplicate round's decks
    readonly_fields = [
        "rules",
        "status",
        "seq",
        "state",
        "winner_side",
        "finish",
        "skunk",
        "created_at",
        "updated_at",
        "finished_at",
    ]
    inlines = [SeatInline, EventInline]

    @admin.display(description="snapshot")
    def state(self, game):
        if not game.is_finished or game.cards_sealed():
            return format_html('{} <a href="{}">The table as a spectator sees it</a>.', HIDDEN, game.get_absolute_url())
        return json.dumps(game.snapshot)


@admin.register(Event)
class EventAdmin(ReadOnlyAdmin):
    list_display = ["game", "seq", "kind", "seat", "source", "created_at"]
    list_filter = ["kind", "source"]
    list_select_related = ["game"]
    readonly_fields = ("game", "seq", "kind", "seat", "source", "actor", "what", "idempotency_key", "created_at")
    fields = readonly_fields

    @admin.display(description="data")
    def what(self, event):
        return _event_data(event)


class OwedFilter(admin.SimpleListFilter):
    title = "state"
    parameter_name = "state"

    def lookups(self, request, model_admin):
        return [("owed", "Owed (not done yet)"), ("failing", "Failing (tried and not done)"), ("done", "Done")]

    def queryset(self, request, queryset):
        if self.value() == "owed":
            return queryset.filter(done_at__isnull=True)
        if self.value() == "failing":
            return queryset.filter(done_at__isnull=True).exclude(last_error="")
        if self.value() == "done":
            return queryset.filter(done_at__isnull=False)
        return queryset


@admin.register(FollowUp)
class FollowUpAdmin(admin.ModelAdmin):
    """After-commit work (games.follow_ups), read only: a listener that keeps failing shows here."""

    list_display = ["key", "attempts", "next_try_at", "done_at", "last_error"]
    list_filter = [OwedFilter, "topic", "listener"]
    search_fields = ["key"]
    readonly_fields = [f.name for f in FollowUp._meta.fields]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(TableMessage)
class ReportedMessageAdmin(admin.ModelAdmin):
    """Table talk a player reported: the staff read these, and only these (notes are never shown)."""

    list_display = ["created_at", "game", "author", "text", "reported_at", "reported_by"]
    fields = ["game", "author", "text", "source", "created_at", "reported_at", "reported_by"]
    readonly_fields = ["game", "author", "text", "source", "created_at", "reported_at", "reported_by"]
    ordering = ["-reported_at"]

    def get_queryset(self, request):
        return super().get_queryset(request).filter(reported_at__isnull=False).select_related("author", "game")

    def has_add_permission(self, request):
        return False
