"""A ladder by email: "standings", "challenge NAME", "accept", "decline", "withdraw" sent to the
ladder's own address (or in reply to a ladder email), posted to the inbound webhook in each
provider's documented payload, with the same sender checks as move replies."""

import re

import pytest
from django.core import mail

from ladders import announcements, challenges, matches, notices, selectors
from ladders.models import Challenge, Match
from mail import links
from mail.models import InboundEmail
from tests.factories import committed, make_user, start_two_player_game
from tests.mail import payloads

pytestmark = pytest.mark.django_db
ESPS = ["postmark", "mailgun", "amazon_ses", "brevo"]


@pytest.fixture(autouse=True)
def anymail_settings(settings):
    payloads.configure(settings)
    settings.SITE_URL = "https://cribbage.example"


@pytest.fixture
def club(make_ladder):
    """Ladder "club": A, B, C, D, E top first."""
    return make_ladder(5, slug="club")


def send(client, entrant_or_user, words, *, esp="postmark", to=None, subject="Ladder", ladder=None, **options):
    """`words` on the first line of a message from the player to the ladder's address."""
    user = getattr(entrant_or_user, "player", entrant_or_user)
    message = payloads.compose(
        sender=f"{user.display_name} <{user.email}>",
        to=to or notices.ladder_address(ladder),
        subject=subject,
        text=f"{words}\n\nOn Mon, Jun 2, 2025 at 10:00 AM Cribbage by mail <cribbage@localhost> wrote:\n> standings\n",
    )
    mail.outbox.clear()
    response = payloads.post(client, esp, message, **options)
    assert response.status_code == 200
    return InboundEmail.objects.order_by("-received_at", "-pk").first()


def answers_to(user):
    return [m for m in mail.outbox if m.to == [user.email] and m.tags == ["ladder_answer"]]


def code_in(message):
    return re.search(r"confirm ([0-9a-f]{12})", message.body).group(1)


def the_answer(user):
    (message,) = answers_to(user)
    return message


@pytest.mark.parametrize("esp", ESPS)
def test_standings_through_each_provider(client, club, esp):
    ladder, (a, b, c, d, e) = club
    match = challenges.start_match(c, b, actor=None)
    matches.forfeit_game(match.games.get(), b, reason="gone", actor=None)
    row = send(client, e, "standings", esp=esp, ladder=ladder)
    assert row.status == InboundEmail.Status.ANSWERED and row.outcome == "standings"
    answer = the_answer(e.player)
    assert answer.subject == "Club: the standings"
    assert answer.reply_to == [notices.ladder_address(ladder)] and answer.reply_to[0].startswith("ladder+club@")
    expected = [
        f"{r['position']:>3}. {r['player']}: {r['matches_won']} of {r['matches']}, {r['games_won']}, {r['spread']:+d}"
        for r in selectors.standings(ladder)
    ]
    assert [r["player"] for r in selectors.standings(ladder)] == ["A", "B", "C", "D", "E"]
    assert expected[2].startswith("  3. C: 0 of 0, 1,")  # C won a game by forfeit: one game point
    assert "\n".join(expected) in answer.body
    assert "<table" in answer.alternatives[0][0]


def test_a_player_challenges_by_name_and_the_defender_accepts_in_reply(client, club):
    ladder, (a, b, c, d, e) = club
    row = send(client, d, "challenge b", ladder=ladder)  # any case
    assert row.status == InboundEmail.Status.APPLIED
    item = Challenge.objects.get(ladder=ladder)
    assert (item.challenger, item.defender, item.created_by) == (d, b, d.player)
    assert "You challenged B (position 2) on Club." in the_answer(d.player).body
    notice = next(m for m in mail.outbox if m.to == [b.player.email])
    assert notice.reply_to == [notices.ladder_address(ladder)]  # the notice takes replies at the ladder
    assert '"accept"' in notice.body
    # B replies to the notice: the Reply-To is the ladder's address.
    row = send(client, b, "Accept", ladder=ladder, subject=f"Re: {notice.subject}")
    assert row.status == InboundEmail.Status.APPLIED
    item.refresh_from_db()
    assert item.status == Challenge.Status.ACCEPTED and item.match.games.count() == 1
    assert "the first game has started" in the_answer(b.player).body


