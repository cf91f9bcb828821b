"""Challenges and matches in the organisers' admin: accepting or withdrawing a challenge for a
player; a match's games and whose move is due; recording a forfeit and undoing a result."""

from django.contrib import admin, messages
from django.db.models import OuterRef, Subquery
from django.utils.html import format_html

from events.admin_actions import ForfeitAction
from events.scoped_admin import OrganisedEventFilter, ScopedInline
from games.models import Seat

from . import challenges, forms, matches, services
from .models import Challenge, LadderGame, Match
from .scoped_admin import ScopedAdmin


def first_move_due(**game):
    """The earliest deadline of a seat to act in the game(s) `game` selects (an OuterRef), for
    an annotation: one subquery instead of a query per row."""
    return Subquery(Seat.objects.filter(to_act=True, **game).order_by("deadline").values("deadline")[:1])


class LadderGameInline(ScopedInline):
    model = LadderGame
    extra = 0
    readonly_fields = (
        "number",
        "game_link",
        "deadline",
        "winner",
        "kind",
        "value",
        "challenger_score",
        "defender_score",
    )
    fields = readonly_fields
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False

    def get_queryset(self, request):
        # The match's sides for each row's title (LadderGame.__str__), the game for its link.
        return (
            super()
            .get_queryset(request)
            .select_related("game", "winner__player", "match__challenger__player", "match__defender__player")
            .annotate(move_due=first_move_due(game=OuterRef("game")))
        )

    @admin.display(description="game")
    def game_link(self, obj):
        # The game's public (spectator) page: the game admin would show the players' hidden cards.
        return format_html('<a href="{}">{}</a>', obj.game.get_absolute_url(), obj.game_id)

    @admin.display(description="move due by")
    def deadline(self, obj):
        return obj.move_due or "—"


class ChallengeAdmin(ScopedAdmin):
    list_display = ["ladder", "challenger", "defender", "status", "created_at", "respond_by", "created_by"]
    list_filter = ["status", ("ladder", OrganisedEventFilter)]
    readonly_fields = [f.name for f in Challenge._meta.fields]
    actions = ["accept_for_defender", "withdraw"]

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("ladder", "challenger__player", "defender__player")

    @admin.action(description="Accept on the defender's behalf (starts the match)")
    def accept_for_defender(self, request, queryset):
        self._each(request, queryset, lambda c: challenges.accept(c, actor=request.user), "Accepted")

    @admin.action(description="Withdraw")
    def withdraw(self, request, queryset):
        self._each(request, queryset, lambda c: challenges.withdraw(c, actor=request.user), "Withdrawn")


class MatchAdmin(ForfeitAction, ScopedAdmin):
    list_display = [
        "ladder",
        "challenger",
        "defender",
        "score",
        "status",
        "decided_by",
        "move_due_by",
        "started_at",
        "finished_at",
    ]
    list_filter = ["status", ("ladder", OrganisedEventFilter)]
    readonly_fields = [f.name for f in Match._meta.fields]
    inlines = [LadderGameInline]
    actions = ["record_forfeit", "undo_result"]

    def get_queryset(self, request):
        return (
            super()
            .get_queryset(request)
            .select_related("ladder", "challenger__player", "defender__player")
            .annotate(move_due=first_move_due(game__ladder_game__match=OuterRef("pk")))
        )

    @admin.display(description="game points")
    def score(self, obj):
        return f"{obj.challenger_points}–{obj.defender_points}"

    @admin.display(description="move due by")
    def move_due_by(self, obj):
        if obj.status != Match.Status.PLAYING:
            return "—"
        return obj.move_due or "—"

    forfeit_form = forms.ForfeitForm
    forfeit_counts = "the game counts as a win for the other player at the ladder's forfeit value"

    def forfeit_sides(self, match):
        return {"challenger": match.challenger, "defender": match.defender}

    def forfeit_game(self, ladder_game, loser, *, reason, actor):
        matches.forfeit_game(ladder_game, loser, reason=reason, actor=actor)

    @admin.action(description="Undo the result")
    def undo_result(self, request, queryset):
        form = forms.ReasonForm(request.POST if "apply" in request.POST else None)
        if form.is_bound and form.is_valid():
            for match in queryset:
                try:
                    matches.undo_result(match, actor=request.user, reason=form.cleaned_data["reason"])
                except services.LadderError as exc:
                    self.message_user(request, f"{match}: {exc.message}", messages.ERROR)
                else:
                    self.log_change(request, match, f"Undid the result: {form.cleaned_data['reason']}")
                    self.message_user(request, f"{match}: result undone.")
            return None
        return self._form_page(
            request,
            queryset,
            "Undo the result",
            form,
            "undo_result",
            "The match becomes void and the positions are worked out again as if "
            "it had never counted. The history keeps both entries.",
        )
