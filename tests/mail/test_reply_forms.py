"""How people write replies: a plan on the discard's line, two cards on a play line, invisible
characters, a reply below the quote, a move in the Subject, an automatic reply's subject, a very
large HTML-only reply. Each is read, or refused in words; nothing is dropped silently."""

import base64

import pytest
from anymail.inbound import AnymailInboundMessage
from django.core import mail

from games.models import Event
from games.selectors import view_for
from mail import links, parsing
from mail.models import InboundEmail
from tests.factories import genuine

from .conftest import reply
from .test_inbound import deliver, to_play_phase

WROTE = "On Mon, Jun 2, 2025 at 10:00 AM Cribbage by mail <cribbage@localhost> wrote:"


def moves(game):
    return list(Event.objects.filter(game=game, source=Event.Source.EMAIL).values_list("kind", flat=True))


def discards(game, seat=0):
    game.refresh_from_db()
    return list(view_for(game, seat).my_discards)


def answer_to(address):
    [answer] = [m for m in mail.outbox if m.to == [address]]
    return answer.body


def message(game, seat, *, text=None, html=None, subject=None):
    player = game.seats.get(number=seat).player
    return AnymailInboundMessage.construct(
        from_email=player.email,
        to=links.reply_address(game.pk, seat),
        subject=subject if subject is not None else f"Re: Your move: Alice v Bob (game {game.pk})",
        text=text,
        html=html,
        headers=genuine(player.email),
    )


@pytest.mark.parametrize("joint", [" ", ", ", "; "])
def test_a_plan_on_the_discards_line_is_read_as_a_plan(game, on_commit, joint):
    view = view_for(game, 0)
    thrown, kept = list(view.hand[:2]), list(view.hand[2:])
    row = deliver(reply(game, 0, f"crib {' '.join(thrown)}{joint}plan {' '.join(kept)}"), on_commit)
    assert row.status == InboundEmail.Status.APPLIED and moves(game) == ["discard", "plan"]
    assert discards(game) == thrown and view_for(game, 0).plan["order"] == kept


def test_a_plan_below_a_word_of_chatter_is_read_not_dropped(game, on_commit):
    view = view_for(game, 0)
    thrown, kept = list(view.hand[:2]), list(view.hand[2:])
    text = f"crib {' '.join(thrown)}\nGood luck!\nplan {' '.join(kept)}\n\n{WROTE}\n> plan 9D\n"
    row = deliver(message(game, 0, text=text), on_commit)
    assert row.status == InboundEmail.Status.APPLIED and moves(game) == ["discard", "plan"]
    assert discards(game) == thrown and view_for(game, 0).plan["order"] == kept


def test_an_instruction_below_the_lines_read_is_named_to_the_player_not_applied(game, on_commit):
    view = view_for(game, 0)
    thrown, kept = list(view.hand[:2]), list(view.hand[2:])
    news = "\n".join(f"News of the week, part {n}." for n in range(parsing.MAX_LINES))
    row = deliver(message(game, 0, text=f"crib {' '.join(thrown)}\n{news}\nplan {' '.join(kept)}\n"), on_commit)
    assert row.status == InboundEmail.Status.APPLIED and moves(game) == ["discard"]
    assert view_for(game, 0).plan is None
    address = game.seats.get(number=0).player.email
    said = [" ".join(m.body.split()) for m in mail.outbox if m.to == [address]]
    assert any(f'nothing of them was applied: "plan {" ".join(kept)}"' in body for body in said)


def test_two_cards_on_a_play_line_play_nothing_and_say_which_was_not_understood(game, on_commit):
    turn = to_play_phase(game)
    hand = list(view_for(game, turn).hand)
    mail.outbox.clear()
    row = deliver(reply(game, turn, f"play {hand[0]} {hand[1]}"), on_commit)
    assert row.status == InboundEmail.Status.ANSWERED and moves(game) == []
    assert list(view_for(game, turn).hand) == hand
    assert "so nothing on that line was played" in answer_to(game.seats.get(number=turn).player.email)


