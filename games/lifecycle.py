"""A game's start: who sits where, the engine's help it has, the opening deal.

The moves that follow go through `games.services.submit_move`; this module only makes the
game row and its seats and writes the deal through the same service.
"""

from dataclasses import replace
from datetime import timedelta

from django.db import transaction

from games import cribbage, game_settings, services
from games.game_settings import GameSettings
from games.models import SEATS_BY_VARIANT, Game, Seat


def assistance_for(players, *, practice=False, help_on=None, rated=False):
    """The engine's help a new game has (a Game.Assistance), decided once when it starts.

    A rated game (a ladder's, a tournament's) never has help, whatever was asked;
    practice has advice and the coach; a game with the computer at the table has
    the coach unless told otherwise; a game between people has none unless
    `help_on` (every player accepted "help on for both").
    """
    if rated:
        return Game.Assistance.OFF_BY_RULE
    if practice:
        return Game.Assistance.ADVICE
    if help_on is None:
        help_on = any(player is None for player in players)
    return Game.Assistance.COACH if help_on else Game.Assistance.OFF


def start_game(
    *,
    players,
    settings=None,
    computer_level="",
    computer_delay=None,
    practice=False,
    help_on=None,
    rated=False,
    first_dealer=None,
    rng=None,
    deal_seed="",
    **choices,
):
    """Create a game for `players` (a user, or None for a computer seat, per seat) and deal.

    The game is played under `settings` (a GameSettings; default its defaults) with `choices`
    (any of its fields by name) put over it: a variant, a target, a clock (each seat's time bank
    starts full). Seat numbers follow the order of `players`; for four players, seats 0 and 2
    are partners against 1 and 3. `help_on` and `rated` decide the engine's help
    (see `assistance_for`); a rated game counts for the ratings. With a `deal_seed` every game
    of that seed is dealt the same decks hand by hand (a duplicate event: give `first_dealer`
    too, so the same seat deals each hand at every table).
    """
    unknown = set(choices) - set(game_settings.NAMES)
    if unknown:
        raise TypeError(f"start_game() got unexpected settings: {', '.join(sorted(unknown))}")
    settings = replace(settings or GameSettings(), **choices)
    variant = settings.variant
    seats_needed = SEATS_BY_VARIANT[variant]
    if len(players) != seats_needed:
        raise ValueError(f"A {variant} game needs {seats_needed} players, not {len(players)}.")
    # Practice is practice: resigning there is a plain loss, not the board's skunk.
    rules = cribbage.rules_for(
        variant, target=settings.target, muggins=settings.muggins, resign_concedes_skunk=not practice
    )
    state = cribbage.new_game(rules, first_dealer=first_dealer)
    with transaction.atomic():
        game = Game.objects.create(
            **replace(settings, target=rules.target).as_fields(),
            practice=practice,
            computer_delay=computer_delay or timedelta(0),
            rules=rules.to_json(),
            first_dealer=first_dealer,
            deal_seed=deal_seed,
            assistance=assistance_for(players, practice=practice, help_on=help_on, rated=rated),
            rated=rated,
            snapshot=cribbage.state_to_json(state),
        )
        Seat.objects.bulk_create(
            Seat(
                game=game,
                number=n,
                player=player,
                computer_level="" if player else (computer_level or "standard"),
                team=rules.side_of(n),
                bank_seconds=game.time_bank_days * 86400 if player else 0,
            )
            for n, player in enumerate(players)
        )
        seats = {seat.number: seat for seat in game.seats.select_related("player")}
        services.append_events(game, seats, state, [], rng=rng)
    return game
