import pytest


@pytest.fixture(autouse=True)
def _seeded(seeded_shuffles):
    """Every game here deals from the seeded shuffle (tests/conftest.py)."""


@pytest.fixture
def make_ladder(db):
    """A ladder with organiser and entrants (top first); returns (ladder, [entrant, ...])."""
    from ladders import membership, seasons
    from ladders.models import Ladder
    from tests.factories import make_user

    def make(n=5, organiser=None, **rules):
        rules.setdefault("rematch_days", 0)
        rules.setdefault("slug", f"ladder-{Ladder.objects.count() + 1}")
        ladder = Ladder.objects.create(name=rules["slug"].title(), **rules)
        if organiser is not None:
            ladder.organisers.add(organiser)
        seasons.current_season(ladder)
        names = [*"ABCDEFGHIJKLMNOPQRSTUVWXYZ", *(f"Z{k}" for k in range(27, n + 1))]  # A to Z, then Z27...
        entrants = [
            membership.join(ladder, make_user(display_name=name, allow_forced_moves=False)) for name in names[:n]
        ]
        return ladder, entrants

    return make


@pytest.fixture
def two_ladders(make_ladder, organisers):
    first, second = organisers
    return make_ladder(4, organiser=first, slug="ladder-a"), make_ladder(3, organiser=second, slug="ladder-b")


@pytest.fixture
def ladder_state(db):
    """A function: everything on a ladder that a refused request must leave alone (positions,
    history, challenges, matches and their games, seasons), plus the admin log and the mail sent."""
    from django.contrib.admin.models import LogEntry
    from django.core import mail

    from games.models import Event, Game
    from ladders.models import Challenge, Ladder, LadderGame, LadderHistory, Match, Season

    def state(ladder):
        return {
            "ladder": Ladder.objects.filter(pk=ladder.pk).values().get(),
            "entrants": list(ladder.entrants.order_by("pk").values()),
            "history": list(LadderHistory.objects.filter(ladder=ladder).order_by("seq").values()),
            "challenges": list(Challenge.objects.filter(ladder=ladder).order_by("pk").values()),
            "matches": list(Match.objects.filter(ladder=ladder).order_by("pk").values()),
            "ladder_games": list(LadderGame.objects.filter(match__ladder=ladder).order_by("pk").values()),
            "games": list(
                Game.objects.filter(ladder_game__match__ladder=ladder)
                .order_by("pk")
                .values("pk", "status", "seq", "finish", "winner_side")
            ),
            "events": Event.objects.filter(game__ladder_game__match__ladder=ladder).count(),
            "seasons": list(Season.objects.filter(ladder=ladder).order_by("pk").values()),
            "admin_log": LogEntry.objects.count(),
            "mail": len(mail.outbox),
        }

    return state