def test_decline_counts_as_a_forfeit(client, club):
    ladder, (a, b, c, d, e) = club
    challenges.challenge(c, a, actor=None)
    row = send(client, a, "decline", ladder=ladder)
    assert row.status == InboundEmail.Status.ANSWERED and not Match.objects.exists()  # asked to confirm
    assert "Declining C's challenge counts as a forfeit" in the_answer(a.player).body
    row = send(client, a, f"confirm {code_in(the_answer(a.player))}", ladder=ladder)
    assert row.status == InboundEmail.Status.APPLIED
    match = Match.objects.get(ladder=ladder)
    assert (match.winner, match.decided_by, match.challenge.status) == (c, Match.DecidedBy.FORFEIT, "lapsed")
    assert [e.player.display_name for e in ladder.entrants.order_by("position")] == ["C", "A", "B", "D", "E"]
    assert "it counts as a forfeit, so C takes your place" in the_answer(a.player).body
    assert ladder.history.get(kind="result").text == "A declined C's challenge"


def test_withdraw_and_several_challenges_need_a_name(client, club):
    ladder, (a, b, c, d, e) = club
    challenges.challenge(d, c, actor=None)
    challenges.challenge(e, c, actor=None)
    row = send(client, c, "accept", ladder=ladder)
    assert row.status == InboundEmail.Status.ANSWERED
    assert 'You have open challenges with D and E: add the name ("accept NAME").' in the_answer(c.player).body
    assert not Match.objects.exists()
    send(client, e, "withdraw", ladder=ladder)
    send(client, e, f"confirm {code_in(the_answer(e.player))}", ladder=ladder)
    assert "You withdrew your challenge to C." in the_answer(e.player).body
    assert Challenge.objects.get(challenger=e).status == Challenge.Status.WITHDRAWN
    send(client, c, "accept d", ladder=ladder)
    assert Challenge.objects.get(challenger=d).status == Challenge.Status.ACCEPTED


def test_the_subject_is_read_when_the_body_says_nothing(client, club):
    ladder, (a, *_rest) = club
    row = send(client, a, "", ladder=ladder, subject="standings")
    assert row.outcome == "standings" and the_answer(a.player).subject == "Club: the standings"


@pytest.mark.parametrize(
    "who, words, told",
    [
        ("e", "challenge Zed", "Nobody called Zed is on Club. You may challenge B, C or D. Nothing was done."),
        (
            "e",
            "challenge",
            'Write the name of the player to challenge ("challenge NAME"). You may challenge B, C or D.',
        ),
        ("e", "challenge A", "You may challenge at most 3 places above you. Nothing was done."),
        ("e", "accept", "You have no open challenge sent to you on Club. Nothing was done."),
        ("e", "withdraw", "You have no open challenge that you made on Club. Nothing was done."),
        ("e", "play 7C", 'We could not read what you want ("play 7C"): nothing was done.'),
        ("stranger", "challenge A", "You are not on Club: join it on its page first. Nothing was done."),
    ],
    ids=["unknown name", "no name", "out of range", "nothing to accept", "nothing to withdraw", "bad word", "not on"],
)
def test_bad_words_and_unknown_names_are_answered_and_change_nothing(client, club, ladder_state, who, words, told):
    ladder, entrants = club
    user = make_user(display_name="Stranger") if who == "stranger" else entrants[4].player
    before = ladder_state(ladder)
    row = send(client, user, words, ladder=ladder)
    assert row.status == InboundEmail.Status.ANSWERED
    answer = the_answer(user)
    assert told in answer.body
    assert "standings        the ladder's table" in answer.body  # what can be sent
    after = ladder_state(ladder)
    assert {k: v for k, v in after.items() if k != "mail"} == {k: v for k, v in before.items() if k != "mail"}


