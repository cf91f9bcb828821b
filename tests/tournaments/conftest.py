import pytest


@pytest.fixture(autouse=True)
def _seeded(seeded_shuffles):
    """Every game here deals from the seeded shuffle (tests/conftest.py)."""


@pytest.fixture
def make_event(db):
    """An event with an organiser and `n` entrants (entry order A, B, C, ...): (event, [entrant, ...])."""
    from tests.factories import make_user
    from tournaments import entries
    from tournaments.models import Tournament

    def make(n=4, organiser=None, **settings):
        settings.setdefault("slug", f"event-{Tournament.objects.count() + 1}")
        settings.setdefault("name", settings["slug"].title())
        event = Tournament.objects.create(**settings)
        if organiser is not None:
            event.organisers.add(organiser)
        players = [make_user(display_name=name, allow_forced_moves=False) for name in "ABCDEFGHIJKLMNOP"[:n]]
        if players:
            entries.add_entrants(event, "\n".join(p.email for p in players), actor=organiser)
        return event, list(event.entrants.order_by("entered_at", "pk"))

    return make
