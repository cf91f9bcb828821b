"""The ladder in words: its rules, for its page (shown before anyone joins); its name on a game's emails."""

from games.event_games import EventGame
from games.presentation import plural

from .models import LadderGame


def _clock_stops(ladder):
    stops = [w for w, on in (("at weekends", ladder.pause_weekends), ("at night", ladder.pause_nights)) if on]
    return f" The clock stops {' and '.join(stops)} (each player's own time)." if stops else ""


def describe_rules(ladder):
    """Sentences stating how this ladder works."""
    double = (
        f"a double skunk {plural(ladder.value_double_skunk, 'game point')}"
        if ladder.double_skunk_rule
        else "a double skunk counts as a skunk"
    )
    lines = [
        f"Games: {ladder.get_variant_display().lower()} to {ladder.target}"
        f"{', muggins' if ladder.muggins else ''}; {plural(ladder.days_per_move, 'day')} per move. "
        f"On a timeout: {ladder.get_timeout_policy_display().lower()}."
        + _clock_stops(ladder)
        + (
            f" Each player has a time bank of {plural(ladder.time_bank_days, 'day')} per game, spent a day "
            f"at a time before a timeout."
            if ladder.time_bank_days
            else ""
        ),
        f"A match goes to the first player with {plural(ladder.match_length, 'game point')}: "
        f"a win is worth {ladder.value_win}, a skunk {ladder.value_skunk}, {double}; a win by timeout "
        f"or forfeit {ladder.value_forfeit}. A resignation counts as the board stood. "
        f"The loser of each game deals the next.",
        f"You may challenge anyone up to {plural(ladder.challenge_range, 'place')} above you. "
        f"The challenged player has {plural(ladder.accept_days, 'day')} to accept, or the challenge "
        f"counts as a forfeit.",
        "If the challenger wins the match they take the challenged player's place and everyone "
        "between moves down one; otherwise nobody moves. Results are applied in the order matches "
        "finish, each to the positions at that moment.",
        f"At most {plural(ladder.max_open_challenges, 'open challenge or match', 'open challenges or matches')} at once per player."
        + (
            f" After a successful defence a player cannot be challenged for {plural(ladder.immunity_days, 'day')}."
            if ladder.immunity_days
            else ""
        )
        + (
            f" The same two players meet again only after {plural(ladder.rematch_days, 'day')}."
            if ladder.rematch_days
            else ""
        ),
    ]
    if ladder.idle_rule == "drop":
        lines.append(
            f"With no challenge or match for {plural(ladder.idle_days, 'day')} you drop "
            f"{plural(ladder.idle_drop_places, 'place')}."
        )
    elif ladder.idle_rule == "remove":
        lines.append(
            f"With no challenge or match for {plural(ladder.idle_days, 'day')} you are removed from the ladder."
        )
    lines.append(
        f"Vacations: up to {plural(ladder.vacation_days_cap, 'day')} a season; nobody can "
        f"challenge you while you are away."
        if ladder.vacation_allowed
        else "No vacations."
    )
    if ladder.scoring == "acc":
        lines.append("Season table: game points (2 a win, 3 a skunk), then wins, then spread.")
    return lines


def event_game(game_id):
    """The ladder a game is played in (games.event_games), as its email subject names it: "Club
    Ladder, match game 2"; on the game's page, "Alice v Bob, game 2" as the ladder's page says."""
    lg = LadderGame.objects.filter(game_id=game_id).select_related("match__ladder").first()
    if lg is None:
        return None
    ladder = lg.match.ladder
    subject = f"{ladder.name}, match game {lg.number}" if lg.number > 1 else ladder.name
    return EventGame(event=ladder.name, url=ladder.get_absolute_url(), title=f"Match game {lg.number}", subject=subject)
