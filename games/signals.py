"""What the games app announces, for the apps above it (mail, clock, ladders) to act on.

Sent by the move service (games.services). Receivers are connected in each
app's AppConfig.ready(), so games never imports the apps that react to it.
"""

from django.dispatch import Signal

from games.follow_ups import Topic

# Inside the move's transaction, after the seats' `to_act` changed and before the move's
# rows are written (the events, the game row and the seats, in one trip): receivers set the
# other turn fields of `seats` (Seat.TURN_FIELDS) in memory, which the move service then
# saves; they read and write nothing. Arguments: game, seats (the Seat rows whose turn
# started or ended), now.
turns_changed = Signal()

# Inside the move's transaction, after the events and the snapshot are written (on PostgreSQL
# gathered in games.trips.one_trip, sent with the rows the receivers owe through
# games.statements, or before any statement a receiver runs itself): game, seats (number ->
# Seat, with players), state (the engine state after the move), events (the Event rows written),
# started (numbers of seats whose turn started). Receivers write what the move owes (the
# outbox's turn emails) in the same transaction; anything slow or networked waits for
# transaction.on_commit.
move_applied = Signal()

# Durable work owed by the finishing transaction (games.follow_ups): a row per listener
# written with the game's last event (or its table result), each listener's handler called
# with the game's id after commit, retried alone until it succeeds, possibly more than once
# (handlers are idempotent). Listeners register in their AppConfig.ready():
# `game_finished.listen("ladders.count_game", handler)`.
game_finished = Topic("game_finished")

# The computer must move in a game at state `seq`: owed by the move that made it so,
# handled by games.computer.play_turn(game_id, seq) (nothing for a state that moved on).
computer_turn = Topic("computer_turn")

# Inside the transaction that causes it: a challenge to tell a player about. Arguments:
# challenge, to (the User), kind ("challenge": you are challenged; "accepted": the game has
# started; "declined"), by (the User who accepted or declined, or None). Mail owes the email
# in its outbox.
challenge_notice = Signal()
