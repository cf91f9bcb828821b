"""What the games app announces, for the apps above it (mail, clock, ladders) to act on.

Sent by the move service (games.services). Receivers are connected in each
app's AppConfig.ready(), so games never imports the apps that react to it.
"""

from django.dispatch import Signal

# Inside the move's transaction, after the seats' `to_act` changed and before they
# are saved: receivers set the other turn fields of `seats` (Seat.TURN_FIELDS),
# which the move service then saves. Arguments: game, seats (the Seat rows whose turn
# started or ended), now.
turns_changed = Signal()

# Inside the move's transaction, after the events and the snapshot are written:
# game, seats (number -> Seat, with players), state (the engine state after the
# move), events (the Event rows written), started (numbers of seats whose turn
# started). Receivers write what the move owes (the outbox's turn emails) in the
# same transaction; anything slow or networked waits for transaction.on_commit.
move_applied = Signal()

# After the finishing move committed (from a Celery task, so possibly more than
# once: receivers are idempotent). Arguments: game_id.
game_finished = Signal()

# Inside the transaction that causes it: a challenge to tell a player about. Arguments:
# challenge, to (the User), kind ("challenge": you are challenged; "accepted": the game has
# started; "declined"), by (the User who accepted or declined, or None). Mail owes the email
# in its outbox.
challenge_notice = Signal()