def test_a_name_two_players_share_the_start_of_is_asked_again(client, make_ladder, ladder_state):
    ladder, entrants = make_ladder(3, slug="names")
    for entrant, name in zip(entrants, ["Sam Smith", "Sam Jones", "Pat"], strict=True):
        entrant.player.display_name = name
        entrant.player.save()
    before = ladder_state(ladder)
    send(client, entrants[2], "challenge sam", ladder=ladder)
    assert "sam could be Sam Smith or Sam Jones: write the whole name." in the_answer(entrants[2].player).body
    assert ladder_state(ladder)["challenges"] == before["challenges"]
    send(client, entrants[2], "challenge Sam Jones", ladder=ladder)
    assert Challenge.objects.get().defender == entrants[1]


def test_a_stranger_without_an_account_is_dropped_unanswered(client, club, ladder_state):
    ladder, _ = club
    before = ladder_state(ladder)
    message = payloads.compose(
        sender="Mallory <mallory@example.net>", to=notices.ladder_address(ladder), subject="x", text="standings\n"
    )
    mail.outbox.clear()
    payloads.post(client, "postmark", message)
    row = InboundEmail.objects.get()
    assert row.status == InboundEmail.Status.DROPPED and not mail.outbox
    assert ladder_state(ladder) == {**before, "mail": 0}


def test_a_message_failing_the_sender_checks_is_refused(client, club, ladder_state):
    ladder, (a, b, c, d, e) = club
    challenges.challenge(c, a, actor=None)
    before = ladder_state(ladder)
    row = send(client, a, "decline", ladder=ladder, esp="amazon_ses", verdicts={"dmarc": "FAIL"})
    assert row.status == InboundEmail.Status.REFUSED and row.outcome == "DMARC failed"
    assert ladder_state(ladder) == {**before, "mail": 0}  # nothing done, nothing answered


@pytest.mark.parametrize(
    "esp, options, headers",
    [
        ("postmark", {"envelope_sender": "mallory@evil.example"}, {}),
        ("postmark", {"spf": "Neutral"}, {}),
        ("postmark", {"spf": "None"}, {"Authentication-Results": "evil.example; dkim=pass header.d=example.com"}),
        (
            "mailgun",
            {"checks": {"X-Mailgun-Spf": "Fail", "X-Mailgun-Dkim-Check-Result": "Fail"}},
            {"Authentication-Results": "mx.evil.example; spf=pass; dkim=pass; dmarc=pass"},
        ),
        (
            "amazon_ses",
            {"verdicts": {"spf": "FAIL", "dkim": "FAIL", "dmarc": "FAIL"}},
            {"Authentication-Results": "amazonses.com; spf=pass; dkim=pass; dmarc=pass"},
        ),
    ],
    ids=[
        "unaligned-spf-pass",
        "spf-neutral",
        "spf-none-own-results",
        "mailgun-fail-own-results",
        "ses-fail-own-results",
    ],
)
def test_a_forged_entrant_cannot_act_on_the_ladder(client, club, ladder_state, esp, options, headers):
    """Mallory writes to the ladder's public address as A (From: A's address) through each forgery."""
    ladder, (a, b, c, d, e) = club
    challenges.challenge(c, a, actor=None)
    before = ladder_state(ladder)
    message = payloads.compose(
        sender=f"A <{a.player.email}>",
        to=notices.ladder_address(ladder),
        subject="x",
        text="decline\n",
        headers=headers,
    )
    mail.outbox.clear()
    assert payloads.post(client, esp, message, **options).status_code == 200
    assert InboundEmail.objects.get().status == InboundEmail.Status.REFUSED
    assert ladder_state(ladder) == {**before, "mail": 0}


