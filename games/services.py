"""The one way a game changes: every move, from every channel, comes through here.

`submit_move` validates with the rules engine, appends the event(s) and the new
snapshot in one transaction under a row lock on the game, and fires follow-ups
(notifications, the computer's reply, ladder results) only after commit.
"""

import logging
import random
from dataclasses import dataclass, field

from django.db import IntegrityError, transaction
from django.utils import timezone

from games import cribbage, polls, signals, statements, trips
from games.models import CLOCK_EVENT_KINDS, PLAYER_SOURCES, Event, Game, Seat
from games.presenter import refusals

log = logging.getLogger(__name__)

# Shuffles must be unpredictable to players; the deck is then stored in the event.
_shuffler = random.SystemRandom()


class MoveRefused(Exception):
    """The service refused a move: nothing was written.

    `message` is in the words of the game pages (games.presenter.refusals); `code` and
    `params` are the engine's refusal (cribbage.REFUSALS, or cribbage.INVALID for
    words), or "stale", "game_over" or "not_seated", for channels that say it in their
    own words; `legal`, the moves the player may make now.
    """

    def __init__(self, message, legal=(), *, code="", params=None):
        super().__init__(message)
        self.message = message
        self.legal = list(legal)
        self.code, self.params = code, dict(params or {})


class UnreadableWords(MoveRefused):
    """The player's words make no move (the engine's InvalidMove)."""


class AgainstTheRules(MoveRefused):
    """A readable move the rules refuse now (the engine's IllegalMove)."""


class StaleMove(MoveRefused):
    """Made against a state the game has moved on from (a link, a form shown before)."""


class GameOver(MoveRefused):
    pass


class NotSeated(MoveRefused):
    """The player named as the mover holds no seat in the game."""


@dataclass
class MoveResult:
    game: Game
    events: list = field(default_factory=list)
    duplicate: bool = False
    move: cribbage.Move | None = None  # the move made (or made already, when `duplicate`), when a Move was given


def engine_state(game):
    return statements.state_of(game)


def submit_move(
    game, seat, move, *, expected_seq=None, source=Event.Source.WEB, idempotency_key=None, actor=None, rng=None
):
    """Apply one player's move to `game` for `seat`.

    `game` is a Game or its id: either way it and its seats are read once, under the game's
    row lock (a loaded Game is only asked its id). `seat` is a seat number, or the player (a
    User) whose seat moves (NotSeated if none). `move` is a `cribbage.Move` (or its JSON, as the
    log keeps it: {"kind": "play", "card": "7C"}), or a function of the locked game and the seat
    number that gives one (a form's move is read under the game's rules). With `expected_seq` (the sequence number the player
    saw), a move made against a state that has since moved on is refused as stale. With an
    `idempotency_key`, the same submission applied twice has the effect of once: the database's
    unique key refuses the second, and a second refused as stale or illegal is the first again.
    Refused: a `MoveRefused` (AgainstTheRules, StaleMove, GameOver, NotSeated), nothing written.
    """
    game_id = getattr(game, "pk", game)
    made = None  # the Move, when one was given
    try:
        with transaction.atomic():
            game, seats = statements.locked_with_seats(game_id)
            try:
                seat = _seat_number(seats, seat)
                if callable(move):
                    move = move(game, seat)
                if isinstance(move, cribbage.Move):
                    made, move = move.for_seat(seat), move.without_seat().to_json()
                state = _checked(game, seat, move, expected_seq)
            except MoveRefused:
                if idempotency_key and _submitted(game, idempotency_key):
                    return MoveResult(game=game, duplicate=True, move=made)
                raise
            # The log's JSON, its seat last as the log has always written it.
            first = new_event(game, {**move, "seat": seat}, seat, source, actor, idempotency_key)
            events = append_events(game, seats, state, [first], rng=rng)
    except IntegrityError:
        # Nothing was written (the insert is the move's first write); a key the log already has
        # is the same submission again, anything else a fault.
        if idempotency_key and _submitted(game, idempotency_key):
            return MoveResult(game=Game.objects.get(pk=game_id), duplicate=True, move=made)
        raise
    return MoveResult(game=game, events=events, move=made)


def submit_words(game, seat, words, **options):
    """Apply the move a player's `words` name ("play 7C", "the jack of clubs", "plan 7C 8D") to
    `game` for `seat`, as `submit_move` (its `options`) applies a move: the words are read by
    the engine (`cribbage.read_move`) against the game as it stands under its lock, so the
    phase, the hand and the rules they are read by are the ones the move is applied to.
    Refused as `submit_move` refuses, and as `UnreadableWords` when the words make no move (the
    engine's code in `code`); the result carries the `Move`.
    """

    def read(game, number):
        if game.is_finished:  # no words are read in a game that is over
            raise GameOver("This game is over.", code="game_over")
        try:
            return cribbage.read_move(engine_state(game), number, words)
        except cribbage.InvalidMove as exc:
            raise UnreadableWords(refusals.unreadable_message(exc), code=exc.code, params=exc.params) from exc

    return submit_move(game, seat, read, **options)


