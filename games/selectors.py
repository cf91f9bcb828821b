"""Reading games: every page, email and JSON is rendered from these views (and the open
challenges and seeks that start games are read here too).

A view holds only what one person may know at the table (the engine's
`view`), plus who sits where: nothing here returns the engine's State or a
snapshot. Code that must see the whole table to act (the computer player,
the stand-in, the ladders' scores) reads `services.engine_state` and shows none of it.
"""

from dataclasses import dataclass, fields
from datetime import datetime

from django.db.models import Case, Count, IntegerField, Prefetch, Q, When

from accounts.models import User
from games import cribbage, reliability, statements
from games.cribbage import SeatView
from games.models import Challenge, Game, Seat


def seat_of(game, user):
    """The seat `user` holds in `game`, or None (a spectator)."""
    if user is None or not user.is_authenticated:
        return None
    return seat_held(game, user.pk)


def seat_held(game, player_id):
    """The seat the player `player_id` holds in `game`, or None (None: a spectator)."""
    if player_id is None:
        return None
    for seat in game.seats.all():
        if seat.player_id == player_id:
            return seat
    return None


def sealed_for(game, seat):
    """Must `game` be kept from this reader (seat None: a spectator)? Its cards are still being
    played at another table of a duplicate round (Game.cards_sealed)."""
    return seat is None and game.cards_sealed()


def people_played(user, most=200):
    """The other people `user` has sat at a table with (names to offer when naming opponents)."""
    return (
        User.objects.filter(seats__game__seats__player=user, is_active=True)
        .exclude(pk=user.pk)
        .distinct()
        .order_by("display_name")[:most]
    )


def with_seats(games):
    """`games` (a Game queryset) with their seats and players fetched at once: what
    `view_for` and `seats_with_players` read without a query of their own."""
    return games.prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("player")))


def game_with_seats(game_id):
    """`with_seats(Game.objects.all()).get(pk=game_id)` written out (games.statements), for the
    pages and emails read most: the ORM spent more CPU building the game, its prefetch and their
    SQL (about 1.9 ms) than the database spent answering. The same instances: `game.seats.all()`
    gives the seats in order, each with its game and its player."""
    return game_with_seats_then(game_id, None)[0]


def game_with_seats_then(game_id, then):
    """(`game_with_seats(game_id)`, the rows of `then`: a statement and its parameters read in
    the same trip (statements.game_and_seats), or None with none)."""
    game, seats, *rows = statements.game_and_seats(game_id, then=then)
    # As prefetch_related leaves it: the related manager's queryset, already filled.
    prefetched = game.seats.get_queryset()
    prefetched._result_cache, prefetched._prefetch_done = seats, True
    game._prefetched_objects_cache = {"seats": prefetched}
    return game, rows[0] if rows else None


def seats_with_players(game):
    """The game's seats with their players, from a prefetch when there is one."""
    prefetched = getattr(game, "_prefetched_objects_cache", {})
    if "seats" in prefetched:
        return list(prefetched["seats"])
    return list(game.seats.select_related("player"))


@dataclass(frozen=True)
class PlayerAtTable:
    """One seat at the table as every reader sees it: who sits there, on which team, whether the
    computer plays it, whether it is to act and by when."""

    seat: int
    name: str
    team: int
    is_computer: bool
    to_act: bool
    deadline: datetime | None

    def to_json(self) -> dict:
        return {f.name: getattr(self, f.name) for f in fields(self)}


@dataclass(frozen=True, kw_only=True)
class TableView(SeatView):
    """What one seat (None: a spectator) may see of a game: the engine's `SeatView` and the game's
    own facts (who sits where, the moves to offer, the state's number, the variant). `to_json()`
    is the plain data the pages' scripts and the JSON read, the same keys in the same order."""

    game_id: int
    seq: int
    variant: str
    variant_label: str
    target: int
    muggins: bool
    status: str
    viewer: int | None
    players: tuple[PlayerAtTable, ...]
    legal_moves: tuple[dict, ...]  # the engine's moves as a player may be shown them (moves_to_offer)

    def to_json(self) -> dict:
        seat_part = SeatView(**{f.name: getattr(self, f.name) for f in fields(SeatView)})
        return {
            **seat_part.to_json(),
            "game_id": self.game_id,
            "seq": self.seq,
            "variant": self.variant,
            "variant_label": self.variant_label,
            "target": self.target,
            "muggins": self.muggins,
            "status": self.status,
            "viewer": self.viewer,
            "players": [p.to_json() for p in self.players],
            "legal_moves": list(self.legal_moves),
        }


