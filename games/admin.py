from django.contrib import admin

from .models import Event, Game, Seat


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ["number", "player", "computer_level", "team", "to_act", "deadline"]
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


class EventInline(admin.TabularInline):
    """The log, read-only: events are never edited; corrections are new events."""

    model = Event
    extra = 0
    fields = ["seq", "kind", "seat", "source", "actor", "data", "created_at"]
    readonly_fields = fields
    can_delete = False
    ordering = ["seq"]

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ["id", "__str__", "variant", "target", "status", "seq", "updated_at"]
    list_filter = ["status", "variant", "target", "muggins"]
    search_fields = ["seats__player__email", "seats__player__display_name"]
    readonly_fields = ["rules", "status", "seq", "snapshot", "winner_side", "finish", "skunk",
                       "created_at", "updated_at", "finished_at"]
    inlines = [SeatInline, EventInline]


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ["game", "seq", "kind", "seat", "source", "created_at"]
    list_filter = ["kind", "source"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
from games import clock_admin  # noqa: E402,F401  the "Overdue games" list (issue 7)
