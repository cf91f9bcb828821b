"""The arithmetic of matches: game values, skunks, forfeits, rung moves, standings."""

from datetime import timedelta

import pytest
import time_machine
from django.core import mail
from django.utils import timezone

from games import follow_ups, signals
from games.models import Game
from ladders import challenges, matches, selectors, services
from ladders.models import Challenge, LadderGame, Match
from ladders.presentation import describe_rules
from tests.factories import finish_game


def positions(ladder):
    return [str(e) for e in ladder.entrants.filter(active=True).order_by("position")]


def play_game(match, winner, skunk=""):
    """Finish the match's current game so `winner` (an entrant) wins it, and count it."""
    lg = match.games.filter(counted=False).get()
    finish_game(lg.game, match.entrant_seat(winner), skunk)
    matches.record_game_result(lg.game_id)
    match.refresh_from_db()
    return lg


def test_a_skunk_in_a_match_to_two_ends_it_at_once_and_the_challenger_takes_the_place(make_ladder):
    ladder, (a, b, c, d, e) = make_ladder(5, match_length=2)
    match = challenges.start_match(d, b, actor=None)
    play_game(match, d, "skunk")
    assert (match.status, match.challenger_points, match.winner) == (Match.Status.FINISHED, 2, d)
    assert match.games.count() == 1
    assert positions(ladder) == ["A", "D", "B", "C", "E"]


@pytest.mark.parametrize("rule, value, finished", [(False, 2, False), (True, 3, True)])
def test_a_double_skunk_counts_as_a_skunk_unless_the_rule_is_on(make_ladder, rule, value, finished):
    ladder, (a, b, c) = make_ladder(3, match_length=3, scoring="custom", double_skunk_rule=rule, value_double_skunk=3)
    match = challenges.start_match(c, b, actor=None)
    lg = play_game(match, c, "double_skunk")
    lg.refresh_from_db()
    assert (lg.kind, lg.value) == ("double_skunk", value)
    assert match.challenger_points == value
    assert (match.status == Match.Status.FINISHED) is finished
    if not finished:
        # The next game has started, and the loser of the last one (the defender, seat 1) deals first.
        nxt = match.games.get(number=2).game
        assert nxt.first_dealer == 1 and not nxt.is_finished


def test_a_defended_match_moves_nobody_and_plain_wins_count_one(make_ladder):
    ladder, (a, b, c) = make_ladder(3, match_length=2, immunity_days=5)
    match = challenges.start_match(c, a, actor=None)
    play_game(match, a)
    assert (match.status, match.defender_points) == (Match.Status.PLAYING, 1)
    play_game(match, c)
    play_game(match, a)
    assert (match.status, match.winner, match.challenger_points, match.defender_points) == (
        Match.Status.FINISHED,
        a,
        1,
        2,
    )
    assert positions(ladder) == ["A", "B", "C"]
    a.refresh_from_db()
    assert challenges.challenge_problem(b, a) and "immune" in challenges.challenge_problem(b, a)


def test_a_forfeited_game_is_a_new_event_worth_the_forfeit_value(make_ladder):
    ladder, (a, b) = make_ladder(2, match_length=2)
    match = challenges.start_match(b, a, actor=None)
    lg = match.games.get()
    matches.forfeit_game(lg, a, reason="abandoned: no move for three weeks", actor=None)
    lg.refresh_from_db()
    assert (lg.kind, lg.value, lg.game.finish) == ("forfeit", 1, Game.Finish.FORFEIT)
    assert lg.game.events.filter(kind="forfeit").count() == 1
    match.refresh_from_db()
    assert (match.status, match.challenger_points) == (Match.Status.PLAYING, 1)
    # Counting it again changes nothing.
    matches.record_game_result(lg.game_id)
    match.refresh_from_db()
    assert match.challenger_points == 1 and match.games.count() == 2


def test_a_challenge_not_accepted_in_time_is_a_forfeit(make_ladder):
    from datetime import timedelta

    from django.utils import timezone

    ladder, (a, b, c) = make_ladder(3, accept_days=7)
    now = timezone.now()
    item = challenges.challenge(c, a, actor=None, now=now)
    assert challenges.lapse_challenges(now=now + timedelta(days=6)) == []
    with pytest.raises(services.LadderError):
        challenges.accept(item, actor=None, now=now + timedelta(days=8))
    [match] = challenges.lapse_challenges(now=now + timedelta(days=8))
    item.refresh_from_db()
    assert item.status == Challenge.Status.LAPSED
    assert (match.winner, match.decided_by) == (c, Match.DecidedBy.FORFEIT)
    assert positions(ladder) == ["C", "A", "B"]


@pytest.mark.parametrize("how", ["accept", "lapse", "decline"])
def test_a_challenge_taken_up_or_forfeited_becomes_a_match_between_its_players_in_the_season(make_ladder, how):
    from datetime import timedelta

    from django.utils import timezone

    from ladders.models import Ladder

    ladder, (a, b, c) = make_ladder(3, accept_days=7)
    Ladder.objects.filter(pk=ladder.pk).update(season=2)
    now = timezone.now()
    item = challenges.challenge(c, a, actor=None, now=now)
    later = now + timedelta(days=8 if how == "lapse" else 1)
    if how == "accept":
        match = challenges.accept(item, actor=None, now=later)
    elif how == "lapse":
        [match] = challenges.lapse_challenges(now=later)
    else:
        match = challenges.decline(item, actor=None, now=later)
    match.refresh_from_db()
    assert (match.ladder, match.season, match.challenge, match.challenger, match.defender) == (ladder, 2, item, c, a)
    assert match.started_at == later
    assert match.status == (Match.Status.PLAYING if how == "accept" else Match.Status.FINISHED)