def test_no_ladder_at_the_address(client, club):
    ladder, (a, *_rest) = club
    row = send(client, a, "standings", to="ladder+nowhere@reply.localhost")
    assert row.status == InboundEmail.Status.ANSWERED
    assert "There is no ladder at this address (nowhere): nothing was done." in the_answer(a.player).body


def test_an_announcement_takes_replies_at_the_ladder(client, club):
    ladder, (a, *_rest) = club
    organiser = make_user(is_staff=True)
    ladder.organisers.add(organiser)
    with committed():
        announcements.announce(ladder, "News", "Hello all.", actor=organiser)
    message = next(m for m in mail.outbox if m.to == [a.player.email])
    assert message.reply_to == [notices.ladder_address(ladder)] and 'Reply "help"' in message.body
    send(client, a, "help", ladder=ladder, subject=f"Re: {message.subject}")
    assert "challenge NAME   challenge the player" in the_answer(a.player).body


def test_answers_are_limited_to_one_a_window(client, club):
    ladder, (a, *_rest) = club
    send(client, a, "standings", ladder=ladder)
    send(client, a, "standings", ladder=ladder)
    assert answers_to(a.player) == []  # the second in the window goes unanswered: never a mail cannon


def test_the_ladder_page_tells_its_players_the_address(client, club):
    ladder, (a, *_rest) = club
    client.force_login(a.player)
    page = client.get(ladder.get_absolute_url())
    assert f'<a href="mailto:{notices.ladder_address(ladder)}">' in page.text


@pytest.mark.parametrize("ladder_game", [True, False], ids=["ladder game", "casual game"])
def test_standings_in_reply_to_a_games_email(client, club, ladder_game):
    ladder, (a, b, c, d, e) = club
    if ladder_game:
        game = challenges.start_match(b, a, actor=None).games.get().game
    else:
        game = start_two_player_game(players=[b.player, a.player])
    row = send(client, b, "standings", to=links.reply_address(game.pk, 0), subject=f"Re: game {game.pk}")
    assert row.status == InboundEmail.Status.ANSWERED
    (answer,) = [m for m in mail.outbox if m.to == [b.player.email]]
    if ladder_game:
        assert row.outcome == "standings" and answer.subject == "Club: the standings"
        assert "  1. A: 0 of 0, 0, +0" in answer.body
    else:
        assert "This game is not part of a ladder, so it has no standings." in answer.body
    assert not game.events.filter(source="email").exists()


def test_a_decline_in_an_entrants_name_costs_them_nothing_until_they_confirm(client, club, ladder_state):
    """Mail that passes for A's (the sender checks are all an event's public address has) asks A,
    at A's own address, to confirm; the code works once, for A and that challenge only."""
    ladder, (a, b, c, d, e) = club
    challenges.challenge(c, a, actor=None)
    challenges.challenge(e, d, actor=None)
    before = ladder_state(ladder)
    row = send(client, a, "decline", ladder=ladder)
    assert row.status == InboundEmail.Status.ANSWERED and row.outcome == "decline: confirmation asked"
    asked = the_answer(a.player)
    assert "If you did not ask for this, do nothing" in asked.body
    assert ladder_state(ladder) == {**before, "mail": 1}  # one answer, to A: nothing else changed
    code = code_in(asked)
    assert send(client, d, f"confirm {code}", ladder=ladder).status == InboundEmail.Status.ANSWERED  # not D's
    assert "That code confirms nothing now" in the_answer(d.player).body
    assert Challenge.objects.get(defender=d).status == Challenge.Status.OPEN
    assert send(client, a, f"confirm {code}", ladder=ladder).status == InboundEmail.Status.APPLIED
    assert Match.objects.get(ladder=ladder).decided_by == Match.DecidedBy.FORFEIT
    assert send(client, a, f"confirm {code}", ladder=ladder).status == InboundEmail.Status.ANSWERED  # once
    assert Match.objects.count() == 1
