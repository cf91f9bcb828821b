"""The coach on the Django side: judgments after the move, advice only in practice, no leaks."""

import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import cribbage, lifecycle, services
from games.coaching import advice_before, coach_notes, hand_records, luck_words
from games.cribbage.cards import card_from_code
from games.cribbage.strategy.analysis import discard_options
from tests.factories import make_user, play_random_move, reviewed, start_two_player_game

pytestmark = pytest.mark.django_db

ALL_CODES = {c.code for c in cribbage.FULL_DECK}


def _codes_in(value):
    if isinstance(value, dict):
        return {s for v in value.values() for s in _codes_in(v)}
    if isinstance(value, (list, tuple)):
        return {s for v in value for s in _codes_in(v)}
    return {value} & ALL_CODES if isinstance(value, str) else set()


def _seen_now(state, seat):
    seen = set(state.hands[seat]) | set(state.kept[seat]) | set(state.discards[seat])
    seen |= {p.card for p in state.plays if p.card} | {c for s in state.shows for c in s.cards}
    if state.starter:
        seen.add(state.starter)
    return {c.code for c in seen}


def _discard_for(game, seat, pick):
    view = cribbage.view(services.engine_state(game), seat)
    hand = [card_from_code(c) for c in view["hand"]]
    is_dealer = view["dealer"] == seat
    options = discard_options(hand, is_dealer)
    return options, {"kind": "discard", "cards": [c.code for c in pick(options).discard]}


def test_best_discard_is_good_and_worst_is_a_mistake():
    game = start_two_player_game(rng=random.Random(4), help_on=True)
    best_options, best = _discard_for(game, 0, lambda o: o[0])
    worst_options, worst = _discard_for(game, 1, lambda o: o[-1])
    services.submit_move(game, 0, best)
    services.submit_move(game, 1, worst)
    game.refresh_from_db()
    good = coach_notes(game, 0)["discard"]
    assert good["verdict"] == "good" and good["is_best"] and good["loss"] == 0
    assert good["ev"] == round(float(best_options[0].total_ev), 2)
    bad = coach_notes(game, 1)["discard"]
    assert sorted(bad["discard"]) == sorted(worst["cards"])
    assert bad["loss"] == round(float(worst_options[0].total_ev - worst_options[-1].total_ev), 2)
    assert bad["verdict"] == "mistake" and bad["rank"] == bad["choices"] == 15
    assert isinstance(bad["best_ev"], float)


def test_no_discard_note_before_the_seat_has_discarded():
    game = start_two_player_game(rng=random.Random(5))
    assert coach_notes(game, 0) == {"discard": None, "previous_hand": None, "review": None, "chance_now": None}


@pytest.mark.parametrize("variant", ["two", "four"])
def test_notes_never_show_a_card_the_seat_could_not_see(variant):
    rng = random.Random(variant)
    game = start_two_player_game(variant=variant, rng=rng, target=61, help_on=True)
    players = len(game.seats.all())
    seen_in_hand = {s: {} for s in range(players)}
    previous_notes = moves = 0
    while not game.is_finished:
        state = services.engine_state(game)
        for seat in range(players):
            seen_in_hand[seat].setdefault(state.hand_number, set()).update(_seen_now(state, seat))
        moves += 1
        for seat in range(players) if moves % players == 0 else ():
            notes = coach_notes(game, seat)
            assert _codes_in(notes["discard"]) <= _seen_now(state, seat)
            if notes["previous_hand"]:
                previous_notes += 1
                number = notes["previous_hand"]["number"]
                assert _codes_in(notes["previous_hand"]) <= seen_in_hand[seat][number]
        play_random_move(game, cribbage.to_act(state)[0], rng=rng)
        game.refresh_from_db()
    assert previous_notes > 0
    reviewed(game)
    for seat in range(players):
        ever = set().union(*seen_in_hand[seat].values())
        review = coach_notes(game, seat)["review"]
        assert review is not None and review["discards"] >= 2
        assert _codes_in(review) <= ever


def test_review_of_a_finished_game_adds_up():
    rng = random.Random(11)
    game = start_two_player_game(rng=rng, target=61)
    while not game.is_finished:
        play_random_move(game, cribbage.to_act(services.engine_state(game))[0], rng=rng)
        game.refresh_from_db()
    reviewed(game)
    records = hand_records(game, 0)
    review = coach_notes(game, 0)["review"]
    assert review["discards"] == len(records)
    assert review["discard_loss"] >= 0 and review["pegging_loss"] >= 0
    assert review["total_loss"] == pytest.approx(review["discard_loss"] + review["pegging_loss"], abs=0.011)
    assert sum(review["verdicts"].values()) == review["discards"]
    # Random play throws points away: the review notices.
    assert review["total_loss"] > 1
    assert all(p["safer"] for p in review["worst_plays"])

    # A finished game never changes: the next look does not replay its log again.
    with CaptureQueriesContext(connection) as looked:
        assert coach_notes(game, 0)["review"] == review
    assert not [q for q in looked.captured_queries if "games_event" in q["sql"]]
    assert coach_notes(game, 1)["review"] != review  # each seat its own


