"""Where a league, knockout or duplicate stands and its organiser's next step (events.progress),
for the event's admin page."""

from django.urls import reverse
from django.utils.formats import date_format

from events.progress import NextAction, Progress

from .models import Round, Tournament

# The fewest entrants each kind starts with (tournaments.services.start refuses fewer).
FEWEST = {Tournament.Kind.DUPLICATE: 4}


def _rounds_in_words(numbers):
    if len(numbers) == 1:
        return f"round {numbers[0]}"
    return f"rounds {', '.join(str(n) for n in numbers[:-1])} and {numbers[-1]}"


def _pages(event):
    return (
        NextAction(
            "announce", "Write to the entrants", url=reverse("admin:tournaments_tournament_announce", args=[event.pk])
        ),
        NextAction("page", f"The {event.noun}'s page on the site", url=event.get_absolute_url()),
    )


def of(event):
    noun = event.noun
    entrants_page = reverse("admin:tournaments_tournament_entrants", args=[event.pk])
    if event.status == Tournament.Status.DRAFT:
        entered = event.entrants.filter(approved=True).count()
        waiting = event.entrants.filter(approved=False).count()
        state = f"Taking entries: {entered} entered" + (f", {waiting} waiting for your approval" if waiting else "")
        fewest = FEWEST.get(event.kind, 2)
        actions = []
        if waiting:
            actions.append(NextAction("approve", "Approve or refuse entries", url=entrants_page))
        if event.season_ended:
            explain = (
                f"The season ended on {date_format(event.ends_on)}: the {noun} can no longer start. "
                "Move the season's end later below to start it."
            )
        elif entered < fewest:
            explain = (
                f"A {noun} starts with {fewest} entrants or more. Paste their addresses below "
                "(or players enter on the event's page); then start it here."
            )
        else:
            explain = "Add more entrants below, or start when everyone is in."
            actions.insert(
                0,
                NextAction(
                    "start",
                    f"Start the {noun}",
                    "Entries close, the seeds are fixed, the schedule is drawn and round 1's games begin "
                    "(every player gets an email).",
                ),
            )
        actions.append(NextAction("entrants", "Withdraw an entrant", url=entrants_page))
        return Progress(state, explain, (*actions, *_pages(event)), takes_entrants=not event.season_ended)
    if event.status == Tournament.Status.RUNNING:
        rounds = list(event.rounds.order_by("number").values_list("number", "status"))
        playing = [n for n, status in rounds if status == Round.Status.OPEN]
        waiting = [n for n, status in rounds if status == Round.Status.SCHEDULED]
        state = f"Under way: {_rounds_in_words(playing)} being played" if playing else "Under way"
        actions = []
        if waiting and event.season_ended:
            explain = (
                f"The season ended on {date_format(event.ends_on)}: the games under way are played out; "
                f"round {waiting[0]} waits. Move the season's end later below to play on."
            )
        elif waiting:
            explain = (
                f"Round {waiting[0]} opens by itself when every game before it is over; you may open it now instead."
                if playing
                else f"Round {waiting[0]} is next."
            )
            actions.append(
                NextAction("open_next_round", f"Open round {waiting[0]}", "Its games begin now; the players are told.")
            )
        else:
            explain = (
                "The rounds to come are drawn as the winners are known."
                if event.kind == Tournament.Kind.KNOCKOUT
                else "Every round is open: the event ends when its last game is over."
            )
        pairings = reverse("admin:tournaments_pairing_changelist") + f"?round__tournament__id__exact={event.pk}"
        actions.append(NextAction("pairings", "Pairings: forfeits, results from the table", url=pairings))
        return Progress(state, explain, (*actions, *_pages(event)))
    return Progress("Finished", "Every game is over; the standings are final.", _pages(event))
