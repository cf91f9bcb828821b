"""The coach in turn emails, the game-over email, and claims under muggins never counted for the player."""

import random
import re

import pytest
from django.core import mail
from django.urls import reverse

from games import coaching, lifecycle, services
from games.cribbage import FULL_DECK
from games.models import GameReview
from games.presentation import cards_text
from games.presenter import coach_text
from games.selectors import view_for
from mail import links, rendering, review
from mail import services as mail_services
from mail.models import OutboundEmail
from tests.factories import make_user, start_two_player_game


def label(code):
    return next(c for c in FULL_DECK if c.code == code).label


def coach_part(body):
    return body.split("The coach:\n", 1)[1].split("\n\n", 1)[0] if "The coach:\n" in body else ""


def play_move(game, seat, rng):
    """A random legal move, never a resignation (nor a call of muggins, which may find nothing)."""
    game.refresh_from_db()
    moves = [m for m in view_for(game, seat).legal_moves if m["kind"] not in ("resign", "muggins")]
    move = {k: v for k, v in rng.choice(moves).items() if k != "seat"}
    if move["kind"] == "play" and game.muggins:
        move["claim"] = 0
    if move["kind"] == "count":
        move["points"] = 0
    services.submit_move(game, seat, move)
    game.refresh_from_db()


def play_until(game, on_commit, done, rng, limit=400):
    for _ in range(limit):
        if game.is_finished or done():
            return
        with on_commit():
            play_move(game, view_for(game, 0).to_act[0], rng)
    pytest.fail("never got there")


# --- The coach in the turn email -------------------------------------------------------------


def test_the_first_email_after_a_discard_judges_it_and_the_next_does_not(helped_game, on_commit):
    game = helped_game
    rng = random.Random(3)
    with on_commit():
        for seat in (0, 1):
            play_move(game, seat, rng)
    notes = coaching.coach_notes(game, 0)["discard"]
    play_until(game, on_commit, lambda: any(m.to == ["alice@example.com"] for m in mail.outbox[2:]), rng)
    first = [m for m in mail.outbox if m.to == ["alice@example.com"]][1]
    coach = coach_part(first.body)
    assert f"You threw {cards_text(notes['discard'])}: {notes['ev']:.2f} points expected." in coach
    assert (
        ("points expected. The best throw." in coach)
        if notes["is_best"]
        else (f"Best was {cards_text(notes['best_discard'])}" in coach and notes["verdict"] in coach)
    )
    assert "The coach" in first.alternatives[0][0] and "You threw" in first.alternatives[0][0]
    # Nothing Bob still holds, in the coach or anywhere else in the email.
    text = re.sub(r"https?://\S+", "", first.body)
    for code in view_for(game, 1).hand:
        assert not re.search(rf"\b{code}\b", text) and label(code) not in text
    # The next play email of the hand does not say it again.
    count = len(mail.outbox)
    play_until(game, on_commit, lambda: any(m.to == ["alice@example.com"] for m in mail.outbox[count:]), rng)
    later = [m for m in mail.outbox[count:] if m.to == ["alice@example.com"]][0]
    assert "You threw" not in later.body


def test_the_next_hands_discard_email_tells_the_last_hands_throw_and_pegging(helped_game, on_commit):
    game = helped_game
    rng = random.Random(5)
    play_until(game, on_commit, lambda: view_for(game, 0).hand_number == 2, rng)
    email = [m for m in mail.outbox if m.to == ["alice@example.com"]][-1]
    assert "lay away" in email.body
    notes = coaching.coach_notes(game, 0)["previous_hand"]
    coach = coach_part(email.body)
    assert (
        coach.splitlines()[0]
        .strip()
        .startswith(f"Last hand (hand {notes['number']}): your throw was {notes['discard']['verdict_said']}")
    )
    assert len([line for line in coach.splitlines() if "In the pegging" in line]) == len(notes["lapses"])
    assert ("No pegging slips." in coach) == (not notes["lapses"])


def test_coach_lines_in_words():
    lines = coach_text.coach_lines(
        {
            "discard": {
                "discard": ["5H", "JD"],
                "ev": 7.5,
                "is_best": False,
                "best_discard": ["KS", "QS"],
                "best_ev": 8.25,
                "loss": 0.75,
                "verdict": "inaccuracy",
            },
            "previous_hand": {
                "number": 3,
                "discard": None,
                "pegging_loss": 1.2,
                "lapses": [
                    {
                        "card": "5S",
                        "count_before": 0,
                        "reasons": ["left the count at 5: any ten-card makes 15 for two"],
                        "safer": "4C",
                        "best": "4C",
                        "loss": 1.2,
                        "verdict": "mistake",
                    }
                ],
            },
            "review": None,
        }
    )
    assert lines == [
        "You threw 5♥ J♦: 7.50 points expected. Best was K♠ Q♠ (8.25), 0.75 more: inaccuracy.",
        "Last hand (hand 3).",
        "In the pegging, 5♠ on 0: left the count at 5: any ten-card makes 15 for two; 4♣ was safer "
        "(1.20 points, mistake).",
    ]