def view_for(game, seat=None) -> TableView:
    """What seat number `seat` (None: a spectator) may see of `game` (`to_json()`: as plain data)."""
    state = statements.state_of(game)
    seen = cribbage.seat_view(state, seat)
    seats = seats_with_players(game)
    reader = next((s for s in seats if s.number == seat), None) if seat is not None else None
    return TableView(
        **{f.name: getattr(seen, f.name) for f in fields(SeatView)},
        game_id=game.pk,
        seq=game.seen_seq(reader),
        variant=game.variant,
        variant_label=game.get_variant_display(),
        target=game.target,
        muggins=game.muggins,
        status=game.status,
        viewer=seat,
        players=tuple(
            PlayerAtTable(
                seat=s.number,
                name=str(s),
                team=s.team,
                is_computer=s.is_computer,
                to_act=s.to_act,
                deadline=s.deadline,
            )
            for s in seats
        ),
        legal_moves=tuple(cribbage.moves_to_offer(state, seat)) if seat is not None and not game.is_finished else (),
    )


def live_hand_without_help(user, cards, overlap=4):
    """The user's game in play, without the engine's help, whose hand this deal holds at least
    `overlap` of `cards`; None when there is none. The calculator's discard analyser will not
    advise on it: fair play is the same on the site as in the game."""
    if not getattr(user, "is_authenticated", False):
        return None
    wanted = {str(c) for c in cards}
    seats = Seat.objects.filter(player=user, game__status=Game.Status.ACTIVE).select_related("game")
    for seat in seats:
        if seat.game.help_allowed_for(seat.number):
            continue
        view = view_for(seat.game, seat.number)
        dealt = set(view.hand) | set(view.kept) | set(view.my_discards)
        if len(dealt & wanted) >= overlap:
            return seat.game
    return None


def move_made_since(game, seat, seq, move):
    """Did `seat` make `move` (a cribbage.Move) as its next move after state `seq`? (A used move link, or one
    whose move was made another way: by reply, on the site.)"""
    later = game.events.engine_moves().filter(seq__gt=seq, seat=seat, kind=move.kind)
    nxt = later.order_by("seq").only("data").first()
    return nxt is not None and move.same_choice(nxt.data)


def challenges_for(user):
    """Open challenges `user` made or was named in (seeks included), newest first."""
    return (
        Challenge.objects.filter(status=Challenge.Status.OPEN)
        .filter(Q(challenger=user) | Q(places__player=user))
        .distinct()
        .select_related("challenger")
        .prefetch_related("places__player")
    )


def open_seeks():
    """Every open seek, oldest first (first come, first served)."""
    return (
        Challenge.objects.filter(is_seek=True, status=Challenge.Status.OPEN)
        .select_related("challenger")
        .prefetch_related("places__player")
        .order_by("created_at")
    )


def waiting_for(challenge, user):
    """Has `user` a place in `challenge` that they have not yet accepted?"""
    return any(p.player_id == user.pk and p.accepted_at is None for p in challenge.places.all())


def seek_board(variant=None, min_reliability=None):
    """The open seeks (oldest first), of `variant` only when given, and only those whose challenger
    is at least `min_reliability` percent reliable when given (a challenger with no figure stays,
    as a floor never keeps out a newcomer). Each seek carries `challenger_reliability`, its
    challenger's games.reliability.Reliability: two queries and the seeks' own, however many."""
    seeks = open_seeks()
    if variant:
        seeks = seeks.filter(variant=variant)
    seeks = list(seeks)
    figures = reliability.reliability_figures([s.challenger_id for s in seeks])
    shown = []
    for seek in seeks:
        seek.challenger_reliability = figures[seek.challenger_id]
        if not seek.challenger_reliability.below(min_reliability):
            shown.append(seek)
    return shown


def games_for(user):
    """The player's games: their turn first, then the others, then practice, then finished ones.

    Practice games are apart: untimed, they would otherwise sit in "your turn" forever.
    """
    mine = Seat.objects.filter(player=user)
    return with_seats(
        Game.objects.filter(seats__in=mine)
        .annotate(
            order=Case(
                When(status=Game.Status.FINISHED, then=3),
                When(practice=True, then=2),
                When(seats__in=mine.filter(to_act=True), then=0),
                default=1,
                output_field=IntegerField(),
            )
        )
        .order_by("order", "-updated_at")
        .distinct()
    )


def games_counted(user):
    """How many of the player's games are in each list of My games, in one query: {"your_turn",
    "waiting", "practice", "finished"} (a player holds one seat a game)."""
    finished = Q(game__status=Game.Status.FINISHED)
    return Seat.objects.filter(player=user).aggregate(
        finished=Count("pk", filter=finished),
        practice=Count("pk", filter=~finished & Q(game__practice=True)),
        your_turn=Count("pk", filter=~finished & Q(game__practice=False, to_act=True)),
        waiting=Count("pk", filter=~finished & Q(game__practice=False, to_act=False)),
    )