def test_advice_only_in_practice_games_and_only_for_the_seat_to_act():
    people = start_two_player_game(rng=random.Random(2))
    assert advice_before(people, 0) is None

    user = make_user()
    practice = lifecycle.start_game(players=[user, None], practice=True, computer_level="expert", rng=random.Random(3))
    advice = advice_before(practice, 0)
    assert advice["kind"] == "discard"
    view = cribbage.view(services.engine_state(practice), 0)
    best = discard_options([card_from_code(c) for c in view["hand"]], view["dealer"] == 0)[0]
    assert advice["options"][0]["discard"] == [c.code for c in best.discard]
    assert advice["options"][0]["ev"] >= advice["options"][1]["ev"]
    assert _codes_in(advice) <= set(view["hand"])


def test_practice_play_advice_ranks_the_playable_cards():
    user = make_user()
    rng = random.Random(8)
    game = lifecycle.start_game(players=[user, make_user()], practice=True, rng=rng)
    while True:
        state = services.engine_state(game)
        if state.phase == "play" and state.turn == 0 and len(cribbage.legal_moves(state, 0)) > 1:
            break
        play_random_move(game, cribbage.to_act(state)[0], rng=rng)
        game.refresh_from_db()
    advice = advice_before(game, 0)
    assert advice["kind"] == "play"
    playable = set(cribbage.view(state, 0)["playable"])
    assert {o["card"] for o in advice["options"]} <= playable
    values = [o["value"] for o in advice["options"]]
    assert values == sorted(values, reverse=True)
    assert advice_before(game, 1) is None  # not seat 1's turn


def test_last_hand_notes_agree_with_the_replayed_record():
    from games import coaching
    from games.cribbage import coach

    rng = random.Random(21)
    game = start_two_player_game(rng=rng, help_on=True)
    while services.engine_state(game).hand_number < 3:
        play_random_move(game, cribbage.to_act(services.engine_state(game))[0], rng=rng)
        game.refresh_from_db()
    for seat in (0, 1):
        for _ in range(2):  # before and after this seat's discard in the new hand
            notes = coach_notes(game, seat)["previous_hand"]
            (record,) = [r for r in hand_records(game, seat) if r.number == 2]
            assert _without_chances(notes) == coaching.hand_json(coach.review_hand(record))
            if seat in cribbage.to_act(services.engine_state(game)):
                play_random_move(game, seat, rng=rng)
                game.refresh_from_db()


def _without_chances(value):
    if isinstance(value, dict):
        return {k: _without_chances(v) for k, v in value.items() if k != "chance"}
    if isinstance(value, list):
        return [_without_chances(v) for v in value]
    return value


def test_with_help_on_the_coach_tells_the_chance_to_win_and_what_each_decision_cost(client):
    rng = random.Random(31)
    game = start_two_player_game(rng=rng, help_on=True)
    while services.engine_state(game).hand_number < 2 or services.engine_state(game).phase != "play":
        play_random_move(game, cribbage.to_act(services.engine_state(game))[0], rng=rng)
        game.refresh_from_db()
    notes = coach_notes(game, 0)
    assert 0 < notes["chance_now"] < 100
    chance = notes["discard"]["chance"]
    assert chance["kind"] == "discard" and sorted(chance["cards"]) == sorted(notes["discard"]["discard"])
    assert chance["chance_lost"] >= 0 and 0 < chance["best_chance"] <= 100
    assert notes["previous_hand"]["discard"]["chance"]["hand"] == 1
    assert all(lapse["chance"]["kind"] == "play" for lapse in notes["previous_hand"]["lapses"])
    client.force_login(game.seats.get(number=0).player)
    page = client.get(game.get_absolute_url()).content.decode()
    assert f"Your chance to win at the start of this hand: <strong>{notes['chance_now']}%</strong>" in page
    assert "win chance" in page


@pytest.mark.parametrize("level", ["easy", "expert"])
def test_a_practice_game_against_the_computer_plays_out_with_the_coach(level, django_capture_on_commit_callbacks):
    rng = random.Random(level)
    user = make_user()
    with django_capture_on_commit_callbacks(execute=True):
        game = lifecycle.start_game(players=[user, None], practice=True, computer_level=level, target=61, rng=rng)
    game.refresh_from_db()
    while not game.is_finished:
        state = services.engine_state(game)
        assert cribbage.to_act(state) == (0,), "the computer answers every move at once"
        assert advice_before(game, 0) is not None or state.phase == "show"
        with django_capture_on_commit_callbacks(execute=True):
            play_random_move(game, 0, rng=rng)
        game.refresh_from_db()
    assert game.events.filter(source="computer").exists()
    assert coach_notes(game, 0)["review"]["discards"] >= 2


@pytest.mark.parametrize(
    "margin, ended_early, head",
    [
        (12, False, "You won by 12 points (64 to 52)."),
        (-1, False, "You lost by 1 point (64 to 65)."),
        (0, False, "You finished level with Bob (64 each)."),
        (12, True, "When the game ended you were 12 points ahead (64 to 52)."),
        (-12, True, "When the game ended you were 12 points behind (64 to 76)."),
        (0, True, "When the game ended you were level with Bob (64 each)."),
    ],
)
def test_the_luck_summary_says_who_won_only_when_the_target_was_reached(margin, ended_early, head):
    me = {"side": 0, "name": "Alice (you)", "points": 64, "margin": margin, "from_cards": 1.0, "from_choices": 2.0}
    bob = {"side": 1, "name": "Bob", "points": 64 - margin, "margin": -margin, "from_cards": -1.0, "from_choices": -2.0}
    words = luck_words([me, bob], 0, ended_early=ended_early)
    assert words.startswith(head + " The cards: +1.0 for you against Bob")
