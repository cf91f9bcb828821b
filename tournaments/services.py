"""An event played out: starting it, its rounds and their games, and counting results. The admin and
the commands parse input, call one of these, render. Who is entered is tournaments.entries.

Every operation that changes an event locks its row and either does all it says or
raises TournamentError (nothing changed). Games are started through
games.lifecycle.start_game, so the players get the usual turn emails from the outbox;
results come back through games.signals.game_finished (tournaments.receivers).

The season's end (`Tournament.ends_on`) is kept: after that day the event does not start,
no round opens (by hand or when the one before completes: it waits, scheduled) and no
result from the table played after it is entered. A game already in play is played out
and counts, and so does the rest of a knockout pairing under way (a best of three begun in
the season ends as it began). Moving the end date later lets the event play on.
"""

import secrets

from django.db import transaction
from django.utils import timezone

from events.errors import EventError
from events.results import forfeit_checked, kind_of
from games import lifecycle, table_results
from games import services as game_services
from games.models import Game

from . import schedule, selectors
from .models import Entrant, Pairing, PairingGame, Round, Tournament


class TournamentError(EventError):
    """An operation that cannot be done; nothing was changed."""


def lock(tournament):
    """The event's row, locked for the transaction: every change to an event takes it first."""
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def check_dates(starts_on, ends_on):
    if starts_on and ends_on and ends_on < starts_on:
        raise TournamentError(
            f"The season ends ({ends_on:%d %b %Y}) before it starts ({starts_on:%d %b %Y}): nothing was changed."
        )


def require_season(tournament, now, what):
    if tournament.ended_by(now):
        raise TournamentError(
            f"The season ended on {tournament.ends_on:%d %b %Y}: {what}. Nothing was changed; "
            f"to play on, move the season's end later in the event's settings."
        )


# --- Starting and rounds ---------------------------------------------------------


def start(tournament, *, actor=None, now=None):
    """Fix the seeds, draw the schedule (or the bracket's first round) and open the first round(s)."""
    now = now or timezone.now()
    with transaction.atomic():
        tournament = lock(tournament)
        if tournament.status != Tournament.Status.DRAFT:
            raise TournamentError("The event has already started.")
        check_dates(tournament.starts_on, tournament.ends_on)
        require_season(tournament, now, "the event can no longer start")
        # An entry still waiting for approval when the event starts is not taken.
        tournament.entrants.filter(approved=False).delete()
        entrants = selectors.seeded(tournament)
        if tournament.kind == Tournament.Kind.KNOCKOUT and len(entrants) < 2:
            raise TournamentError(f"A knockout needs at least two entrants; it has {len(entrants)}.")
        if tournament.kind == Tournament.Kind.LEAGUE and len(entrants) < 2:
            raise TournamentError(f"A league needs at least two entrants; it has {len(entrants)}.")
        if tournament.kind == Tournament.Kind.CLUB_NIGHT:
            if len(entrants) < 2:
                raise TournamentError(f"A club night needs at least two entrants; it has {len(entrants)}.")
            # No schedule: the organiser opens each night (tournaments.club_nights).
            for number, entrant in enumerate(entrants, start=1):
                entrant.seed = number
            Entrant.objects.bulk_update(entrants, ["seed"])
            tournament.status = Tournament.Status.RUNNING
            tournament.save(update_fields=["status"])
            return tournament
        if tournament.kind == Tournament.Kind.DUPLICATE and len(entrants) < 4:
            raise TournamentError(
                f"A duplicate event needs at least four entrants (two tables on the same cards); "
                f"it has {len(entrants)}."
            )
        for number, entrant in enumerate(entrants, start=1):
            entrant.seed = number
        Entrant.objects.bulk_update(entrants, ["seed"])
        if tournament.kind == Tournament.Kind.KNOCKOUT:
            _create_round(tournament, 1, schedule.first_round(entrants))
        else:
            for number, pairs in enumerate(schedule.round_robin(entrants, legs=tournament.legs), start=1):
                _create_round(tournament, number, pairs)
        tournament.status = Tournament.Status.RUNNING
        tournament.save(update_fields=["status"])
        first = tournament.rounds.order_by("number")
        at_once = tournament.kind == Tournament.Kind.LEAGUE and tournament.all_rounds_at_start
        for rnd in first if at_once else first[:1]:
            _open(tournament, rnd, now=now)
        _complete_rounds(tournament, now=now)
    return tournament


