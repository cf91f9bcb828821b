"""Factories and helpers shared by every test package: users, games, time travel."""

import itertools
import random
import threading
from contextlib import contextmanager

import time_machine
from django.test import TestCase

from accounts.models import User
from games import cribbage, lifecycle, services
from games.cribbage import FULL_DECK, card_from_code, parse_cards, score_hand

_numbers = itertools.count(1)


def make_user(email=None, display_name=None, password="pw-Secret-123", **fields):
    """A saved player who can log in with ``password`` (None: no usable password).

    Unless told otherwise the address is unique and already confirmed.
    """
    n = next(_numbers)
    fields.setdefault("email_confirmed", True)
    return User.objects.create_user(
        email or f"player{n}@example.com", password, display_name=display_name or f"Player {n}", **fields
    )


def start_two_player_game(variant="two", players=None, rng=None, **settings):
    """A dealt game between new players (as many as the variant seats)."""
    from games.models import SEATS_BY_VARIANT

    if players is None:
        players = [make_user(allow_forced_moves=False) for _ in range(SEATS_BY_VARIANT[variant])]
    return lifecycle.start_game(players=players, variant=variant, rng=rng or random.Random(1), **settings)


def history(player, games):
    """`games` games of `player`, each against a new player: a third waiting for `player` (the first
    game among them), a third won by the other's timeout, a third waiting for the other."""
    for n in range(games):
        game = start_two_player_game(players=[player, make_user(allow_forced_moves=False)], rng=random.Random(n))
        if n % 3 == 1:
            services.record_forfeit(game, 1, reason="timeout")
        elif n % 3 == 2:
            hand = cribbage.view(services.engine_state(game), 0)["hand"]
            services.submit_move(game, 0, {"kind": "discard", "cards": hand[:2]})


def rated_history(player, games, seed=30):
    """`games` rated games of `player` entered from the table, written in bulk as
    record_table_result writes one (the game, its seats, its one event), a few hours apart up
    to now, against three regulars: two-player, every fourth a three-player one. The ratings
    and the tallies are then rebuilt from every game (as recompute_ratings does). The player's
    form rises then slumps, so the rating has a high and a low between its first and last."""
    import math
    from datetime import timedelta

    from django.utils import timezone

    from games.models import Event, Game, Seat
    from ratings import services as ratings_services
    from ratings import tallies

    rng = random.Random(seed)
    regulars = [make_user(allow_forced_moves=False) for _ in range(3)]
    now, states = timezone.now(), {}
    rows, seatings = [], []
    for n in range(games):
        variant = "three" if n % 4 == 3 else "two"
        form = 0.5 + 0.35 * math.sin(2 * math.pi * n / max(games, 2))  # the chance to win
        won = rng.random() < form
        others = rng.sample(regulars, 2 if variant == "three" else 1)
        losing = [rng.randrange(60, 120) for _ in others]
        scores = [121, *losing] if won else [losing[0], 121, *losing[1:]]
        key = (variant, tuple(scores))
        if key not in states:
            rules = cribbage.rules_for(variant)
            state = cribbage.apply(cribbage.new_game(rules), {"kind": "table_result", "scores": scores})
            states[key] = (rules, cribbage.state_to_json(state), cribbage.result(state))
        rules, snapshot, outcome = states[key]
        when = now - timedelta(hours=6 * (games - n))
        rows.append(
            Game(
                variant=variant,
                target=rules.target,
                rules=rules.to_json(),
                assistance=Game.Assistance.OFF_BY_RULE,
                rated=True,
                played_at_table=True,
                played_on=when.date(),
                status=Game.Status.FINISHED,
                seq=1,
                public_seq=1,
                snapshot=snapshot,
                winner_side=outcome["winner"],
                finish=Game.Finish.TARGET,
                skunk=outcome["skunk"] or "",
                created_at=when,
                updated_at=when,
                finished_at=when,
            )
        )
        seatings.append(([player, *others], scores))
    rows = Game.objects.bulk_create(rows, batch_size=1000)
    Seat.objects.bulk_create(
        [Seat(game=g, number=s, player=p, team=s) for g, (ps, _) in zip(rows, seatings) for s, p in enumerate(ps)],
        batch_size=1000,
    )
    Event.objects.bulk_create(
        [
            Event(
                game=g,
                seq=1,
                kind="table_result",
                data={"kind": "table_result", "scores": scores},
                source=Event.Source.ADMIN,
                created_at=g.finished_at,
            )
            for g, (_, scores) in zip(rows, seatings)
        ],
        batch_size=1000,
    )
    ratings_services.recompute()
    tallies.rebuild()
    return rows


