"""Where a league, knockout, duplicate or club night season stands and its organiser's next step
(events.progress), for the event's admin page."""

from django.urls import reverse
from django.utils.formats import date_format

from events.progress import NextAction, Progress

from .models import ClubNight, Round, Tournament

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


def club_night(event):
    """A club night season: entrants (members join all season), start, then night after night."""
    season_page = reverse("admin:tournaments_tournament_nights", args=[event.pk])
    pages = (NextAction("nights", "Nights and the season's table", url=season_page), *_pages(event))
    entered = event.entrants.filter(approved=True).count()
    if event.status == Tournament.Status.DRAFT:
        if entered < 2:
            explain = (
                "A club night season starts with two entrants or more. Paste the members' addresses below "
                "(or players enter on the season's page); then start it here."
            )
            actions: tuple[NextAction, ...] = ()
        else:
            explain = "Add more members below, or start the season: members may still join while it runs."
            actions = (NextAction("start", "Start the season", "Then open its first night when the club meets."),)
        entrants_page = reverse("admin:tournaments_tournament_entrants", args=[event.pk])
        withdraw = NextAction("entrants", "Withdraw an entrant", url=entrants_page)
        return Progress(
            f"Taking entries: {entered} entered", explain, (*actions, withdraw, *pages), takes_entrants=True
        )
    if event.status == Tournament.Status.RUNNING:
        closed = event.nights.filter(status=ClubNight.Status.CLOSED).count()
        night = event.nights.filter(status=ClubNight.Status.OPEN).first()
        if night is not None:
            page = reverse("admin:tournaments_tournament_night", args=[event.pk, night.pk])
            return Progress(
                f"Under way: night {night.number} open, {entered} entrants",
                "Enter the night's games (nine a player) or count what the players reported, then close the "
                "night on its page: its Grass Roots Points count and every entrant is emailed the results.",
                (NextAction("night", f"Enter the games of night {night.number}", url=page), *pages),
                takes_entrants=True,
            )
        return Progress(
            f"Under way: {closed} night{'s' if closed != 1 else ''} played, {entered} entrants",
            "Open a night when the club meets (dated today; an earlier date on the nights page).",
            (
                NextAction("open_night", "Open a night", "Its games are entered on its own page."),
                NextAction("finish_season", "End the season", "Every entrant is emailed the final table."),
                *pages,
            ),
            takes_entrants=True,
        )
    return Progress("Finished", "The season is over; its table is final.", pages)


def of(event):
    if event.kind == Tournament.Kind.CLUB_NIGHT:
        return club_night(event)
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
        rounds_page = reverse("admin:tournaments_round_changelist") + f"?tournament__id__exact={event.pk}"
        actions.append(NextAction("pairings", "Pairings: forfeits, results from the table", url=pairings))
        actions.append(NextAction("rounds", "Rounds", url=rounds_page))
        return Progress(state, explain, (*actions, *_pages(event)))
    return Progress("Finished", "Every game is over; the standings are final.", _pages(event))
