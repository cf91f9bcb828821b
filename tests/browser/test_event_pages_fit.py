"""The event pages (standings, the bracket, the schedule, the organisers' admin) fit a phone
(390 px) and a desktop (1366 px; there the standings show whole, not scrolled in their box): measured as every other page is (test_every_page_fits),
with a screenshot of each in test-artifacts/events-<page>-<width>.png."""

import pytest
from django.urls import reverse

from tests.browser.fit import WIDTHS, logged_in, misfits
from tests.factories import make_user
from tournaments import entries, services
from tournaments.models import PairingGame, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _event(kind, count, slug, organiser, **settings):
    event = Tournament.objects.create(
        kind=kind, name=f"The {slug.replace('-', ' ')} of the club", slug=slug, **settings
    )
    event.organisers.add(organiser)
    players = [
        make_user(display_name=f"Entrant with a long name {slug} {n}", notify="none") for n in range(1, count + 1)
    ]
    entries.add_entrants(event, "\n".join(p.email for p in players), actor=organiser)
    services.start(event)
    return event


def _forfeit_some(event, how_many):
    """Decide the first games in play by forfeit (the home player loses), round after round."""
    for _ in range(how_many):
        pg = PairingGame.objects.filter(pairing__round__tournament=event, counted=False).order_by("pk").first()
        if pg is None:
            return
        services.forfeit_game(pg, pg.pairing.home, reason="no move", actor=None)


def test_event_pages_fit_a_phone_and_a_desktop(live_server, browser, artifacts, console_errors):
    organiser = make_user("olive@example.com", "Olive the organiser", is_staff=True)
    cup = _event(Tournament.Kind.KNOCKOUT, 12, "winter-cup", organiser, best_of=3)
    _forfeit_some(cup, 10)  # the first round done, the quarter-finals under way
    league = _event(Tournament.Kind.LEAGUE, 8, "spring-league", organiser, legs=2)
    _forfeit_some(league, 9)
    duplicate = _event(Tournament.Kind.DUPLICATE, 6, "duplicate-night", organiser)
    _forfeit_some(duplicate, 3)
    pairing = PairingGame.objects.filter(pairing__round__tournament=cup).first().pairing
    pages = [
        ("list", reverse("tournaments:list"), None),
        ("knockout", cup.get_absolute_url(), None),
        ("league", league.get_absolute_url(), None),
        ("duplicate", duplicate.get_absolute_url(), None),
        ("admin-events", reverse("admin:tournaments_tournament_changelist"), organiser),
        ("admin-event", reverse("admin:tournaments_tournament_change", args=[cup.pk]), organiser),
        ("admin-entrants", reverse("admin:tournaments_tournament_entrants", args=[league.pk]), organiser),
        ("admin-pairing", reverse("admin:tournaments_pairing_change", args=[pairing.pk]), organiser),
    ]
    problems, tabs = [], {}
    for name, path, who in pages:
        if who not in tabs:
            tabs[who] = logged_in(browser, live_server.url, who)
        tab = tabs[who]
        tab.set_viewport_size({"width": WIDTHS[0], "height": 844})
        response = tab.goto(live_server.url + path)
        if response is None or response.status >= 400:
            problems.append(f"{name}: HTTP {response.status if response else 0}")
        for width in WIDTHS:
            problems += misfits(tab, name, width)
            if width == 1366 and name in ("league", "duplicate"):
                # On a desktop the standings show whole: nothing scrolled out of sight at the right.
                box = tab.eval_on_selector(
                    ".event-standings", "t => [t.parentElement.scrollWidth, t.parentElement.clientWidth]"
                )
                if box[0] > box[1]:
                    problems.append(f"{name} at {width}px: the standings are cut off ({box[0]}px in {box[1]}px)")
            tab.screenshot(path=str(artifacts / f"events-{name}-{width}.png"), full_page=True)
        problems += [f"{name}: console error {error}" for error in console_errors]
        console_errors.clear()
    # The bracket is drawn: a round per column on a desktop, stacked on a phone.
    tab = tabs[None]
    tab.goto(live_server.url + cup.get_absolute_url())
    tab.set_viewport_size({"width": 1366, "height": 844})
    tops = tab.eval_on_selector_all(".bracket-round", "rs => rs.map(r => Math.round(r.getBoundingClientRect().top))")
    assert len(tops) == 4 and len(set(tops)) == 1
    tab.set_viewport_size({"width": 390, "height": 844})
    tops = tab.eval_on_selector_all(".bracket-round", "rs => rs.map(r => Math.round(r.getBoundingClientRect().top))")
    assert tops == sorted(tops) and len(set(tops)) == 4
    assert problems == [], "\n".join(problems)
