"""The show as a moment: once the last card of a hand is played, the game page opens on the show
just counted, a combination at a time with its cards, until the reader lays away to the next crib."""

import random
import re

import pytest
from django.urls import reverse

from games import cribbage, lifecycle, selectors, services
from games.cribbage.scoring import number_words
from tests.factories import make_user, play_random_move

pytestmark = pytest.mark.django_db


def page(client, game):
    response = client.get(reverse("games:game", args=[game.pk]))
    assert response.status_code == 200
    return response.content.decode()


def moment(html):
    """The show moment's section of the page, or None."""
    found = re.search(r'<section class="show-moment".*?</section>\s*</div>\s*</section>', html, re.S)
    return found.group(0) if found else None


def second_deal(seed=4, **settings):
    """A two-player game just dealt its second hand: the first hand's show is counted."""
    alice = make_user(allow_forced_moves=False)
    bob = make_user(allow_forced_moves=False)
    game = lifecycle.start_game(players=[alice, bob], rng=random.Random(seed), **settings)
    rng = random.Random(seed)
    while services.engine_state(game).hand_number < 2:
        game = play_random_move(game, cribbage.to_act(services.engine_state(game))[0], rng=rng).game
    assert services.engine_state(game).phase == "discard"
    return game, alice, bob


def test_after_the_last_card_the_page_opens_on_the_show_counted_a_combination_at_a_time(client):
    game, alice, bob = second_deal()
    client.force_login(alice)
    html = page(client, game)
    section = moment(html)
    assert section is not None
    assert html.index("show-moment") < html.index('class="scoreboard"')  # at the top, before the board
    last = selectors.view_for(game, 0).previous_hand
    titles = re.findall(r'<h4 class="show-title">(.*?)</h4>', section)
    # The pone's hand, then the dealer's, then the crib: in the order they are counted.
    assert (
        titles == ["Your hand", "Bob’s hand", "Bob’s crib"]
        if last["dealer"] == 1
        else ["Bob’s hand", "Your hand", "Your crib"]
    )
    for html_of_show, show in zip(section.split('<section class="show counted-show"')[1:], last["shows"]):
        steps = re.findall(r'<li class="show-step ([a-z_]+)" data-cards="([^"]*)"', html_of_show)
        assert steps
        # Each combination names its cards, and they are the hand's cards or the starter.
        for kind, cards in steps:
            assert set(cards.split()) <= set(show["cards"]) | {last["starter"]}
            assert kind != "nothing" or not show["score"]["items"]
    # Every card shown is one the table saw: the shown hands, the crib and the starter, nothing else.
    shown = set(re.findall(r'data-card="([^"]+)"', section))
    assert shown == {c for s in last["shows"] for c in s["cards"]} | {last["starter"]}
    total = sum(s["score"]["total"] for s in last["shows"])
    assert total == sum(int(t) for t in re.findall(r'class="show-total">.*?<strong>(\d+)</strong>', section))


@pytest.mark.parametrize("seed", [4, 7, 11])
def test_the_words_said_aloud_run_up_to_each_hands_total(client, seed):
    game, alice, _ = second_deal(seed=seed)
    client.force_login(alice)
    shows = moment(page(client, game)).split('<section class="show counted-show"')[1:]
    counted = selectors.view_for(game, 0).previous_hand["shows"]
    assert len(shows) == len(counted)
    for html, show in zip(shows, counted):
        said = re.findall(r'<span class="said">(.*?)</span>', html)
        assert len(said) == len(show["score"]["items"])
        if said:  # "Fifteen two", "fifteen four", "a pair is six": the last words are the total
            assert said[-1].lower().endswith(number_words(show["score"]["total"]))


def test_the_moment_lasts_until_the_reader_lays_away(client):
    game, alice, bob = second_deal()
    client.force_login(bob)
    assert moment(page(client, game))
    hand = list(selectors.view_for(game, 1).hand)
    services.submit_move(game, 1, {"kind": "discard", "cards": hand[:2]})
    assert moment(page(client, game)) is None  # Bob has thrown to the next crib
    assert 'class="previous-hand"' in page(client, game)  # the show is still there, in the previous hand
    client.force_login(alice)
    assert moment(page(client, game))  # Alice has not


def test_a_spectator_sees_the_moment_without_any_hand_in_play(client):
    game, alice, bob = second_deal()
    client.force_login(make_user())
    section = moment(page(client, game))
    last = selectors.view_for(game, None).previous_hand
    assert set(re.findall(r'data-card="([^"]+)"', section)) == {c for s in last["shows"] for c in s["cards"]} | {
        last["starter"]
    }


def test_the_first_hand_has_no_moment(client):
    alice, bob = make_user(), make_user()
    game = lifecycle.start_game(players=[alice, bob], rng=random.Random(1))
    client.force_login(alice)
    assert moment(page(client, game)) is None


def test_under_muggins_a_count_whose_muggins_chance_is_open_shows_no_combinations(client):
    """The true count of a show whose muggins window is open is secret: the moment says the claim only."""
    alice, bob = make_user(allow_forced_moves=False), make_user(allow_forced_moves=False)
    game = lifecycle.start_game(players=[alice, bob], rng=random.Random(7), muggins=True, target=61)
    rng = random.Random(7)
    while services.engine_state(game).phase != "show":
        state = services.engine_state(game)
        seat = cribbage.to_act(state)[0]
        move = rng.choice(cribbage.legal_moves(state, seat))
        game = services.submit_move(game, seat, {**move, "claim": 0} if move["kind"] == "play" else move).game
    state = services.engine_state(game)
    pone = cribbage.to_act(state)[0]
    services.submit_move(game, pone, {"kind": "count", "points": 0})
    game.refresh_from_db()
    assert selectors.view_for(game, 1 - pone).shows[-1].get("score") is None  # still secret
    client.force_login((alice, bob)[1 - pone])
    section = moment(page(client, game))
    assert section is not None and "The true count is shown once the chance to call muggins has passed" in section
    assert "show-step" not in section and "data-cards" not in section


def test_a_player_whose_name_looks_like_markup_is_named_as_text_in_the_show_and_the_pegging(client):
    game, alice, bob = second_deal()
    bob.display_name = '<b class="x">Bob</b> & co'
    bob.save(update_fields=["display_name"])
    client.force_login(alice)
    html = page(client, game)
    named = "&lt;b class=&quot;x&quot;&gt;Bob&lt;/b&gt; &amp; co"
    assert f"{named}’s hand" in moment(html)
    assert f'<span class="who">{named}</span>' in html  # the last hand's pegging
    assert "<b " not in html