def test_a_second_instruction_after_a_move_refuses_the_line(game, on_commit):
    hand = list(view_for(game, 0).hand)
    mail.outbox.clear()
    row = deliver(reply(game, 0, f"crib {hand[0]} {hand[1]} count 12"), on_commit)
    assert row.status == InboundEmail.Status.ANSWERED and moves(game) == []
    assert 'We could not read "count 12" after the move on that line' in answer_to("alice@example.com")


@pytest.mark.parametrize("mark", ["\u200b", "\u200c", "\u200d", "\ufeff", "\u00ad", "\u2060"])
def test_invisible_characters_after_a_card_are_ignored(game, on_commit, mark):
    hand = list(view_for(game, 0).hand)
    row = deliver(reply(game, 0, f"{mark}crib {hand[0]}{mark} {hand[1]}{mark}"), on_commit)
    assert row.status == InboundEmail.Status.APPLIED
    assert discards(game) == hand[:2]


def test_a_bottom_posted_reply_is_read_below_the_quote(game, on_commit):
    hand = list(view_for(game, 0).hand)
    text = f"{WROTE}\n> crib {hand[2]} {hand[3]}\n> Your hand: ...\n\ncrib {hand[0]} {hand[1]}\n\n-- \nAlice\n"
    row = deliver(message(game, 0, text=text), on_commit)
    assert row.status == InboundEmail.Status.APPLIED
    assert discards(game) == hand[:2]


def test_a_bottom_posted_html_reply_is_read_below_the_blockquote(game, on_commit):
    hand = list(view_for(game, 0).hand)
    html = (
        f'<div class="moz-cite-prefix">{WROTE}</div><blockquote type="cite">crib {hand[2]} {hand[3]}'
        f"</blockquote><p>crib {hand[0]} {hand[1]}</p>"
    )
    row = deliver(message(game, 0, html=html), on_commit)
    assert row.status == InboundEmail.Status.APPLIED
    assert discards(game) == hand[:2]


def test_below_an_unquoted_original_nothing_is_read(game, on_commit):
    # Outlook's header block quotes nothing with ">": what follows is the original to the end.
    hand = list(view_for(game, 0).hand)
    text = f"Thanks\n\n-----Original Message-----\nFrom: Cribbage <c@localhost>\nSent: Monday\n\ncrib {hand[0]} {hand[1]}\n"
    row = deliver(message(game, 0, text=text), on_commit)
    assert row.status == InboundEmail.Status.ANSWERED and moves(game) == []


@pytest.mark.parametrize("body", ["", "\n\n", "Sent from my iPhone\n", f"\n{WROTE}\n> old\n"])
def test_a_move_in_the_subject_of_an_empty_reply_is_read(game, on_commit, body):
    hand = list(view_for(game, 0).hand)
    row = deliver(message(game, 0, text=body or " ", subject=f"Re: crib {hand[0]} {hand[1]}"), on_commit)
    assert row.status == InboundEmail.Status.APPLIED
    assert discards(game) == hand[:2]


def test_the_subject_is_not_read_when_the_body_has_words(game, on_commit):
    hand = list(view_for(game, 0).hand)
    row = deliver(message(game, 0, text="Thinking about it.", subject=f"crib {hand[0]} {hand[1]}"), on_commit)
    assert row.status == InboundEmail.Status.ANSWERED and moves(game) == []


@pytest.mark.parametrize(
    "subject",
    [
        "Re: Your move [Out of Office]",
        "Automatic reply: Re: Your move",
        "Autosvar: Re: Your move",
        "Abwesend: Re: Your move",
        "Absence : Re: Your move",
        "Fuera de la oficina: Re: Your move",
        "Risposta automatica: Re: Your move",
        "Réponse automatique : Re: Your move",
        "Automatisch antwoord: Re: Your move",
        "Re: Your move (Out of office until Monday)",
        "Absence du bureau : Re: Your move",
        "Re: Your move - Out of Office",
        "自动回复: Re: Your move",
    ],
)
def test_an_automatic_replys_subject_anywhere_means_no_answer(game, on_commit, subject):
    hand = list(view_for(game, 0).hand)
    mail.outbox.clear()
    row = deliver(reply(game, 0, f"crib {hand[0]} {hand[1]}", subject=subject), on_commit)
    assert row.status == InboundEmail.Status.IGNORED and moves(game) == [] and mail.outbox == []


