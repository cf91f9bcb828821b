"""ACC club nights: a season of nights at the club, each player playing nine games a night.

(Not ladders.club_night, which counts one face-to-face game on a ladder.)

The organiser opens a night, enters its games (or the players report them, each report counted
when the opponent confirms it; a disputed one waits for the organiser), and closes it: the night's
Grass Roots Points follow from its game points (tournaments.grass_roots), a player who won all nine
is awarded a Grand Slam, and every entrant is emailed the night's table and the season's. A game
counted is a finished Game played at the table (games.table_results), rated like any.

Nine games a player: a tenth is refused; a player with fewer when the night closes is named in
the organiser's message (a player who left early), not refused. Every operation locks the season's
row and does all it says or raises TournamentError (nothing changed).
"""

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from events.results import kind_of
from games import table_results
from mail import outbox
from mail.models import OutboundEmail

from . import grass_roots, selectors
from .models import Award, ClubNight, Entrant, NightGame, Tournament
from .services import TournamentError, lock

PENDING = (NightGame.Status.REPORTED, NightGame.Status.DISPUTED)


def _running(tournament):
    if tournament.kind != Tournament.Kind.CLUB_NIGHT:
        raise TournamentError("This event is not a club night season.")
    if tournament.status != Tournament.Status.RUNNING:
        raise TournamentError(
            "The season is not under way: start it first."
            if tournament.status == Tournament.Status.DRAFT
            else "The season is over."
        )


def _open_night(night):
    night = ClubNight.objects.select_for_update().get(pk=night.pk)
    if night.status != ClubNight.Status.OPEN:
        raise TournamentError(f"Night {night.number} is closed: its games can no longer change.")
    return night


def open_night(tournament, *, played_on=None, actor=None, now=None):
    """Open the season's next night (played on `played_on`, today by default)."""
    now = now or timezone.now()
    played_on = played_on or timezone.localdate(now)
    with transaction.atomic():
        tournament = lock(tournament)
        _running(tournament)
        if tournament.nights.filter(status=ClubNight.Status.OPEN).exists():
            raise TournamentError("A night is open already: close it before opening the next.")
        if played_on > timezone.localdate(now):
            raise TournamentError("A night cannot be played in the future: open it on the day.")
        if tournament.ends_on and played_on > tournament.ends_on:
            raise TournamentError(f"The season ended on {tournament.ends_on:%-d %b %Y}: no night opens after it.")
        last = tournament.nights.order_by("-number").first()
        return ClubNight.objects.create(
            tournament=tournament, number=(last.number + 1) if last else 1, played_on=played_on, opened_at=now
        )


def games_of(night, entrant):
    """The games of `entrant` in `night` that count or wait to (a disputed one apart)."""
    return night.games.filter(Q(first=entrant) | Q(second=entrant)).exclude(status=NightGame.Status.DISPUTED)


def _checked(night, first, second, first_score, second_score):
    """The two entrants of `night`'s season, reloaded; TournamentError for what cannot be."""
    if first.pk == second.pk:
        raise TournamentError(f"{first} is named twice: choose the two players of the game.")
    entrants = {e.pk: e for e in Entrant.objects.select_related("player").filter(pk__in=[first.pk, second.pk])}
    if len(entrants) != 2 or any(e.tournament_id != night.tournament_id or not e.approved for e in entrants.values()):
        raise TournamentError("Both players must be entrants of this season.")
    first, second = entrants[first.pk], entrants[second.pk]
    tournament = night.tournament
    problem = table_results.table_result_problem(
        [first.player, second.player],
        [first_score, second_score],
        variant=tournament.variant,
        target=tournament.target,
        played_on=night.played_on,
    )
    if problem:
        raise TournamentError(problem)
    for entrant in (first, second):
        if games_of(night, entrant).count() >= grass_roots.GAMES_A_NIGHT:
            raise TournamentError(f"{entrant} has nine games in this night already: a night is nine games a player.")
    return first, second


def _count(item, *, actor):
    """Write `item`'s game (finished, played at the table) and count it."""
    tournament = item.night.tournament
    try:
        game = table_results.record_table_result(
            [item.first.player, item.second.player],
            [item.first_score, item.second_score],
            entered_by=actor,
            played_on=item.night.played_on,
            variant=tournament.variant,
            target=tournament.target,
        )
    except table_results.TableResultError as exc:
        raise TournamentError(exc.message) from exc
    item.game, item.kind, item.status = game, kind_of(game), NightGame.Status.COUNTED
    item.winner = item.first if game.winner_side == 0 else item.second
    item.save()
    return item


def enter_game(night, first, second, first_score, second_score, *, actor):
    """The organiser enters a game of the night: counted at once."""
    return enter_games(night, [(first, second, first_score, second_score)], actor=actor)[0]


def enter_games(night, games, *, actor):
    """The organiser enters several games of the night (first, second, first's score, second's
    score), all counted, or none (TournamentError naming the game refused)."""
    with transaction.atomic():
        lock(night.tournament)
        night = _open_night(night)
        done = []
        for number, (first, second, first_score, second_score) in enumerate(games, start=1):
            try:
                first, second = _checked(night, first, second, first_score, second_score)
            except TournamentError as exc:
                raise TournamentError(f"Game {number}: {exc.message} Nothing was entered.") from exc
            item = NightGame(
                night=night, first=first, second=second, first_score=first_score, second_score=second_score
            )
            done.append(_count(item, actor=actor))
        return done


