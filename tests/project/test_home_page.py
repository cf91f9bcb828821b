"""The home page shows the game before anyone signs up: the board, a hand and a turn email,
drawn by the same board code and email templates the games use, from fixed sample data."""

import re

import pytest

from cribsite.views import SAMPLE_HAND, SAMPLE_MOVES

pytestmark = pytest.mark.django_db


def test_the_home_page_shows_a_board_a_hand_and_a_turn_email(client):
    html = client.get("/").content.decode()
    section = re.search(r'<section class="sample-game".*?</section>', html, re.S).group(0)
    # The real board, both shapes, with the sample's pegs.
    assert section.count('<svg xmlns="http://www.w3.org/2000/svg" class="cribbage-board') == 2
    assert 'data-peg="front" data-track="0" data-hole="78"' in section
    assert 'data-peg="back" data-track="1" data-hole="76"' in section
    # The hand, as card chips.
    assert section.count('class="card ') >= len(SAMPLE_HAND)
    # The turn email as the mail templates write it: its subject, the hand, the moves to reply with.
    assert "Your discard — Alice v Bob, hand 9 (game 42)" in section
    assert "Alice, it is your turn to lay away 2 cards to Bob&#x27;s crib" in section
    assert "Your hand: 5♥ 5♣ J♦ 6♠ 4♦ Q♥" in section
    assert all(words in section for words in SAMPLE_MOVES)
    assert "{{" not in section and "{%" not in section
