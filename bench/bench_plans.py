"""Round trips with and without pegging plans: decisions per player per game, emails per player per hand.

Simulated players play seeded games of every variant through the real move
service (games.services.submit_move) and its outbox, in a throwaway test
database on DATABASE_URL. A player answers each turn email with one reply,
its instructions applied in one transaction as mail.game_replies applies a
reply's lines; an owed turn email counts as sent when, right after that
commit, its seat is still to act and no newer turn email for it is owed
(the outbox's own test before sending). Players pick their cards at random
(seeded); under muggins they claim and count exactly, and a player who plans
says the count of their hand ahead in any play reply (once the starter is turned).

Plans: "none" (one card a reply), "full" (the discard reply also plans the
kept cards, in a random order), "score first" (the discard reply plans
"score first" alone: the other turns ask), "standing" (every player keeps a plan for every
hand, "score first, low first", User.standing_plan: the discard reply is the discard alone).
BENCH_PLAN_GAMES games of each
(200 unless set); BENCH_PLAN_ONLY=muggins,three runs only the variants whose
label holds one of the words. Prints figures; asserts nothing.
"""

import os
import random
import statistics
from collections import Counter

import django

GAMES = int(os.environ.get("BENCH_PLAN_GAMES", "200"))
VARIANTS = [
    ("two, to 121", {"variant": "two"}),
    ("two, to 61", {"variant": "two", "target": 61}),
    ("muggins, to 61", {"variant": "two", "target": 61, "muggins": True}),
    ("three players", {"variant": "three"}),
    ("four, partnerships", {"variant": "four"}),
    ("five-card", {"variant": "five_card"}),
]
PLANS = ["none", "full", "score first", "standing"]
STANDING = [{"rule": "score_first"}, {"rule": "low_first"}]


def main():
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cribsite.settings")
    django.setup()
    from django.db import connection
    from django.test.utils import setup_databases, teardown_databases

    from cribsite.celery import app

    # Nothing consumes this in-memory broker: the outbox rows are what is counted.
    app.conf.update(task_always_eager=False, broker_url="memory://", result_backend="cache+memory://")
    old = setup_databases(verbosity=0, interactive=False, serialized_aliases=())
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:  # a throwaway database: no need to wait for the disk
            cursor.execute("SET synchronous_commit TO off")
    try:
        print(f"database: {connection.vendor}; {GAMES} seeded games of each variant and kind of plan")
        _run()
    finally:
        teardown_databases(old, verbosity=0)


def _mean_ci(values):
    mean = statistics.mean(values)
    half = 1.96 * statistics.stdev(values) / len(values) ** 0.5 if len(values) > 1 else 0.0
    return f"{mean:6.2f} ± {half:4.2f}"


def _run():
    from accounts.models import User

    users = [User.objects.create_user(f"plans{i}@example.com", None, display_name=f"P{i}") for i in range(4)]
    print(
        f"{'variant':20} {'plans':12} {'decisions/player/game':>22} {'replies/player/game':>20} "
        f"{'emails/player/hand':>19} {'median':>6} {'p90':>4}"
    )
    only = os.environ.get("BENCH_PLAN_ONLY", "")
    for label, settings in VARIANTS:
        if only and not any(word in label for word in only.split(",")):
            continue
        for plans in PLANS:
            for user in users:
                user.standing_plan = STANDING if plans == "standing" else []
                user.save(update_fields=["standing_plan"])
            decisions, replies, per_hand, hand_counts = [], [], [], []
            for seed in range(GAMES):
                d, r, e = _play(settings, plans, random.Random(f"{label}/{seed}"), users)
                decisions += d
                replies += r
                per_hand += [sum(e) / len(e)] if e else []
                hand_counts += e
            hand_counts.sort()
            print(
                f"{label:20} {plans:12} {_mean_ci(decisions):>22} {_mean_ci(replies):>20} "
                f"{_mean_ci(hand_counts):>19} {statistics.median(hand_counts):>6} "
                f"{hand_counts[int(0.9 * len(hand_counts)) - 1]:>4}",
                flush=True,
            )


def _play(settings, plans, rng, users):
    """One game: the decisions and replies of each seat, and the emails of each seat in each hand."""
    from django.db import transaction

    from games import cribbage, lifecycle, services
    from games.models import Event
    from mail.models import OutboundEmail

    players = cribbage.rules_for(settings["variant"]).players
    game = lifecycle.start_game(players=users[:players], rng=rng, **settings)
    decisions, replies = Counter(), Counter()
    emails = Counter()  # (hand, seat) -> emails
    seen = _count_sent(game, 0, emails)
    while not game.is_finished:
        state = services.engine_state(game)
        seat = cribbage.to_act(state)[0]
        moves = _reply(state, seat, plans, rng)
        with transaction.atomic():
            for move in moves:
                if game.is_finished:  # the line before ended it (mail.game_replies answers "over")
                    break
                game = services.submit_move(game, seat, move, source=Event.Source.EMAIL, rng=rng).game
        decisions[seat] += len(moves)
        replies[seat] += 1
        seen = _count_sent(game, seen, emails)
    hands = services.engine_state(game).hand_number
    per_hand = [emails[hand, seat] for hand in range(1, hands + 1) for seat in range(players)]
    OutboundEmail.objects.filter(game=game).delete()
    return ([decisions[s] for s in range(players)], [replies[s] for s in range(players)], per_hand)


def _count_sent(game, after, emails):
    """Count the turn emails owed since row `after` that the outbox would send now; the last row id."""
    from games import services
    from games.models import Seat
    from mail.models import OutboundEmail

    rows = list(
        OutboundEmail.objects.filter(game=game, kind=OutboundEmail.Kind.TURN, pk__gt=after)
        .order_by("pk")
        .values_list("pk", "seat")
    )
    if not rows:
        return after
    acting = set(Seat.objects.filter(game=game, to_act=True).values_list("number", flat=True))
    hand = services.engine_state(game).hand_number
    last = {}
    for pk, seat in rows:
        last[seat] = pk
    for seat in last:  # an older row of the same seat is replaced by the newer one
        if seat in acting and not game.is_finished:
            emails[hand, seat] += 1
    return rows[-1][0]


def _reply(state, seat, plans, rng):
    """The moves of one reply to a turn email: a random legal choice (plus the plan, at the discard)."""
    from games import cribbage

    legal = cribbage.legal_moves(state, seat)
    if state.phase == "discard":
        discard = rng.choice([m for m in legal if m["kind"] == "discard"])
        moves = [discard]
        kept = [c.code for c in state.hands[seat] if c.code not in discard["cards"]]
        if plans == "full":
            rng.shuffle(kept)
            moves.append(cribbage.read_plan(" ".join(kept)))
        elif plans == "score first":
            moves.append(cribbage.read_plan("score first"))
        return moves
    if state.phase == "play":
        cards = sorted({m["card"] for m in legal if m["kind"] == "play"})
        card = rng.choice(cards)
        moves = [max((m for m in legal if m.get("card") == card), key=lambda m: m.get("claim", 0))]
        if plans != "none" and state.rules.muggins and cribbage.count_ahead_of(state, seat) is None:
            # A player who plans also says their hand's count ahead, above the play.
            count = cribbage.score_hand(state.kept[seat], state.starter).total
            moves.insert(0, {"kind": "count_ahead", "points": count})
        return moves
    if state.phase == "show":
        return [max((m for m in legal if m["kind"] == "count"), key=lambda m: m["points"])]
    return [rng.choice(legal)]