def lose_on_time(player, times=1, wins=0):
    """`player` loses `times` games on time and wins `wins` by the other's timeout (games.reliability)."""
    for n in range(times + wins):
        game = start_two_player_game(players=[player, make_user()])
        services.record_forfeit(game, 0 if n < times else 1, reason="timeout")


def play_random_move(game, seat, rng=None, **kwargs):
    """Submit one random legal move for `seat` through the move service."""
    legal = cribbage.legal_moves(services.engine_state(game), seat)
    move = (rng or random).choice(legal)
    return services.submit_move(game, seat, move, rng=rng, **kwargs)


def moved_until(game, done, rng):
    """Random legal moves (every seat) until `done(state)` holds."""
    for _ in range(2000):
        state = services.engine_state(game)
        if done(state):
            return game
        game = play_random_move(game, cribbage.to_act(state)[0], rng=rng).game
    raise AssertionError("the game never reached the state asked for")


# --- Finished games with a chosen result ---------------------------------------
# Finish games (ladders use them) with a chosen result by real play through games.services.
#
# `finish_game` plays both seats with a stacked deck: each deal after the first
# gives the winner a 29 hand (starter 5S) and the loser a hand whose value steers
# them into the asked band (plain, skunk, double skunk). Every move is a real move through submit_move; nothing is written by hand.

STARTER = "5S"
STRONG = ["5H", "5D", "5C", "JS"]  # 29 with the 5S starter
LOSER_HANDS = [
    ["4H", "4D", "6H", "6D"],  # 24
    ["4H", "6H", "6D", "AC"],  # 12
    ["7C", "8D", "2H", "KS"],
]  # a few
_used = set(STRONG) | {STARTER} | {c for hand in LOSER_HANDS for c in hand}


def _value(codes):
    return score_hand(parse_cards(" ".join(codes)), card_from_code(STARTER)).total


def _junk(exclude):
    """The lowest-scoring keep (with the 5S starter) from cards not in `exclude`."""
    pool = [c.code for c in FULL_DECK if c.code not in exclude and c.rank != 5 and c.value != 10]
    best = min((keep for keep in itertools.combinations(pool[:24], 4) if len({c[1] for c in keep}) > 1), key=_value)
    return list(best)


JUNK_W = _junk(_used)  # the winner's hand while the loser catches up
JUNK_L = _junk(_used | set(JUNK_W))  # the loser's hand once high enough
LOSER_VALUES = [_value(h) for h in LOSER_HANDS]
_all = _used | set(JUNK_W) | set(JUNK_L)
_spare = [c.code for c in FULL_DECK if c.code not in _all]
# The four cards laid away to the crib each stacked hand: the lowest-scoring crib.
CRIB = list(
    min(
        itertools.combinations(_spare[:20], 4),
        key=lambda crib: score_hand(parse_cards(" ".join(crib)), card_from_code(STARTER), crib=True).total,
    )
)

BANDS = {"": (91, 120), "skunk": (61, 90), "double_skunk": (0, 60)}


class StackedDeck(random.Random):
    """An rng whose 52-card draws are the planned deal (plan = dealer, {seat: keep})."""

    def __init__(self, seed=5):
        super().__init__(seed)
        self.plan = None

    def sample(self, population, k):
        if k != 52 or self.plan is None:
            return super().sample(population, k)
        dealer, keeps = self.plan
        hands = {seat: keep + CRIB[2 * seat : 2 * seat + 2] for seat, keep in keeps.items()}
        pone = 1 - dealer
        order = [code for i in range(6) for code in (hands[pone][i], hands[dealer][i])]
        rest = [c for c in FULL_DECK if c.code not in set(order) | {STARTER}]
        super().shuffle(rest)
        return [card_from_code(c) for c in order] + [card_from_code(STARTER)] + rest


