"""Ladder games are rated: no engine help until they end, whatever the players asked."""

import re

from django.core import mail
from django.urls import reverse

from games import cribbage, lifecycle
from games import services as game_services
from games.coaching import coach_notes
from games.models import Game
from ladders import challenges


def test_a_ladder_game_has_no_help_and_says_it_is_the_ladders_rule(
    make_ladder, client, django_capture_on_commit_callbacks
):
    ladder, (a, b, c) = make_ladder(3)
    with django_capture_on_commit_callbacks(execute=True):
        match = challenges.start_match(c, b, actor=None)
    game = match.games.get().game
    assert game.assistance == Game.Assistance.OFF_BY_RULE
    turns = [m for m in mail.outbox if m.tags == ["turn"]]
    assert {m.to[0] for m in turns} == {b.player.email, c.player.email}
    for message in turns:
        assert "rated games (a ladder's) never have it" in message.body
        assert not re.search(r"expected -?\d|\d\.\d\d", re.sub(r"https?://\S+", "", message.body))
    for seat in (0, 1):
        game_services.submit_move(game, seat, cribbage.legal_moves(game_services.engine_state(game), seat)[-1])
    game.refresh_from_db()
    assert (
        coach_notes(game, 0)
        == coach_notes(game, 1)
        == {"discard": None, "previous_hand": None, "review": None, "chance_now": None}
    )
    client.force_login(b.player)
    page = client.get(reverse("games:game", args=[game.pk])).content.decode()
    assert "never have it" in page and "Coach" not in page and "Advice" not in page


def test_players_who_ask_for_help_in_a_rated_game_get_none(make_ladder):
    ladder, (a, b) = make_ladder(2)
    game = lifecycle.start_game(players=[a.player, b.player], help_on=True, rated=True)
    assert game.assistance == Game.Assistance.OFF_BY_RULE
    assert not game.help_allowed_for(0) and not game.help_allowed_for(1)