def _create_round(tournament, number, pairs):
    rnd = Round.objects.create(tournament=tournament, number=number)
    Pairing.objects.bulk_create(
        Pairing(
            round=rnd,
            table=table,
            home=pair.home,
            away=pair.away,
            status=Pairing.Status.BYE if pair.is_bye else Pairing.Status.SCHEDULED,
            winner=pair.home if pair.is_bye else None,
        )
        for table, pair in enumerate(pairs, start=1)
    )
    return rnd


def open_round(rnd, *, actor=None, now=None):
    """An organiser opens a scheduled round: its games start and the players are told."""
    now = now or timezone.now()
    with transaction.atomic():
        tournament = lock(rnd.tournament)
        rnd = Round.objects.select_for_update().get(pk=rnd.pk)
        if tournament.status != Tournament.Status.RUNNING:
            raise TournamentError("The event is not under way: start it first.")
        if rnd.status != Round.Status.SCHEDULED:
            raise TournamentError(f"Round {rnd.number} is already {rnd.get_status_display().lower()}.")
        require_season(tournament, now, f"round {rnd.number} cannot open")
        _open(tournament, rnd, now=now)
        _complete_rounds(tournament, now=now)
    return rnd


def open_next_round(tournament, *, actor=None, now=None):
    """The first round still scheduled opens now (rounds otherwise open as the one before completes)."""
    following = tournament.rounds.filter(status=Round.Status.SCHEDULED).order_by("number").first()
    if following is None:
        raise TournamentError("No round is waiting to open.")
    return open_round(following, actor=actor, now=now)


def _open(tournament, rnd, *, now):
    rnd.status, rnd.opened_at = Round.Status.OPEN, now
    if tournament.kind == Tournament.Kind.DUPLICATE:
        rnd.deal_seed = secrets.token_hex(16)
    rnd.save(update_fields=["status", "opened_at", "deal_seed"])
    for pairing in rnd.pairings.filter(status=Pairing.Status.SCHEDULED).select_related("home__player", "away__player"):
        pairing.status = Pairing.Status.PLAYING
        pairing.save(update_fields=["status"])
        _start_game(tournament, rnd, pairing, number=1)


def _start_game(tournament, rnd, pairing, *, number, home_seat=0, first_dealer=None):
    players = [pairing.home.player, pairing.away.player]
    if home_seat == 1:
        players.reverse()
    duplicate = tournament.kind == Tournament.Kind.DUPLICATE
    game = lifecycle.start_game(
        players=players,
        settings=tournament.game_settings,
        rated=True,
        # In a duplicate round seat 0 deals first at every table, so each hand's cards go to
        # the same seat everywhere.
        first_dealer=0 if duplicate else first_dealer,
        deal_seed=rnd.deal_seed if duplicate else "",
    )
    return PairingGame.objects.create(pairing=pairing, game=game, number=number, home_seat=home_seat)


# --- Results ---------------------------------------------------------------------


def record_game_result(game_id, *, now=None):
    """Count a finished event game in its pairing (idempotent; nothing for other games).

    A knockout pairing plays on until one side has the wins it needs (the loser of a game
    deals first in the next); a round whose pairings are all decided completes, and the
    next one opens (the knockout's from the winners).
    """
    now = now or timezone.now()
    pending = PairingGame.objects.filter(game_id=game_id, counted=False).values_list(
        "pairing__round__tournament_id", flat=True
    )
    tournament_id = pending.first()
    if tournament_id is None:
        return None
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
        pg = (
            PairingGame.objects.select_for_update(of=("self",))
            .select_related("game", "pairing__round", "pairing__home__player", "pairing__away__player")
            .get(game_id=game_id)
        )
        game = pg.game
        if pg.counted or not game.is_finished:
            return None
        pairing = pg.pairing
        home_won = game.winner_side == pg.home_seat
        scores = game_services.engine_state(game).scores
        pg.counted, pg.kind = True, kind_of(game)
        pg.winner = pairing.home if home_won else pairing.away
        pg.home_score, pg.away_score = scores[pg.home_seat], scores[1 - pg.home_seat]
        pg.save()
        if home_won:
            pairing.home_wins += 1
        else:
            pairing.away_wins += 1
        needed = schedule.wins_needed(tournament.best_of) if tournament.kind == Tournament.Kind.KNOCKOUT else 1
        if max(pairing.home_wins, pairing.away_wins) >= needed:
            pairing.status = Pairing.Status.FINISHED
            pairing.winner = pairing.home if pairing.home_wins > pairing.away_wins else pairing.away
        pairing.save(update_fields=["home_wins", "away_wins", "status", "winner"])
        if pairing.status == Pairing.Status.PLAYING:
            # The loser of this game deals first in the next.
            loser_seat = 1 - pg.home_seat if home_won else pg.home_seat
            _start_game(tournament, pairing.round, pairing, number=pg.number + 1, first_dealer=loser_seat)
        _complete_rounds(tournament, now=now)
    return pg