def test_a_failing_coach_never_stops_a_turn_email(game, on_commit, monkeypatch):
    monkeypatch.setattr(coaching, "coach_notes", lambda *a: 1 / 0)
    rng = random.Random(3)
    with on_commit():
        for seat in (0, 1):
            play_move(game, seat, rng)
    assert OutboundEmail.objects.filter(game=game, status="sent").count() >= 3


# --- The game-over email ------------------------------------------------------------------------


def results(outbox):
    return {m.to[0]: m for m in outbox if m.tags == ["result"]}


def test_a_resignation_sends_each_player_one_result_email(game, on_commit):
    mail.outbox.clear()
    with on_commit():
        services.submit_move(game, 1, {"kind": "resign"})
    sent = results(mail.outbox)
    assert set(sent) == {"alice@example.com", "bob@example.com"} and len(mail.outbox) == 2
    # Resigning at 0 concedes as the board stands: a double skunk.
    assert "You won (Bob resigned), with a double skunk." in sent["alice@example.com"].body
    assert "Alice won (Bob resigned), with a double skunk." in sent["bob@example.com"].body
    record = links.absolute(reverse("games:record", args=[game.pk]))
    for message in sent.values():
        assert "Final scores: Alice 0, Bob 0." in message.body
        assert record in message.body and record in message.alternatives[0][0]
        said = "You won: Bob resigned" if "alice" in message.to[0] else "Alice won: you resigned"
        assert message.subject == f"{said} — Alice v Bob (game {game.pk})"
        assert message.reply_to == [links.reply_address(game.pk, 0 if "alice" in message.to[0] else 1)]
        assert "Your moves" not in message.body
    rows = OutboundEmail.objects.filter(game=game, kind="result")
    assert sorted(rows.values_list("seat", "status")) == [(0, "sent"), (1, "sent")]
    # Sent once: a retried task or the sweeper sends nothing more.
    for row in rows:
        assert mail_services.send_outbound(row.pk) is None
    assert len(mail.outbox) == 2


def test_one_result_row_per_game_and_seat(game):
    from django.db import IntegrityError, transaction

    game.refresh_from_db()
    OutboundEmail.objects.create(game=game, seat=0, seq=game.seq, kind="result", to="a@example.com", key="a")
    with pytest.raises(IntegrityError), transaction.atomic():
        OutboundEmail.objects.create(game=game, seat=0, seq=game.seq + 1, kind="result", to="a@example.com", key="b")


@pytest.mark.parametrize("notify, gets_it", [("digest", True), ("none", False)])
def test_digest_players_get_the_result_and_none_gets_nothing(db, on_commit, notify, gets_it):
    quiet = make_user(notify=notify, password=None)
    other = make_user(password=None)
    with on_commit():
        game = start_two_player_game(players=[quiet, other])
    mail.outbox.clear()
    with on_commit():
        services.submit_move(game, 1, {"kind": "resign"})
    assert set(results(mail.outbox)) == ({quiet.email, other.email} if gets_it else {other.email})


def test_practice_and_computer_seats_get_no_result_email(db, on_commit):
    player = make_user(password=None)
    with on_commit():
        practice = lifecycle.start_game(players=[player, None], practice=True)
        services.submit_move(practice, 0, {"kind": "resign"})
        versus = lifecycle.start_game(players=[player, None])
        services.submit_move(versus, 0, {"kind": "resign"})
    assert not OutboundEmail.objects.filter(game=practice).exists()
    assert list(OutboundEmail.objects.filter(game=versus, kind="result").values_list("seat", flat=True)) == [0]


def test_a_game_played_out_ends_with_the_result_the_last_show_and_the_review(db, on_commit):
    alice = make_user("alice@example.com", "Alice", allow_forced_moves=False, password=None)
    bob = make_user("bob@example.com", "Bob", allow_forced_moves=False, password=None)
    with on_commit():
        game = start_two_player_game(players=[alice, bob], rng=random.Random(11), target=61)
    play_until(game, on_commit, lambda: False, random.Random(11), limit=600)
    assert game.is_finished and game.finish == "target"
    sent = results(mail.outbox)
    assert set(sent) == {"alice@example.com", "bob@example.com"}
    view = view_for(game, 0)
    result = view.result
    winner = ["Alice", "Bob"][result["winner"]]
    skunk = {"skunk": ", with a skunk", "double_skunk": ", with a double skunk", None: ""}[result["skunk"]]
    body = sent["alice@example.com"].body
    assert f"{'You' if winner == 'Alice' else winner} won (reached 61){skunk}." in body
    assert f"Final scores: Alice {result['scores'][0]}, Bob {result['scores'][1]}." in body
    review = coaching.coach_notes(game, 0)["review"]
    assert f"Game review: about {review['total_loss']:.1f} points lost" in body
    # Pegged out: the last pegging; won in the show, or on the starter's heels before any card
    # was laid: the last show (that hand's, or the hand before's).
    pegged_out = bool(view.plays) and not view.shows
    assert ("The last pegging:" in body) == pegged_out and ("The last show:" in body) != pegged_out
    assert "Game review" in sent["alice@example.com"].alternatives[0][0]
    assert OutboundEmail.objects.filter(game=game, kind="result").count() == 2


