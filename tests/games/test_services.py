"""The move service: validation, sequence, staleness, idempotency, follow-ups."""

import random

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import cribbage, lifecycle, services
from games.models import Event, Game
from tests.factories import make_user, play_random_move, reviewed, start_two_player_game

pytestmark = pytest.mark.django_db


def test_a_new_game_is_cut_and_dealt_by_the_service():
    game = start_two_player_game()
    kinds = list(game.events.order_by("seq").values_list("kind", flat=True))
    assert kinds == ["cut_for_deal", "deal"]
    assert game.seq == 2
    assert set(game.seats.filter(to_act=True).values_list("number", flat=True)) == {0, 1}
    assert all(seat.deadline for seat in game.seats.all())


def test_an_illegal_card_is_refused_with_the_legal_moves_and_nothing_is_written():
    game = start_two_player_game()
    view = services.engine_state(game)
    held = set(cribbage.view(view, 0)["hand"])
    not_held = next(c.code for c in cribbage.FULL_DECK if c.code not in held)
    with pytest.raises(services.AgainstTheRules) as caught:
        services.submit_move(game, 0, {"kind": "discard", "cards": [not_held, sorted(held)[0]]})
    assert len(caught.value.legal) == 15
    assert str(caught.value).startswith(f"You do not hold {not_held}. Choose 2 of these for the crib: ")
    game.refresh_from_db()
    assert game.seq == 2 and game.events.count() == 2


def test_a_move_out_of_turn_is_refused():
    game = start_two_player_game()
    for seat in (0, 1):
        play_random_move(game, seat)
    game.refresh_from_db()
    acting = services.cribbage.to_act(services.engine_state(game))
    idle = 1 - acting[0]
    hand = cribbage.view(services.engine_state(game), idle)["hand"]
    before = game.seq
    with pytest.raises(services.AgainstTheRules):
        services.submit_move(game, idle, {"kind": "play", "card": hand[0]})
    game.refresh_from_db()
    assert game.seq == before


def test_a_stale_move_is_refused_but_another_players_discard_does_not_make_it_stale():
    game = start_two_player_game()
    seen = game.seq
    play_random_move(game, 1)  # seat 1 throws to the crib: face down, nothing seat 0 can see
    move = cribbage.legal_moves(services.engine_state(Game.objects.get(pk=game.pk)), 0)[0]
    services.submit_move(game, 0, move, expected_seq=seen)  # still good
    game.refresh_from_db()
    seat = cribbage.to_act(services.engine_state(game))[0]
    stale_seq = game.seq
    play_random_move(game, seat)
    game.refresh_from_db()
    other = cribbage.to_act(services.engine_state(game))[0]
    move = cribbage.legal_moves(services.engine_state(game), other)[0]
    if other == seat:  # the other player could not play; any earlier seq is stale for them too
        pass
    with pytest.raises(services.StaleMove, match="moved on"):
        services.submit_move(game, other, move, expected_seq=stale_seq - 1)


def test_the_same_submission_twice_lands_once():
    game = start_two_player_game()
    move = cribbage.legal_moves(services.engine_state(game), 0)[0]
    first = services.submit_move(game, 0, move, idempotency_key="<abc@mail>")
    second = services.submit_move(game, 0, move, idempotency_key="<abc@mail>")
    assert not first.duplicate and second.duplicate
    assert Event.objects.filter(game=game, kind="discard").count() == 1


def test_follow_ups_fire_only_after_commit(django_capture_on_commit_callbacks):
    game = lifecycle.start_game(players=[make_user(), None], rng=random.Random(4))
    move = cribbage.legal_moves(services.engine_state(game), 0)[0]
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        services.submit_move(game, 0, move)
    assert callbacks
    assert not game.events.filter(kind="discard", seat=1).exists()  # the computer waits for the commit
    for callback in callbacks:
        callback()
    assert game.events.filter(kind="discard", seat=1, source=Event.Source.COMPUTER).exists()


def test_a_move_between_people_queues_no_follow_up_task(django_capture_on_commit_callbacks, settings):
    settings.POLL_FROM_CACHE = False  # the poll's shared numbers are tested in test_poll_and_seen
    game = start_two_player_game()
    move = cribbage.legal_moves(services.engine_state(game), 0)[0]
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        services.submit_move(game, 0, move)
    assert not callbacks  # the other player was already told of the deal; nothing else to do


def test_a_finished_game_accepts_no_move():
    game = start_two_player_game()
    services.submit_move(game, 0, {"kind": "resign"})
    game.refresh_from_db()
    assert game.is_finished and game.winner_side == 1 and game.finish == "resign"
    assert game.skunk == "double_skunk"  # resigning at 0 concedes as the board stands
    with pytest.raises(services.GameOver):
        services.submit_move(game, 1, {"kind": "resign"})


