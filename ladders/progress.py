"""Where a ladder stands and its organiser's next steps (events.progress), for its admin page."""

from django.urls import reverse

from events.progress import NextAction, Progress


def of(ladder):
    entrants = ladder.entrants.filter(active=True).count()
    joining = "open to new players" if ladder.is_open else "closed to new players"
    state = f"Season {ladder.season}: {entrants} on the ladder, {joining}"
    if entrants < 2:
        explain = "A ladder needs two players or more: paste their addresses below (or players join on its page)."
    else:
        explain = "Players challenge each other by email or on its page; close the season to freeze its standings."

    def page(name, label):
        return NextAction(name, label, url=reverse(f"admin:ladders_ladder_{name}", args=[ladder.pk]))

    actions = [
        NextAction(
            "close_season",
            f"Close season {ladder.season}",
            f"Its standings are frozen and kept; season {ladder.season + 1} starts now, the rungs as they stand.",
        ),
        page("entrants", "Entrants: remove, reorder, away"),
        page("on_behalf", "Start a challenge or match for players"),
        page("club_night", "Record a face-to-face game"),
        page("announce", "Write to every entrant"),
        NextAction("page", "The ladder's page on the site", url=ladder.get_absolute_url()),
    ]
    if entrants < 2:
        actions.pop(0)  # nothing to close yet
    return Progress(state, explain, tuple(actions), takes_entrants=True)