def record_for(game, seat=None):
    """The record of `game` as seat number `seat` (None: a spectator) may read it.

    Built by replaying the log through the engine and keeping, hand by hand,
    only what that reader saw at the table: their own cards, every play and
    peg, and the show. Other hands appear only as they were shown.
    """
    rules = cribbage.Rules.from_json(game.rules)
    names = {s.number: str(s) for s in game.seats.all()}
    state = cribbage.new_game(rules, first_dealer=game.first_dealer)
    hands, cuts, current = [], None, None
    for event in game.events.engine_moves().only("data"):
        if event.data["kind"] == "deal" and current is not None:
            hands.append(_closed_hand(current, cribbage.seat_view(state, seat)))
        state = cribbage.apply(state, event.data)
        view = cribbage.seat_view(state, seat)
        if event.data["kind"] == "cut_for_deal":
            cuts = list(view.cuts)
        elif event.data["kind"] == "deal":
            current = {"number": view.hand_number, "dealer": view.dealer, "dealt": list(view.hand)}
    if current is not None:
        hands.append(_closed_hand(current, cribbage.seat_view(state, seat)))
    return {
        "game_id": game.pk,
        "variant": game.variant,
        "target": game.target,
        "muggins": game.muggins,
        "players": [{"seat": n, "name": name} for n, name in sorted(names.items())],
        "sides": [" & ".join(names[n] for n in rules.seats_of(side)) for side in range(rules.sides)],
        "reader_seat": seat,
        "cuts": cuts,
        "hands": hands,
        "result": _result(game, names),
    }


def open_deals(game):
    """Every hand of `game` with every seat's cards open (games.cribbage.deal_records), or None
    while they could tell something still hidden: the game is in play, or another table of its
    duplicate round still plays the same cards (Game.cards_sealed)."""
    if not game.is_finished or game.cards_sealed():
        return None
    moves = (event.data for event in game.events.engine_moves().only("data"))
    return cribbage.deal_records(cribbage.Rules.from_json(game.rules), moves, game.first_dealer)


def _closed_hand(hand, view):
    return {
        **hand,
        "starter": view.starter,
        "plays": list(view.plays),
        "records": list(view.records),
        "shows": list(view.shows),
        "scores": list(view.scores),
    }


def _result(game, names):
    if not game.is_finished:
        return None
    rules = cribbage.Rules.from_json(game.rules)
    winners = [names[n] for n in rules.seats_of(game.winner_side)]
    return {"winner_side": game.winner_side, "winners": winners, "finish": game.finish, "skunk": game.skunk or None}


def _record_words(rec):
    """What a score record said aloud; under muggins, what the claim missed."""
    if rec.get("text"):
        return f": {rec['text']}"
    if rec["phase"] == "muggins":
        return " (muggins)"
    if rec.get("missed"):
        return f" (claimed; {rec['missed']} missed)"
    return ""


def record_text(record):
    """The record as plain text, one line per deal, play, peg and count."""
    names = {p["seat"]: p["name"] for p in record["players"]}
    lines = [
        f"Game {record['game_id']}: {' v '.join(names.values())}",
        f"{record['variant']} to {record['target']}" + (", muggins" if record["muggins"] else ""),
    ]
    for hand in record["hands"]:
        lines += ["", f"Hand {hand['number']}: {names[hand['dealer']]} deals."]
        if hand["dealt"]:
            lines.append(f"  Dealt to you: {' '.join(hand['dealt'])}")
        if hand["starter"]:
            lines.append(f"  Starter: {hand['starter']}")
        for play in hand["plays"]:
            what = "go" if play["go"] else f"plays {play['card']} ({play['count']})"
            peg = f", pegs {play['points']}" if play["points"] else ""
            lines.append(f"  {names[play['seat']]} {what}{peg}")
        for rec in hand["records"]:
            lines.append(f"  {names[rec['seat']]} scores {rec['points']} in the {rec['phase']}{_record_words(rec)}")
        if hand["scores"]:
            lines.append(
                "  Scores: " + ", ".join(f"{side} {score}" for side, score in zip(record["sides"], hand["scores"]))
            )
    result = record["result"]
    if result:
        skunk = {"skunk": " with a skunk", "double_skunk": " with a double skunk"}.get(result["skunk"], "")
        lines += ["", f"Won by {' and '.join(result['winners'])} ({result['finish']}){skunk}."]
    return "\n".join(lines) + "\n"
