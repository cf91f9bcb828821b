"""The table told to a seat, from its view alone (games.selectors.view_for), for every channel to
render with its own templates: the game page's table (`table.Table`), a turn and the game's end
(`turn`: what is asked, the moves with their words and links; `result`: the result, the last
show), the finished game's review and its offer (`review`), the table in words
(`table_text`), what happened since the seat last looked (`since`), the coach where the game
allows it (`coach_text`), and a refused move in each channel's words (`refusals`, one table).

The package root imports nothing, so the move service can use `refusals` without the rest.
"""