def _seat_number(seats, seat):
    if isinstance(seat, int):
        return seat
    for number, held in seats.items():
        if held.player_id is not None and held.player_id == getattr(seat, "pk", None):
            return number
    raise NotSeated("You do not play in this game.", code="not_seated")


def _checked(game, seat, move, expected_seq):
    """The state after `move` by `seat`, or the MoveRefused that refuses it."""
    state = engine_state(game)
    if game.is_finished:
        raise GameOver("This game is over.", code="game_over")
    if expected_seq is not None and (
        expected_seq > game.seq or expected_seq != game.seq and _moved_on_for(game, seat, expected_seq)
    ):
        # (A state the game never reached is no state a player saw: refused like a stale one.)
        raise StaleMove(
            "The game has moved on since that move was offered; here is where it stands now.",
            cribbage.moves_to_offer(state, seat),
            code="stale",
        )
    try:
        return cribbage.apply(state, {**move, "seat": seat})
    except cribbage.IllegalMove as exc:
        # Only the player's own moves, never the engine's message: it lists every seat's
        # legal moves (and, under muggins, the true counts), fine for a developer, a leak here.
        offered = cribbage.moves_to_offer(state, seat)
        raise AgainstTheRules(
            refusals.refusal_message(exc, offered), offered, code=exc.code, params=exc.params
        ) from exc


def _submitted(game, idempotency_key):
    return Event.objects.filter(game=game, idempotency_key=idempotency_key).exists()


def record_forfeit(game, seat, *, reason, source=Event.Source.ADMIN, actor=None):
    """End the game against `seat` (timeout, adjudication): the others win, no skunk."""
    return submit_move(game, seat, {"kind": "forfeit", "reason": reason}, source=source, actor=actor)


def _moved_on_for(game, seat, expected_seq):
    """Has anything this seat could see happened since `expected_seq`? (A discard link
    stays good while the others throw to the crib: cribbage.moved_on_for.)"""
    later = Event.objects.filter(game=game, seq__gt=expected_seq).engine_moves().values("kind", "seat")
    return cribbage.moved_on_for(seat, later.iterator())


def new_event(game, data, seat, source, actor=None, idempotency_key=None):
    """The log's row for the engine event `data` (not saved: the caller numbers it)."""
    return Event(
        game=game, kind=data["kind"], data=data, seat=seat, source=source, actor=actor, idempotency_key=idempotency_key
    )


def append_events(game, seats, state, events, *, rng=None):
    """Add the events that follow by themselves, write everything, update the game row
    (a move's, or a new game's opening deal: games.lifecycle.start_game).

    `seats` maps seat number to Seat (with its player). Chance events (the cut
    for deal, each deal) are drawn here, never in the engine, and forced plays
    are made for players who allow it.
    """
    rng = rng or _shuffler
    while not cribbage.is_over(state):
        chance = cribbage.needs_chance(state)
        if chance == "cut_for_deal":
            data = cribbage.cut_for_deal_event(state, _seeded(game, state) or rng)
        elif chance == "deal":
            data = cribbage.deal_event(state, _seeded(game, state) or rng)
        else:
            data = _forced_move(state, seats) or _planned_move(state, seats)
            if data is None:
                break
        state = cribbage.apply(state, data)
        source = Event.Source.SYSTEM if chance else Event.Source.PLAN if data.get("plan") else Event.Source.FORCED
        events.append(new_event(game, data, data.get("seat"), source))
        if chance == "deal":
            state = _standing_plans(game, seats, state, events)

    now = timezone.now()
    for offset, event in enumerate(events, start=1):
        event.seq = game.seq + offset
        event.created_at = now
    game.seq += len(events)
    changed = _note_seen(game, seats, events)
    game.snapshot = cribbage.state_to_json(state)
    game.updated_at = now
    if cribbage.is_over(state):
        outcome = cribbage.result(state)
        game.status = Game.Status.FINISHED
        game.finished_at = now
        game.winner_side = outcome["winner"]
        game.finish = outcome["reason"]
        game.skunk = outcome["skunk"] or ""
    started = _update_turns(game, seats, state, now, changed)
    _end_stand_ins(seats, events, changed)
    # The events, the game row and the seats the move changed (each seat with its own changed
    # fields), written out (games.statements): not bulk_update, whose building cost the POST of a
    # move more CPU than two short statements (bench web). On PostgreSQL they go in one trip with
    # what the receivers owe (the turn email's outbox row, the follow-ups).
    seat_changes = [(seats[number], sorted(changed[number])) for number in sorted(changed)]
    with trips.one_trip():
        statements.write_move(events, game, _MOVED_FIELDS, seat_changes, state)
        polls.remember(game, seats.values())
        signals.move_applied.send(sender=Game, game=game, seats=seats, state=state, events=events, started=started)
    return events