def entrant_of(tournament, user):
    entrant = tournament.entrants.filter(player=user, approved=True).select_related("player").first()
    if entrant is None:
        raise TournamentError(f"You are not entered in {tournament}.")
    return entrant


def report_game(night, reporter, opponent, my_score, their_score):
    """A player (`reporter`, a user) reports a game of the night against `opponent` (an entrant):
    it counts when the opponent confirms it."""
    with transaction.atomic():
        lock(night.tournament)
        night = _open_night(night)
        me = entrant_of(night.tournament, reporter)
        me, opponent = _checked(night, me, opponent, my_score, their_score)
        item = NightGame.objects.create(
            night=night, first=me, second=opponent, first_score=my_score, second_score=their_score, reported_by=reporter
        )
        # The opponent is asked to confirm it (on the season's page, or by replying to this email).
        outbox.owe(OutboundEmail.Kind.CLUB_NIGHT, opponent.player, f"report:{item.pk}", context={"report": item.pk})
        return item


def _pending(item):
    item = NightGame.objects.select_for_update().select_related("night__tournament", "first__player").get(pk=item.pk)
    if item.status == NightGame.Status.COUNTED:
        raise TournamentError("That game is counted already.")
    return item


def confirm_game(item, user):
    """The opponent of a reported game confirms it (or the organiser settles a disputed one): counted."""
    with transaction.atomic():
        lock(item.night.tournament)
        item = _pending(item)
        _open_night(item.night)
        tournament = item.night.tournament
        organiser = tournament.is_organiser(user)
        if not organiser:
            if item.second.player_id != user.pk:
                raise TournamentError("Only the opponent named in the report confirms it (or the organiser).")
            if item.status == NightGame.Status.DISPUTED:
                raise TournamentError("You disputed this game: the organiser decides it now.")
        return _count(item, actor=user)


def dispute_game(item, user):
    """The opponent says the report is wrong: it waits, uncounted, for the organiser."""
    with transaction.atomic():
        item = _pending(item)
        _open_night(item.night)
        if item.second.player_id != user.pk:
            raise TournamentError("Only the opponent named in the report disputes it.")
        item.status = NightGame.Status.DISPUTED
        item.save(update_fields=["status"])
        return item


def drop_game(item, *, actor):
    """The organiser drops a report not counted (a wrong or disputed one)."""
    with transaction.atomic():
        item = _pending(item)
        _open_night(item.night)
        item.delete()


def record_award(night, entrant, kind, *, actor):
    """The organiser records a 28 or 29 hand held by `entrant` in `night`."""
    if kind not in (Award.Kind.HAND_28, Award.Kind.HAND_29):
        raise TournamentError("Record a 28 or a 29 hand: a Grand Slam is recorded when the night closes.")
    if entrant.tournament_id != night.tournament_id:
        raise TournamentError("The player must be an entrant of this season.")
    return Award.objects.create(night=night, entrant=entrant, kind=kind)


def close_night(night, *, actor=None, now=None):
    """Close the night: its GRPs count in the season, a 9-0 night is awarded a Grand Slam, and
    every entrant is emailed the results. Refused while a report waits. Returns the players
    with fewer than nine games (named to the organiser)."""
    now = now or timezone.now()
    with transaction.atomic():
        tournament = lock(night.tournament)
        night = _open_night(night)
        waiting = night.games.filter(status__in=PENDING).count()
        if waiting:
            raise TournamentError(
                f"{waiting} reported game(s) wait for a confirmation or your decision: confirm or drop "
                f"them first. The night is still open."
            )
        entrants = list(tournament.entrants.filter(approved=True).select_related("player").order_by("entered_at", "pk"))
        ids = [e.pk for e in entrants]
        results = selectors.night_results(night)
        for entrant_id in grass_roots.grand_slams(ids, results):
            Award.objects.get_or_create(night=night, entrant_id=entrant_id, kind=Award.Kind.GRAND_SLAM)
        played = {e.pk: sum(e.pk in (r.seat0, r.seat1) for r in results) for e in entrants}
        short = [e for e in entrants if 0 < played[e.pk] < grass_roots.GAMES_A_NIGHT]
        night.status, night.closed_at = ClubNight.Status.CLOSED, now
        night.save(update_fields=["status", "closed_at"])
        _owe_results(tournament, entrants, f"night:{night.pk}", {"night": night.pk})
    return short


def finish_season(tournament, *, actor=None):
    """Close the season (no night open): the final table is emailed to every entrant."""
    with transaction.atomic():
        tournament = lock(tournament)
        _running(tournament)
        if tournament.nights.filter(status=ClubNight.Status.OPEN).exists():
            raise TournamentError("A night is still open: close it first.")
        tournament.status = Tournament.Status.FINISHED
        tournament.save(update_fields=["status"])
        entrants = list(tournament.entrants.filter(approved=True).select_related("player"))
        _owe_results(tournament, entrants, f"season:{tournament.pk}", {"season": tournament.pk})
    return tournament


def _owe_results(tournament, entrants, cause, context):
    outbox.write(
        outbox.owed(OutboundEmail.Kind.CLUB_NIGHT, e.player, f"{cause}:{e.player_id}", context=context)
        for e in entrants
    )