def _plan(state, winner, skunk):
    """Hands for the next deal: the winner's 29, and a loser's hand that steers them to mid-band."""
    loser = 1 - winner
    low, high = BANDS[skunk]
    aim = (low + high) // 2
    hands_left = max(1, -(-(121 - state.scores[winner]) // 33))
    wanted = (aim - state.scores[loser]) / hands_left - 3  # a few a hand from pegging
    keep = min(LOSER_HANDS + [JUNK_L], key=lambda hand: abs(_value(hand) - wanted))
    # When the loser cannot keep up, the winner marks time for a hand.
    near_the_end = state.scores[winner] >= 121 - 45 and state.scores[loser] < low
    return {winner: JUNK_W if wanted > 24 or near_the_end else STRONG, loser: keep}


def finish_game(game, winner, skunk="", max_moves=600):
    """Play `game` (a two-player game) to the end so seat `winner` wins with `skunk`."""
    rng = StackedDeck()
    for _ in range(max_moves):
        game.refresh_from_db()
        if game.is_finished:
            break
        state = services.engine_state(game)
        seat = cribbage.to_act(state)[0]
        moves = cribbage.legal_moves(state, seat)
        move = _choose(state, seat, moves, rng.plan[1].get(seat, []) if rng.plan else [])
        after = cribbage.apply(state, {**move, "seat": seat})  # the pure engine: what this move leads to
        if cribbage.needs_chance(after) == "deal":
            rng.plan = (1 - after.dealer, _plan(after, winner, skunk))
        services.submit_move(game, seat, move, rng=rng)
    game.refresh_from_db()
    assert game.is_finished and game.winner_side == winner and game.skunk == skunk, (
        game.winner_side,
        game.skunk,
        services.engine_state(game).scores,
    )
    return game


def _choose(state, seat, moves, planned):
    """The planned discard, else the first legal move."""
    kind = moves[0]["kind"]
    if kind == "discard":
        held = {c.code for c in state.hands[seat]}
        for move in moves:
            if held - set(move["cards"]) == set(planned) or not set(planned) <= held:
                return move
    return moves[0]


# --- Time travel -----------------------------------------------------------------
# Test helpers for the clock: travel in time with after-commit work (emails, follow-ups) run.


def admin_form_data(page, **changes):
    """What an admin change page's form posts as the page fills it (its fields, and each inline's
    management form and rows), with `changes`. `page`: the response to the change page's GET."""
    form = page.context["adminform"].form
    data = {}
    for name in form.fields:
        value = form[name].value()
        if value is True:
            data[name] = "on"
        elif value is not None and value is not False:
            data[name] = value
    for inline in page.context["inline_admin_formsets"]:
        management = inline.formset.management_form
        data.update({management.add_prefix(name): management[name].value() for name in management.fields})
        for row in inline.formset.forms:  # a superuser's rows carry their ids; an organiser's read-only rows none
            data.update({row.add_prefix(name): row[name].value() for name in row.fields if row[name].value()})
    data.update(changes)
    return data


@contextmanager
def committed():
    """Run what the code under test queues with transaction.on_commit (the test's transaction never commits)."""
    with TestCase.captureOnCommitCallbacks(execute=True):
        yield


@contextmanager
def at(moment):
    """Be at `moment` (the clock stands still), with on-commit work run at the end of the block."""
    with time_machine.travel(moment, tick=False), committed():
        yield


# --- Concurrency ---------------------------------------------------------------


def at_once(*calls):
    """Run the callables at the same moment, each in its own thread (and so its own
    database connection). Returns, in order, what each returned or the exception it raised."""
    from django.db import connection

    barrier = threading.Barrier(len(calls))
    outcomes = [None] * len(calls)

    def run(i, call):
        try:
            barrier.wait()
            outcomes[i] = call()
        except Exception as exc:  # the outcome under test
            outcomes[i] = exc
        finally:
            connection.close()  # the thread's own; kept connections (CONN_MAX_AGE) would outlive it

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return outcomes


def failures(outcomes):
    return [o for o in outcomes if isinstance(o, BaseException)]


def genuine(sender, authserv_id="mx.example.net"):
    """The headers the receiving mail server (trusted in tests.settings) writes above a genuine
    message from `sender`: SPF, DKIM and DMARC passing for the From domain."""
    domain = sender.rpartition("@")[2].strip(">").lower()
    return {
        "Authentication-Results": f"{authserv_id}; spf=pass smtp.mailfrom={domain}; "
        f"dkim=pass header.d={domain}; dmarc=pass header.from={domain}"
    }


def reviewed(game):
    """`game` (finished), once the worker has stored its review: the follow-up its end owed
    (games.reviews, a listener of game_finished), run as the worker runs it, for the tests whose
    transaction never commits (so no task was queued)."""
    from games import follow_ups, reviews
    from games.models import FollowUp

    owed = FollowUp.objects.filter(object_id=game.pk, listener=reviews.LISTENER, done_at__isnull=True)
    for row_id in owed.values_list("pk", flat=True):
        follow_ups.run(row_id)
    return game