def test_standings_and_rungs_after_a_sequence_of_matches(make_ladder):
    """Hand-worked: matches to 2, win 1, skunk 2, double skunk 2 (rule off)."""
    ladder, (a, b, c, d) = make_ladder(4, match_length=2)
    # 1. D challenges C: D wins a skunk at once.           -> A B D C
    m = challenges.start_match(d, c, actor=None)
    play_game(m, d, "skunk")
    # 2. C (4th) challenges B: C wins, loses, wins.          -> A C B D
    m = challenges.start_match(c, b, actor=None)
    play_game(m, c)
    play_game(m, b, "double_skunk")
    # B's double skunk is worth 2: B wins that match 2-1.   -> no move
    assert m.status == Match.Status.FINISHED and m.winner == b
    assert positions(ladder) == ["A", "B", "D", "C"]
    # 3. D (3rd) challenges A: D wins two plain games.       -> D A B C
    m = challenges.start_match(d, a, actor=None)
    play_game(m, d)
    play_game(m, d)
    assert positions(ladder) == ["D", "A", "B", "C"]
    rows = {r["player"]: r for r in selectors.standings(ladder)}
    got = {
        name: (
            r["position"],
            r["matches"],
            r["matches_won"],
            r["games"],
            r["wins"],
            r["games_won"],
            r["skunks_given"],
            r["skunks_taken"],
        )
        for name, r in rows.items()
    }
    #            pos matches won games wins games_won skunks given taken
    assert got == {
        "D": (1, 2, 2, 3, 3, 4, 1, 0),
        "A": (2, 1, 0, 2, 0, 0, 0, 0),
        "B": (3, 1, 1, 2, 1, 2, 1, 0),
        "C": (4, 2, 0, 3, 1, 1, 0, 2),
    }
    games = LadderGame.objects.filter(match__ladder=ladder)
    for _name, r in rows.items():
        assert r["spread"] == r["points_for"] - r["points_against"]
    assert sum(r["points_for"] for r in rows.values()) == sum(g.challenger_score + g.defender_score for g in games)
    assert rows["C"]["points_against"] >= 121 * 2  # lost two games to someone reaching 121


def test_the_move_hook_counts_a_finished_game_once(make_ladder, django_capture_on_commit_callbacks):
    from games import services as game_services

    ladder, (a, b) = make_ladder(2, match_length=1)
    match = challenges.start_match(b, a, actor=None)
    game = match.games.get().game
    with django_capture_on_commit_callbacks(execute=True):
        game_services.submit_move(game, 1, {"kind": "resign"})
    match.refresh_from_db()
    assert (match.status, match.winner) == (Match.Status.FINISHED, b)
    assert positions(ladder) == ["B", "A"]
    signals.game_finished.listeners()["ladders.count_game"](game.pk)  # heard again, it changes nothing
    assert positions(ladder) == ["B", "A"] and ladder.history.filter(kind="result").count() == 1


def test_notices_go_out_after_commit(make_ladder, django_capture_on_commit_callbacks):
    ladder, (a, b) = make_ladder(2)
    with django_capture_on_commit_callbacks(execute=True):
        challenges.challenge(b, a, actor=None)
    [message] = mail.outbox
    assert message.to == [a.player.email] and "challenges you" in message.subject
    assert message.alternatives and ladder.get_absolute_url() in message.body


def test_ladder_games_take_the_ladders_timeout_rule_and_vacation_cap(make_ladder):
    ladder, (a, b) = make_ladder(2)
    ladder.timeout_policy, ladder.vacation_allowed = "computer_stands_in", False
    ladder.save()
    game = challenges.start_match(b, a, actor=None).games.get().game
    assert game.timeout_policy == "computer_stands_in" and game.vacation_cap_days == 0


def test_ladder_games_take_the_ladders_pauses_and_time_bank(make_ladder):
    ladder, (a, b) = make_ladder(2)
    ladder.pause_weekends, ladder.pause_nights, ladder.time_bank_days = True, True, 2
    ladder.save()
    game = challenges.start_match(b, a, actor=None).games.get().game
    assert (game.pause_weekends, game.pause_nights, game.time_bank_days) == (True, True, 2)
    assert [s.bank_seconds for s in game.seats.order_by("number")] == [2 * 86400] * 2
    rules = " ".join(describe_rules(ladder))
    assert "The clock stops at weekends and at night (each player's own time)." in rules
    assert "Each player has a time bank of 2 days per game, spent a day at a time before a timeout." in rules


def test_a_ladder_time_bank_beyond_the_limit_is_refused_in_the_admin_form(make_ladder):
    from django.core.exceptions import ValidationError

    ladder, _ = make_ladder(2)
    ladder.time_bank_days = 11
    with pytest.raises(ValidationError) as error:
        ladder.full_clean()
    assert error.value.message_dict["time_bank_days"] == ["Ensure this value is less than or equal to 10."]


def test_the_sweep_counts_a_finished_game_whose_result_task_was_lost(make_ladder):
    ladder, (a, b) = make_ladder(2, match_length=2)
    match = challenges.start_match(b, a, actor=None)
    lg = match.games.get()
    finish_game(lg.game, match.entrant_seat(b), "skunk")  # its follow-up never ran (the broker was down)
    assert not LadderGame.objects.get(pk=lg.pk).counted
    with time_machine.travel(timezone.now() + follow_ups.REQUEUE_AFTER + timedelta(seconds=1)):
        follow_ups.sweep()  # the after-commit sweeper
        match.refresh_from_db()
        assert LadderGame.objects.get(pk=lg.pk).counted and match.status == Match.Status.FINISHED
        assert positions(ladder) == ["B", "A"]
        assert follow_ups.sweep() == 0  # once