# What a move writes of the game row.
_MOVED_FIELDS = (
    "seq",
    "public_seq",
    "snapshot",
    "updated_at",
    "status",
    "finished_at",
    "winner_side",
    "finish",
    "skunk",
)


def _standing_plans(game, seats, state, events):
    """At each deal, each player's plan for every hand (User.standing_plan) becomes this hand's
    plan, a plan event in the log like one said by reply; a plan the player gives for the hand
    replaces it. A stored plan the engine refuses is left out, never failing the move."""
    for number, seat in sorted(seats.items()):
        rules = [] if seat.is_computer or seat.player is None else seat.player.standing_plan
        if not rules or cribbage.plan_of(state, number) is not None:
            continue
        data = {"kind": "plan", "seat": number, "order": [], "rules": list(rules)}
        try:
            state = cribbage.apply(state, data)
        except cribbage.IllegalMove:
            log.warning("The standing plan of seat %s in game %s was refused: %r.", number, game.pk, rules)
            continue
        events.append(new_event(game, data, number, Event.Source.PLAN))
    return state


def _note_seen(game, seats, events):
    """Move the sequence numbers readers see: everyone's for a public event, only its own
    seat's for a private one (a plan). The seats' changed fields, by seat number, to save."""
    public = [event.seq for event in events if event.kind not in cribbage.PRIVATE_KINDS]
    if public:
        game.public_seq = public[-1]
    changed: dict[int, set[str]] = {}
    for number in {event.seat for event in events if event.kind in cribbage.PRIVATE_KINDS}:
        seat = seats[number]
        seat.private_seq = max(event.seq for event in events if event.seat == number)
        changed.setdefault(number, set()).add("private_seq")
    return changed


def _seeded(game, state):
    """The rng of a seeded game's next chance event: the same at every table for the same hand."""
    if not game.deal_seed:
        return None
    return random.Random(f"{game.deal_seed}:{state.phase}:{state.hand_number}")


def _forced_move(state, seats):
    """The only legal play of a player who lets the service play it for them."""
    for number in cribbage.to_act(state):
        seat = seats[number]
        if seat.is_computer or not seat.player.allow_forced_moves:
            continue
        forced = cribbage.forced_move(state, number)
        if forced is not None:
            return forced
    return None


def _planned_move(state, seats):
    """The card a player's pegging plan plays now (the engine's `planned_move`), or None."""
    move = cribbage.planned_move(state)
    if move is None or seats[move["seat"]].is_computer:
        return None
    return move


def _end_stand_ins(seats, events, changed):
    """A player's own move ends the computer's standing in for them: the count starts again."""
    for number in {event.seat for event in events if event.source in PLAYER_SOURCES}:
        seat = seats[number]
        if seat.stand_in_moves:
            seat.stand_in_moves = 0
            changed.setdefault(number, set()).add("stand_in_moves")


def _update_turns(game, seats, state, now, changed):
    """Start and end the seats' turns for the new state; the numbers of the seats whose turn started.

    The clock sets each changed seat's deadline and reminders (games.signals.turns_changed);
    their Seat.TURN_FIELDS are noted in `changed` to be saved with the move's other seat changes.
    """
    acting = set(cribbage.to_act(state)) if not game.is_finished else set()
    turned = [seat for number, seat in seats.items() if (number in acting) != seat.to_act]
    if not turned:
        return set()
    for seat in turned:
        seat.to_act = not seat.to_act
    signals.turns_changed.send(sender=Game, game=game, seats=turned, now=now)
    for seat in turned:
        changed.setdefault(seat.number, set()).update(Seat.TURN_FIELDS)
    return {seat.number for seat in turned if seat.to_act}


def append_clock_event(game, data, *, seat, source, actor=None):
    """Append a clock event (kind in games.models.CLOCK_EVENT_KINDS) to the log of `game`.

    The caller, clock.events.record_clock_event, holds the game's row lock
    and changes the seats' clocks in the same transaction. The engine never
    sees these events: the snapshot is unchanged and replays skip them.
    """
    if data["kind"] not in CLOCK_EVENT_KINDS:
        raise ValueError(f"{data['kind']!r} is not a clock event")
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("append_clock_event needs the game locked in the caller's transaction")
    event = new_event(game, data, seat, source, actor)
    event.seq, event.created_at = game.seq + 1, timezone.now()
    event.save()
    game.seq = game.public_seq = event.seq
    game.save(update_fields=["seq", "public_seq"])
    polls.forget(game.pk)
    return game, event
