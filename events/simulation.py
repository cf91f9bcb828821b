"""What the season simulations of every event app share (their management commands): playing a
game out with the computer on every seat, and a table printed for the terminal."""

from games import cribbage
from games import services as game_services


def play_out(game, choose, rng):
    """Play `game` to the end, each seat's moves chosen by `choose(state, seat)`, through submit_move."""
    while True:
        game.refresh_from_db()
        if game.is_finished:
            return game
        state = game_services.engine_state(game)
        seat = cribbage.to_act(state)[0]
        game_services.submit_move(game, seat, choose(state, seat), rng=rng)


def format_table(rows, columns):
    """`rows` (mappings) under `columns` ([(key, label)]), right-aligned, for the terminal."""
    widths = [max(len(label), *(len(str(r[key])) for r in rows)) for key, label in columns]

    def line(cells):
        return " | ".join(str(c).rjust(w) for c, w in zip(cells, widths))

    out = [line([label for _, label in columns]), "-+-".join("-" * w for w in widths)]
    out += [line([r[key] for key, _ in columns]) for r in rows]
    return "\n".join(out)
