"""Play-by-email records: the outbox of every email owed, the inbound replies, the answer limiter.

Models hold data only; what happens to them is in services.py.
"""

from django.db import models
from django.utils import timezone


class OutboundEmail(models.Model):
    """An email owed to a player, written in the transaction that makes it owed and sent after commit.

    Every email is one of these (the kinds below): the links a person asks for on the site and
    the answers to replies too. `key` is unique per owed email (for example
    "turn:<game>:<seat>:<seq>" or "digest:<user>:<day>"), so the cause writing
    it twice, or a task or the sweeper sending it twice, still sends one email.
    The message is rendered when it is sent, from `context` (ids and the few
    words the cause knew) and the latest state: a turn email shows the game as
    it is, a stale reminder is skipped, and no rendered hand or login link ever
    sits in this table.

    A turn email for a player who has not come back since their last one is
    HELD until `hold_until` (mail.quiet.turn_email_hold); the sweeper then
    sends it, telling what happened since.

    A transient failure (the server down, a 4xx) leaves the row READY with the
    time of its next attempt; it GAVE_UP once settings.MAIL_GIVE_UP_AFTER has
    passed without success (mail.services.retry_delay has the schedule).
    """

    class Kind(models.TextChoices):
        TURN = "turn", "Your move"
        RESULT = "result", "Game over"
        REMINDER = "reminder", "Reminder of a move"
        DIGEST = "digest", "Daily digest"
        STAND_IN = "stand_in", "The computer moved for you"
        CLAIM_OFFER = "claim_offer", "Out of time"
        VACATION_DAY = "vacation_day", "A vacation day spent"
        VACATION_NOTICE = "vacation_notice", "An opponent away or back"
        CHALLENGE = "challenge", "A challenge (made, accepted, declined)"
        LADDER = "ladder", "A ladder notice"
        INVITATION = "invitation", "An invitation to play"
        ANNOUNCEMENT = "announcement", "An organiser's announcement to an event's entrants"
        CLUB_NIGHT = "club_night", "A club night's results"
        ADDRESS_CHANGED = "address_changed", "An account's address changed (to the old one)"
        # What a person just asked for on the site (accounts.signals.account_email): its link is
        # made when it is sent, and it carries no list headers (mail.kinds.ASKED).
        CONFIRM = "confirm", "Confirm an address"
        LOGIN_LINK = "login_link", "A login link"
        PASSWORD_RESET = "password_reset", "A password reset"
        CHANGE_EMAIL = "change_email", "Confirm a new address (to the new one)"
        ALREADY_REGISTERED = "already_registered", "A sign-up with an address that has an account"
        ADDRESS_WANTED = "address_wanted", "Another account asked for this address"
        DELETE_ACCOUNT = "delete_account", "Delete an account"
        # Answers to what a player wrote to us (mail.answers), owed with the reply's status.
        REPLY_ANSWER = "reply_answer", "An answer to a reply to a game's email"
        REVIEW = "review", 'A finished game\'s review (the reply "review")'
        SERVICE_ANSWER = "service_answer", "An answer to mail to the service's address"
        CHALLENGE_ANSWER = "challenge_answer", "An answer to a reply to a challenge"
        EVENT_ANSWER = "event_answer", "An answer to mail to an event's address"

    class Status(models.TextChoices):
        READY = "ready", "Ready to send"
        HELD = "held", "Held (the player has not come back since the last one)"
        SENDING = "sending", "Being sent"
        SENT = "sent", "Sent"
        SKIPPED = "skipped", "Not needed any more"
        FAILED = "failed", "Failed (refused for good)"
        GAVE_UP = "gave_up", "Gave up (failed again and again for days)"

    key = models.CharField(
        max_length=200, unique=True, help_text="One per owed email: writing or sending it twice sends it once."
    )
    kind = models.CharField(max_length=32, choices=Kind.choices, default=Kind.TURN)
    user = models.ForeignKey(
        "accounts.User",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="outbound_emails",
        help_text="The recipient.",
    )
    game = models.ForeignKey(
        "games.Game", null=True, blank=True, on_delete=models.CASCADE, related_name="outbound_emails"
    )
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    seq = models.PositiveIntegerField(null=True, blank=True, help_text="The game's state when the email became owed.")
    context = models.JSONField(
        default=dict, blank=True, help_text="What the email is rendered from at send time (ids, a few words)."
    )
    to = models.EmailField()
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.READY)
    attempts = models.PositiveSmallIntegerField(default=0)
    next_attempt_at = models.DateTimeField(
        null=True, blank=True, help_text="After a failed attempt: when it is tried again."
    )
    last_error = models.TextField(blank=True)
    message_id = models.CharField(max_length=255, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    claimed_at = models.DateTimeField(null=True, blank=True)
    hold_until = models.DateTimeField(
        null=True, blank=True, help_text="A held turn email goes out at this time (or is no longer needed)."
    )
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seat", "seq", "kind"], name="outbound_once_per_state"),
            models.UniqueConstraint(
                fields=["game", "seat"], condition=models.Q(kind="result"), name="outbound_one_result_per_seat"
            ),
        ]
        indexes = [models.Index(fields=["status", "created_at"])]

    def __str__(self):
        if self.game_id is None:
            return f"{self.kind} to {self.to}: {self.status}"
        return f"{self.kind} game {self.game_id} seat {self.seat} @{self.seq}: {self.status}"