def test_forfeit_ends_the_game_for_the_others_without_skunk():
    game = start_two_player_game()
    services.record_forfeit(game, 0, reason="timeout", source=Event.Source.TIMEOUT)
    game.refresh_from_db()
    assert game.is_finished and game.winner_side == 1 and game.finish == "forfeit"
    assert game.skunk == ""
    assert not game.seats.filter(to_act=True).exists()


def test_events_are_append_only():
    game = start_two_player_game()
    event = game.events.first()
    event.kind = "tampered"
    with pytest.raises(TypeError):
        event.save()
    with pytest.raises(TypeError):
        event.delete()
    with pytest.raises(TypeError):
        Event.objects.filter(game=game).update(kind="x")


@pytest.mark.postgres
def test_postgres_itself_refuses_to_rewrite_events():
    from django.db import DatabaseError, connection, transaction

    game = start_two_player_game()
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("UPDATE games_event SET kind = 'x' WHERE game_id = %s", [game.pk])


def test_whole_games_through_the_service_replay_to_their_snapshots(capsys):
    rng = random.Random(7)
    for variant in ("two", "three", "four", "five_card"):
        game = start_two_player_game(variant=variant, rng=rng)
        while not game.is_finished:
            seat = cribbage.to_act(services.engine_state(game))[0]
            play_random_move(game, seat, rng=rng)
            game.refresh_from_db()
        assert game.winner_side is not None
    call_command("verify_games")
    assert "4 game(s): 0 disagree" in capsys.readouterr().out


def test_verify_games_reports_a_snapshot_that_disagrees():
    game = start_two_player_game()
    good = start_two_player_game()
    Game.objects.filter(pk=game.pk).update(snapshot={**game.snapshot, "tampered": True})
    with pytest.raises(CommandError, match=str(game.pk)):
        call_command("verify_games")
    call_command("verify_games", str(good.pk))


def _strings(value):
    if isinstance(value, dict):
        return {s for v in value.values() for s in _strings(v)}
    if isinstance(value, (list, tuple)):
        return {s for v in value for s in _strings(v)}
    return {value} if isinstance(value, str) else set()


def test_the_record_shows_each_reader_only_what_they_saw():
    from games.selectors import record_for, record_text

    rng = random.Random(11)
    game = start_two_player_game(rng=rng)
    for seat in (0, 1):
        play_random_move(game, seat, rng=rng)
    game.refresh_from_db()
    play_random_move(game, cribbage.to_act(services.engine_state(game))[0], rng=rng)
    game.refresh_from_db()
    state = services.engine_state(game)
    unseen_by_0 = set(cribbage.view(state, 1)["hand"]) | set(cribbage.view(state, 1)["my_discards"])
    services.submit_move(game, 0, {"kind": "resign"})
    game.refresh_from_db()

    record = record_for(game, 0)
    assert len(record["hands"][0]["dealt"]) == 6
    assert not unseen_by_0 & _strings(record)
    assert not unseen_by_0 & set(record_text(record).split())
    assert record_for(game, None)["hands"][0]["dealt"] == []
    text = record_text(record)
    assert "Hand 1: " in text and "Won by" in text and "(resign)" in text
    assert record["result"]["winners"] == [str(game.seats.get(number=1))]


def test_clock_events_in_the_log_are_skipped_by_every_replay(capsys):
    from clock import timeouts
    from games import coaching
    from games.selectors import record_for

    rng = random.Random(3)
    game = start_two_player_game(rng=rng)
    timeouts.grant_more_time(game, 0, 1, 2)
    while not game.is_finished:
        play_random_move(game, cribbage.to_act(services.engine_state(game))[0], rng=rng)
        game.refresh_from_db()
    assert game.events.filter(kind="more_time").count() == 1
    call_command("verify_games", str(game.pk))
    assert "0 disagree" in capsys.readouterr().out
    assert record_for(game, 0)["result"]
    reviewed(game)  # the worker's replay for the review
    assert coaching.coach_notes(game, 0)["review"] is not None


def test_a_game_starts_with_its_clock_settings():
    game = start_two_player_game(timeout_policy="opponent_chooses", pause_weekends=True, vacation_cap_days=0)
    game.refresh_from_db()
    assert (game.timeout_policy, game.pause_weekends, game.vacation_cap_days) == ("opponent_chooses", True, 0)
    with pytest.raises(TypeError, match="colour"):
        start_two_player_game(colour="red")