def test_a_game_over_email_written_before_the_review_is_stored_offers_it_and_works_nothing_out(
    db, no_review_worked_out
):
    alice = make_user("alice@example.com", "Alice", allow_forced_moves=False, password=None)
    bob = make_user("bob@example.com", "Bob", allow_forced_moves=False, password=None)
    game = start_two_player_game(players=[alice, bob], rng=random.Random(11))
    for seat in (0, 1):
        play_move(game, seat, random.Random(seat))
    services.submit_move(game, 1, {"kind": "resign"})  # not committed: the worker has stored no review
    game.refresh_from_db()
    body = rendering.result_message(game, 0, alice).body
    assert "The review of the game is being prepared" in body
    assert 'Reply "review" for the whole review' in body and f"{game.get_absolute_url()}#review" in body
    assert "Game review" not in body and "The cards:" not in body  # no figures it would have to wait for
    # The answer to "review" (the worker's) does not wait for the review's own task either: it stores it.
    no_review_worked_out.undo()
    answer = review.review_message(game, 0, alice).body
    assert "Hand 1" in answer and GameReview.objects.filter(game=game).count() == 2
    assert "Game review: about" in rendering.result_message(game, 0, alice).body  # written now: the figures


def test_the_game_over_email_sent_before_the_reviews_own_task_stores_the_review_and_carries_its_figures(db):
    """The send task (the worker's) usually comes before the review's own task (games.reviews):
    the result email's composer stores the review first, so the email has its figures every time."""
    alice = make_user("alice@example.com", "Alice", allow_forced_moves=False, password=None)
    bob = make_user("bob@example.com", "Bob", allow_forced_moves=False, password=None)
    game = start_two_player_game(players=[alice, bob], rng=random.Random(11))
    for seat in (0, 1):
        play_move(game, seat, random.Random(seat))
    services.submit_move(game, 1, {"kind": "resign"})  # not committed: the review's task has not run
    assert not GameReview.objects.filter(game=game).exists()
    mail.outbox.clear()
    for row in OutboundEmail.objects.filter(game=game, kind="result").order_by("seat"):
        assert mail_services.send_outbound(row.pk) == OutboundEmail.Status.SENT  # the task's body
    sent = results(mail.outbox)
    game.refresh_from_db()
    review = coaching.full_review(game, 0)
    assert review is not None and GameReview.objects.filter(game=game).count() == 2
    body = sent["alice@example.com"].body
    assert review["luck"]["summary"] in body and "Game review: about" in body
    assert "Game review" in sent["alice@example.com"].alternatives[0][0]
    assert "being prepared" not in body and "being prepared" not in sent["bob@example.com"].body


# --- Muggins: the email never counts for the player -------------------------------------------------


def test_under_muggins_the_turn_emails_never_list_claim_values(db, on_commit):
    alice = make_user("alice@example.com", "Alice", allow_forced_moves=False, password=None)
    bob = make_user("bob@example.com", "Bob", allow_forced_moves=False, password=None)
    with on_commit():
        game = start_two_player_game(players=[alice, bob], rng=random.Random(2), muggins=True)
    rng = random.Random(2)
    play_until(game, on_commit, lambda: view_for(game, 0).hand_number == 2, rng)
    phases = set()
    for message in mail.outbox:
        game_words = [
            line.split("   ")[0]
            for line in message.body.splitlines()
            if re.match(r"^(play|count|muggins|crib)\b", line)
        ]
        for words in game_words:
            assert re.fullmatch(r"crib( \w\w)+|play \w\w claim N|count N|muggins", words), words
            phases.add(words.split()[0])
        moves_text = message.body.partition("Your moves.")[2].partition("Other words")[0]
        moves_html = message.alternatives[0][0].partition("Your moves")[2].partition("You can also reply")[0]
        assert not re.search(r"claim \d|count \d", moves_text + moves_html)
    assert {"crib", "play"} <= phases
    # The view's moves carry no claim: the email does not count for the player.
    game.refresh_from_db()
    for seat in (0, 1):
        assert all("claim" not in m and "points" not in m for m in view_for(game, seat).legal_moves)


@pytest.mark.parametrize("variant, seats", [("three", 3), ("four", 4), ("five_card", 2)])
def test_the_coach_speaks_in_every_variant(db, on_commit, caplog, variant, seats):
    players = [make_user(allow_forced_moves=False, password=None) for _ in range(seats)]
    with on_commit():
        game = start_two_player_game(variant=variant, players=players, rng=random.Random(4), help_on=True)
    play_until(game, on_commit, lambda: view_for(game, 0).hand_number == 2, random.Random(4))
    assert "The coach failed" not in caplog.text
    coached = [m for m in mail.outbox if "The coach:" in m.body]
    assert any("You threw" in m.body for m in coached) and any("Last hand (hand 1)" in m.body for m in coached)