class Announcement(models.Model):
    """An organiser's message to every entrant of an event (a ladder, a tournament), kept as sent:
    who wrote it, when, the words, and for which event. Each entrant's email is an outbox row
    of kind ANNOUNCEMENT rendered from this (mail.announcements)."""

    event = models.CharField(max_length=100, db_index=True, help_text='The event, as its app names it ("ladder:3").')
    event_label = models.CharField(max_length=200, help_text="The event's name, as the email shows it.")
    sender = models.ForeignKey(
        "accounts.User", null=True, blank=True, on_delete=models.SET_NULL, related_name="+", help_text="The organiser."
    )
    subject = models.CharField(max_length=150)
    body = models.TextField()
    url = models.CharField(max_length=300, blank=True, help_text="The event's page on the site.")
    reply_to = models.CharField(max_length=254, blank=True, help_text="The event's address, where replies go.")
    recipients = models.PositiveIntegerField(default=0, help_text="Entrants it was owed to.")
    sent_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-sent_at", "-pk"]

    def __str__(self):
        return f"{self.event_label}: {self.subject}"


class InboundEmail(models.Model):
    """A message that reached the reply address, kept before processing: once per (Message-ID, sender,
    recipient), so a webhook posting it twice is read once, while the same Message-ID from another
    sender or to another of our addresses (one message to two games) is read on its own."""

    class Status(models.TextChoices):
        RECEIVED = "received", "Waiting to be read"
        PROCESSING = "processing", "Being read"
        APPLIED = "applied", "Move made"
        ANSWERED = "answered", "Answered (status, help, or a move refused)"
        IGNORED = "ignored", "Ignored (auto-reply, bounce, our own mail)"
        DROPPED = "dropped", "Dropped (unknown or forged address)"
        REFUSED = "refused", "Refused (not that seat's player)"

    message_id = models.CharField(max_length=255, db_index=True)
    sender = models.CharField(max_length=255, blank=True, help_text="The From address.")
    recipient = models.CharField(max_length=255, blank=True, help_text="The address it reached us at.")
    esp_name = models.CharField(max_length=32, blank=True)
    raw = models.TextField(help_text="The message as received (RFC 822).")
    envelope_sender = models.CharField(max_length=255, blank=True)
    envelope_recipient = models.CharField(max_length=255, blank=True)
    stripped_text = models.TextField(blank=True, help_text="The provider's own reply-only text, if any.")
    spam_detected = models.BooleanField(null=True)
    auth_failure = models.CharField(
        max_length=255, blank=True, help_text="SPF/DKIM/DMARC failure reported by the provider, if any."
    )
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.RECEIVED)
    outcome = models.TextField(blank=True)
    game = models.ForeignKey("games.Game", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    received_at = models.DateTimeField(default=timezone.now)
    claimed_at = models.DateTimeField(null=True, blank=True, help_text="When its reading began.")
    processed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-received_at"]
        constraints = [
            models.UniqueConstraint(fields=["message_id", "sender", "recipient"], name="inbound_once_per_delivery")
        ]

    def __str__(self):
        return f"{self.message_id}: {self.status}"


class AnswerSent(models.Model):
    """One answer to a reply per address, kind of answer and time window: never a mail cannon."""

    address = models.CharField(max_length=254)
    kind = models.CharField(max_length=32)
    window = models.BigIntegerField(help_text="Start of the window, in seconds since the epoch.")
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = "answer sent"
        verbose_name_plural = "answers sent"
        constraints = [
            models.UniqueConstraint(fields=["address", "kind", "window"], name="one_answer_per_window"),
        ]


class OfferedMove(models.Model):
    """A move link's secret: the random `key` in the URL stands for one move of one seat at one
    state, so the URL shows no card, game or seat to an access log or a link scanner. One row
    per offered move (the turn email and its reminder share it); its link expires
    links.MOVE_LINK_MAX_AGE after the last email that carried it, and the row is deleted then."""

    key = models.CharField(max_length=32, unique=True)
    # The game's id, not a key to it: a link to a game deleted since says so (its row is deleted with age).
    game_id = models.BigIntegerField()
    seat = models.PositiveSmallIntegerField()
    seq = models.PositiveIntegerField()
    move = models.JSONField(help_text="The engine move without its seat.")
    move_key = models.CharField(max_length=64, help_text="A digest of the move, to find it again.")
    made_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game_id", "seat", "seq", "move_key"], name="offered_move_once"),
        ]