@pytest.mark.parametrize(
    "subject",
    [
        "Re: back from absence",
        "on vacation next week",
        "Re: out of office tomorrow, my move below",
        "Abwesend bis Montag",
    ],
)
def test_a_players_reply_with_an_automatic_word_in_its_subject_is_read(game, on_commit, subject):
    # The words of an automatic reply are a marker only at its start, in brackets or as its end.
    hand = list(view_for(game, 0).hand)
    row = deliver(reply(game, 0, f"crib {hand[0]} {hand[1]}", subject=subject), on_commit)
    assert row.status == InboundEmail.Status.APPLIED and discards(game) == hand[:2]


@pytest.mark.parametrize(
    "header", [{"Precedence": "auto_reply"}, {"X-Autorespond": "yes"}, {"X-Auto-Response-Suppress": "OOF"}]
)
def test_an_automatic_replys_headers_mean_no_answer_whatever_its_subject(game, on_commit, header):
    hand = list(view_for(game, 0).hand)
    mail.outbox.clear()
    row = deliver(reply(game, 0, f"crib {hand[0]} {hand[1]}", headers=header), on_commit)
    assert row.status == InboundEmail.Status.IGNORED and moves(game) == [] and mail.outbox == []


def test_a_very_large_html_only_reply_is_read(game, on_commit):
    hand = list(view_for(game, 0).hand)
    filler = "<p>Old thread &nbsp; with <b>lots</b> of <span style='color:red'>markup</span></p>\n" * 11_000
    html = f"<html><body><div>crib {hand[0]} {hand[1]}</div><hr><div>{filler}</div></body></html>"
    assert len(html) > 800_000
    row = deliver(message(game, 0, html=html), on_commit)
    assert row.status == InboundEmail.Status.APPLIED
    assert discards(game) == hand[:2]


def test_an_answer_never_quotes_encoded_text_back(game, on_commit):
    encoded = base64.b64encode(("<div>nothing to read here</div>" * 40).encode()).decode()
    lines = "\n".join(encoded[i : i + 76] for i in range(0, len(encoded), 76))
    mail.outbox.clear()
    row = deliver(message(game, 0, text=lines), on_commit)
    assert row.status == InboundEmail.Status.ANSWERED
    body = answer_to("alice@example.com")
    assert encoded[:76] not in body and "You wrote:" not in body


@pytest.mark.parametrize("shape", ["outlook", "gmail", "pasted"])
def test_our_own_turn_email_in_the_reply_is_never_read(game, on_commit, shape):
    [turn] = [m.body for m in mail.outbox if m.to == ["alice@example.com"] and "it is your turn to" in m.body]
    quote = {
        "outlook": "________________________________\nFrom: Cribbage by mail <cribbage@localhost>\n"
        "Sent: Monday, June 2, 2025 10:00 AM\nTo: Alice\nSubject: Your move\n\n" + turn,
        "gmail": f"{WROTE}\n" + "\n".join("> " + line for line in turn.splitlines()),
        "pasted": turn,
    }[shape]
    mail.outbox.clear()
    row = deliver(message(game, 0, text=f"Thanks, sounds good.\n\n{quote}\n"), on_commit)
    assert row.status == InboundEmail.Status.ANSWERED and moves(game) == []
    assert row.outcome == "unreadable: 'Thanks, sounds good.'"


def test_resign_with_other_words_on_its_line_ends_nothing(game, on_commit):
    mail.outbox.clear()
    row = deliver(reply(game, 0, "I resign myself to a long wait for the cards."), on_commit)
    game.refresh_from_db()
    assert row.status == InboundEmail.Status.ANSWERED and not game.is_finished
    assert "We could not read a move in your reply" in answer_to("alice@example.com")
    row = deliver(reply(game, 0, "I resign."), on_commit)
    game.refresh_from_db()
    assert row.status == InboundEmail.Status.APPLIED and game.finish == "resign"