def _complete_rounds(tournament, *, now):
    """Complete every open round whose pairings are all decided; open what follows."""
    while True:
        done = [
            rnd
            for rnd in tournament.rounds.filter(status=Round.Status.OPEN).order_by("number")
            if not rnd.pairings.filter(status__in=[Pairing.Status.SCHEDULED, Pairing.Status.PLAYING]).exists()
        ]
        if not done:
            return
        for rnd in done:
            rnd.status, rnd.completed_at = Round.Status.COMPLETE, now
            rnd.save(update_fields=["status", "completed_at"])
        last = done[-1]
        if tournament.kind == Tournament.Kind.KNOCKOUT:
            winners = [p.winner for p in last.pairings.order_by("table").select_related("winner__player")]
            if len(winners) == 1:
                _finish(tournament)
                return
            following = _create_round(tournament, last.number + 1, schedule.next_round(winners))
        else:
            following = tournament.rounds.filter(status=Round.Status.SCHEDULED).order_by("number").first()
            if following is None:
                if not tournament.rounds.exclude(status=Round.Status.COMPLETE).exists():
                    _finish(tournament)
                return
        if tournament.ended_by(now):
            return  # the round waits, scheduled, for a later end date (open_round)
        _open(tournament, following, now=now)


def _finish(tournament):
    tournament.status = Tournament.Status.FINISHED
    tournament.save(update_fields=["status"])


def forfeit_game(pairing_game, loser, *, reason, actor):
    """An organiser records a forfeit (or adjudicates an abandoned game) against `loser`."""
    pairing = pairing_game.pairing
    game = Game.objects.get(pk=pairing_game.game_id)
    sides = (pairing.home_id, pairing.away_id)
    reason = forfeit_checked(game, loser, sides, reason, refusal=TournamentError, what="pairing")
    seat = pairing_game.home_seat if loser.pk == pairing.home_id else 1 - pairing_game.home_seat
    try:
        game_services.record_forfeit(game, seat, reason=reason, actor=actor)
    except game_services.MoveRefused as exc:
        raise TournamentError(exc.message) from exc
    return record_game_result(game.pk)


def record_table_game(pairing, home_score, away_score, *, actor, played_on=None):
    """A league pairing played face to face on club night, entered by an organiser: a finished game
    played at the table (games.table_results.record_table_result) that counts like any (after commit).

    A pairing is played once, online or at the table: only one whose round has not opened (so no
    game of it is in play) takes a result from the table. TournamentError, nothing written, else.
    """
    with transaction.atomic():
        tournament = lock(pairing.round.tournament)
        pairing = (
            Pairing.objects.select_for_update(of=("self",))
            .select_related("home__player", "away__player")
            .get(pk=pairing.pk)
        )
        if tournament.kind != Tournament.Kind.LEAGUE:
            raise TournamentError("Results from the table are for league pairings: this event plays its own games.")
        if tournament.status != Tournament.Status.RUNNING:
            raise TournamentError("The event is not under way.")
        if pairing.status != Pairing.Status.SCHEDULED:
            raise TournamentError(
                "This pairing is already being played here (or is over): a pairing is played once, online or at "
                "the table. Enter club-night results for pairings of rounds not yet opened."
            )
        if tournament.ends_on and (played_on or timezone.localdate()) > tournament.ends_on:
            raise TournamentError(
                f"The season ended on {tournament.ends_on:%d %b %Y}: a game played after it does not count. "
                f"Nothing was entered."
            )
        try:
            game = table_results.record_table_result(
                [pairing.home.player, pairing.away.player],
                [home_score, away_score],
                entered_by=actor,
                played_on=played_on,
                variant=tournament.variant,
                target=tournament.target,
            )
        except table_results.TableResultError as exc:
            raise TournamentError(str(exc)) from exc
        pairing.status = Pairing.Status.PLAYING
        pairing.save(update_fields=["status"])
        return PairingGame.objects.create(pairing=pairing, game=game, number=1, home_seat=0)
