"""Admin: "Overdue games": turns past their deadline, with an action to apply the timeout now."""

from django.contrib import admin, messages
from django.utils import timezone

from clock import timeouts
from games.admin import ReadOnlyAdmin
from games.models import OverdueSeat


@admin.register(OverdueSeat)
class OverdueGamesAdmin(ReadOnlyAdmin):
    list_display = ["game", "number", "player", "deadline", "overdue_by", "policy", "timed_out_at", "stand_in_moves"]
    list_select_related = ["game", "player"]
    list_filter = ["game__timeout_policy"]
    search_fields = ["player__email", "player__display_name", "game__id"]
    ordering = ["deadline"]
    actions = ["apply_timeout_now"]

    def get_queryset(self, request):
        return super().get_queryset(request).filter(to_act=True, deadline__lte=timezone.now())

    @admin.display(description="overdue by")
    def overdue_by(self, seat):
        late = timezone.now() - seat.deadline
        hours = int(late.total_seconds() // 3600)
        return f"{hours // 24} d {hours % 24} h"

    @admin.display(description="on timeout", ordering="game__timeout_policy")
    def policy(self, seat):
        return seat.game.get_timeout_policy_display()

    @admin.action(description="Apply the timeout now")
    def apply_timeout_now(self, request, queryset):
        outcomes = {}
        for seat in queryset:
            outcome = timeouts.settle(seat.pk, seat.game_id)
            outcomes[outcome] = outcomes.get(outcome, 0) + 1
        self.message_user(
            request, "Done: " + ", ".join(f"{n} {what}" for what, n in sorted(outcomes.items())), messages.SUCCESS
        )