def test_a_refusal_names_only_the_players_own_moves():
    game = start_two_player_game()
    state = services.engine_state(game)
    mine = set(cribbage.view(state, 0)["hand"])
    theirs = set(cribbage.view(state, 1)["hand"])
    with pytest.raises(services.AgainstTheRules) as caught:
        services.submit_move(game, 0, {"kind": "play", "card": sorted(mine)[0]})
    message = str(caught.value)
    assert message.startswith("You cannot play now")
    assert not any(code in message for code in theirs)
    assert all(move["seat"] == 0 for move in caught.value.legal)


def test_a_view_costs_one_query_for_the_seats(django_assert_num_queries):
    from games.selectors import view_for

    game = Game.objects.get(pk=start_two_player_game().pk)
    with django_assert_num_queries(1):
        view_for(game, 0)


def test_a_refusal_speaks_to_the_player():
    game = start_two_player_game(muggins=True)
    with pytest.raises(services.AgainstTheRules, match="^You have no muggins to call"):
        services.submit_move(game, 0, {"kind": "muggins"})


def test_a_move_costs_a_few_statements_however_long_the_log():
    """Lock the game and read its seats (one trip on PostgreSQL), then write the event(s), the
    game row, the seats whose turn changed and the turn email's outbox row (one trip): two trips
    to the database at any point of a whole game, where it took seven, then six, five, then
    four, and the last move too (its result emails and the finished game's follow-ups go in the
    same trip); the test's own atomic block makes the move's transaction a savepoint: two more."""
    rng = random.Random(4)
    game = start_two_player_game(rng=rng)
    counts = []
    while not game.is_finished:
        state = services.engine_state(game)
        seat = cribbage.to_act(state)[0]
        with CaptureQueriesContext(connection) as queries:
            game = services.submit_move(game, seat, rng.choice(cribbage.legal_moves(state, seat)), rng=rng).game
        counts.append(len(queries))
    assert game.seq > 100
    # (SQLite: each statement its own trip, and the last move's result emails and follow-ups two)
    apart, last = (4, 5) if connection.vendor != "postgresql" else (0, 0)
    assert max(counts[:-1]) <= 4 + apart and counts[-1] <= 4 + last, counts


def test_a_discard_during_the_play_is_refused_and_nothing_is_written():
    game = start_two_player_game()
    for seat in (0, 1):
        play_random_move(game, seat)
    game.refresh_from_db()
    state = services.engine_state(game)
    turn = cribbage.to_act(state)[0]
    hand, before = cribbage.view(state, turn)["hand"], game.seq
    with pytest.raises(services.AgainstTheRules) as caught:
        services.submit_move(game, turn, {"kind": "discard", "cards": hand[:2]})
    assert (caught.value.code, caught.value.params) == ("wrong_phase", {"kind": "discard", "phase": "play"})
    assert caught.value.message.startswith("You cannot discard now. You can play ")
    game.refresh_from_db()
    assert game.seq == before and cribbage.view(services.engine_state(game), turn)["hand"] == hand


def test_words_are_read_under_the_lock_and_the_log_keeps_its_json():
    """submit_words reads a player's words against the game as it stands (a rank said alone is
    resolved against the seat's hand) and writes the same event a move would; words that make
    no move are refused as unreadable, with the engine's code, and nothing is written."""
    game = start_two_player_game()
    hand = cribbage.view(services.engine_state(game), 0)["hand"]
    with pytest.raises(services.UnreadableWords) as unreadable:
        services.submit_words(game, 0, "good morning")
    assert unreadable.value.code == "not_a_move"
    game.refresh_from_db()
    assert game.seq == 2 and game.events.count() == 2
    result = services.submit_words(game, 0, f"crib {hand[0]} {hand[1]}", idempotency_key="words-1")
    assert result.move == cribbage.Move("discard", seat=0, cards=(hand[0], hand[1]))
    assert result.events[0].data == {"kind": "discard", "cards": [hand[0], hand[1]], "seat": 0}
    again = services.submit_words(game, 0, f"crib {hand[0]} {hand[1]}", idempotency_key="words-1")
    assert again.duplicate and again.move == result.move


def test_a_move_value_writes_what_its_json_wrote():
    game = start_two_player_game()
    move = cribbage.legal_moves(services.engine_state(game), 1)[0]
    result = services.submit_move(game, 1, cribbage.Move.from_json(move).without_seat())
    assert result.events[0].data == {**{k: v for k, v in move.items() if k != "seat"}, "seat": 1}
    assert result.move == cribbage.Move.from_json(move)
