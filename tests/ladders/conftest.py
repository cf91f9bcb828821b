import random

import pytest


@pytest.fixture(autouse=True)
def _seeded_shuffles(monkeypatch):
    """Deterministic first deals, so games finished by tests.factories.finish_game play out the same."""
    from games import services

    monkeypatch.setattr(services, "_shuffler", random.Random(11))


@pytest.fixture
def make_ladder(db):
    """A ladder with organiser and entrants (top first); returns (ladder, [entrant, ...])."""
    from ladders import services
    from ladders.models import Ladder
    from tests.factories import make_user

    def make(n=5, organiser=None, **rules):
        rules.setdefault("rematch_days", 0)
        rules.setdefault("slug", f"ladder-{Ladder.objects.count() + 1}")
        ladder = Ladder.objects.create(name=rules["slug"].title(), **rules)
        if organiser is not None:
            ladder.organisers.add(organiser)
        services.current_season(ladder)
        entrants = [services.join(ladder, make_user(display_name=name, allow_forced_moves=False))
                    for name in "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[:n]]
        return ladder, entrants
    return make
