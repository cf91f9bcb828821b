"""Starting games between players: challenges and open seeks (games against the computer:
games.computer_games).

Every game starts through `games.lifecycle.start_game`; this module only
decides who sits where and when the table is full.

Choices made here (documented so the pages and emails can say them):

- The challenger always takes seat 0. The other places are seats 1..n-1 in the
  order given, so in a four-player game the second person named (seat 2) is
  the challenger's partner, and seats 1 and 3 the opponents. A two-player or
  five-card challenge names 1 player, three-player 2, four-player 3.
- Who deals first is cut for, as at the table (start_game with no first_dealer).
- A challenge may name a member or any email address. An address with no
  account gets one through `accounts.services.invite`, whose invitation mail
  leads (after choosing a name and password) to the challenge page to accept;
  a member gets a challenge notice by mail instead.
- The game starts once every named player has accepted; one decline ends the
  whole challenge (the challenger is told), and the challenger may cancel
  while it is open.
- A seek names nobody: anyone signed in may take a free place; the game starts
  when the last place is taken.
- Games between people have no engine help until they end, unless the
  challenge offers "help on for both" (`help_on`): every player sees it on the
  challenge and accepts it with the challenge.
- A challenge or seek may be rated (`rated`): the game counts for every player's
  rating, and has no engine help until it ends. Accepting it is agreeing to that.
- Challenge notices are sent whatever the player's turn-notification setting:
  they are personal messages that need an answer, and there is one per challenge.
- No relay and blocks: games.challenge_limits.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import timezone

from accounts import services as accounts
from accounts.models import User
from games import challenge_limits, cribbage, game_settings, lifecycle, reliability
from games.models import MAX_TIME_BANK_DAYS, SEATS_BY_VARIANT, Challenge, ChallengePlace, Game, Variant
from games.signals import challenge_notice

DAYS_PER_MOVE_RANGE = (1, 14)
TARGETS = cribbage.TARGETS
# The clock a challenge sets for its game (the Challenge and Game fields of the same names).
CLOCK_CHOICES = game_settings.CLOCK


class ChallengeError(Exception):
    """A challenge operation that cannot be done. Nothing was changed; `.message` says why, `.code`
    is "forbidden" (not the asker's to do), "stale" (the challenge has moved on), "too_many" (a
    day's limit) or "" (bad input)."""

    def __init__(self, message, *, code=""):
        super().__init__(message)
        self.message, self.code = message, code


def _refuse(refusal):
    """Raise a refusal of games.challenge_limits (a Refusal, or None for none) as a ChallengeError."""
    if refusal is not None:
        raise ChallengeError(refusal.message, code=refusal.code)


def others_needed(variant):
    """How many players besides the challenger a variant needs."""
    return SEATS_BY_VARIANT[variant] - 1


def check_settings(variant, target, days_per_move=None):
    """Refuse (ChallengeError) a game no table plays: an unknown variant, target or time per move."""
    if variant not in Variant.values:
        raise ChallengeError(f"Unknown game {variant!r}: choose one of {', '.join(Variant.values)}.")
    if target not in TARGETS:
        raise ChallengeError(f"Play to {cribbage.FULL_GAME} or to {cribbage.SHORT_GAME}.")
    low, high = DAYS_PER_MOVE_RANGE
    if days_per_move is not None and not low <= days_per_move <= high:
        raise ChallengeError(f"Time per move is {low} to {high} days.")


def clock_choices(
    challenger, *, timeout_policy=Game.TimeoutPolicy.FORFEIT, pause_weekends=False, pause_nights=False, time_bank_days=0
):
    """The clock settings of a new challenge, checked; raises ChallengeError."""
    if timeout_policy not in Game.TimeoutPolicy.values:
        raise ChallengeError(
            f"Unknown timeout rule {timeout_policy!r}: choose one of {', '.join(Game.TimeoutPolicy.values)}."
        )
    if not isinstance(time_bank_days, int) or not 0 <= time_bank_days <= MAX_TIME_BANK_DAYS:
        raise ChallengeError(f"A time bank is 0 to {MAX_TIME_BANK_DAYS} days.")
    if pause_nights and challenger.night_start_hour == challenger.night_end_hour:
        raise ChallengeError(
            "Your profile has no night hours, so a night pause would never stop your "
            "clock: set your night on your profile, or leave the night pause off."
        )
    return {
        "timeout_policy": timeout_policy,
        "pause_weekends": bool(pause_weekends),
        "pause_nights": bool(pause_nights),
        "time_bank_days": time_bank_days,
    }


def _resolve(opponent, challenger):
    """(user or None, email) for one named opponent: a User or an email address."""
    if isinstance(opponent, User):
        return opponent, opponent.email
    email = accounts.normalize_email(opponent)
    try:
        validate_email(email)
    except ValidationError:
        raise ChallengeError(f"“{opponent}” is not an email address.") from None
    if email == accounts.normalize_email(challenger.email):
        raise ChallengeError("You cannot challenge yourself.")
    return User.objects.filter(email__iexact=email).first(), email


# --- Challenges ----------------------------------------------------------------


def _new_challenge_fields(
    challenger,
    *,
    variant=Variant.TWO,
    target=cribbage.FULL_GAME,
    muggins=False,
    days_per_move=3,
    help_on=False,
    rated=False,
    min_reliability=None,
    **clock,
):
    """The fields of a new challenge or seek by `challenger`, checked (raises ChallengeError): the
    game, "help on for both", rated, a seek's reliability floor and the clock (CLOCK_CHOICES)."""
    check_settings(variant, target, days_per_move)
    if min_reliability is not None and not 0 <= min_reliability <= 100:
        raise ChallengeError("A reliability floor is a percent, 0 to 100.")
    return {
        "challenger": challenger,
        "variant": variant,
        "target": target,
        "muggins": muggins,
        "days_per_move": days_per_move,
        "help_on": help_on,
        "rated": rated,
        "min_reliability": min_reliability or None,
        **clock_choices(challenger, **clock),
    }


def create_challenge(challenger, opponents, *, rematch_of=None, **choices):
    """Challenge the players `opponents` (Users or email addresses, seats 1..n-1 in order).

    `choices`: the game, help and clock (see _new_challenge_fields). Unknown addresses
    are invited (an account is made and an invitation sent); members get a challenge
    notice. `rematch_of`: the finished game it offers a rematch of. Raises ChallengeError.
    """
    fields = _new_challenge_fields(challenger, **choices)
    variant = fields["variant"]
    opponents = [o for o in opponents if o]
    needed = others_needed(variant)
    if len(opponents) != needed:
        raise ChallengeError(
            f"{Variant(variant).label} needs {needed} other player"
            f"{'s' if needed > 1 else ''}; you named {len(opponents)}."
        )
    resolved = [_resolve(o, challenger) for o in opponents]
    emails = [email for _, email in resolved]
    if len(set(emails)) != len(emails):
        raise ChallengeError("Each player can take only one seat: an address is named twice.")
    if any(user is not None and user.pk == challenger.pk for user, _ in resolved):
        raise ChallengeError("You cannot challenge yourself.")
    for user, _email in resolved:
        if user is not None and not user.is_active:
            raise ChallengeError(challenge_limits.UNAVAILABLE.format(name=user))
    with transaction.atomic():
        # One at a time per challenger, so two posts at once cannot both pass the day's limit.
        User.objects.select_for_update().filter(pk=challenger.pk).first()
        _refuse(challenge_limits.room_refusal(challenger, resolved, rematch_of))
        challenge = Challenge.objects.create(**fields, rematch_of=rematch_of)
        next_url = challenge.get_absolute_url()
        notices = []
        for seat, (user, email) in enumerate(resolved, start=1):
            if user is None:
                # The invitation (sent after commit) tells the game and its clock.
                user = accounts.invite(email, challenger, next_url, details=settings_text(challenge))
            else:
                notices.append(user)
            ChallengePlace.objects.create(challenge=challenge, seat=seat, player=user, invited_email=email)
        for user in notices:
            send_challenge_notice(challenge, user, "challenge")
    return challenge


def rematch(game, number, player):
    """Challenge the other players of finished `game` to a new game with its settings, in the same
    places around the table counted from the asker. Returns the challenge; raises ChallengeError."""
    refusal = challenge_limits.rematch_refusal(game, number)
    if refusal:
        raise ChallengeError(refusal)
    seats = sorted(game.seats.select_related("player"), key=lambda s: (s.number - number) % len(game.seats.all()))
    return create_challenge(
        player,
        [s.player for s in seats if s.number != number],
        **game.game_settings.chosen(),
        help_on=game.help_on,
        rated=game.rated,  # accepting the rematch agrees to it, as with any rated challenge
        rematch_of=game,
    )


def settings_text(challenge):
    """The challenge's game and clock in words, as its emails say them."""
    return render_to_string("games/email/_settings.txt", {"challenge": challenge, "seats": []}).strip()


def _locked(challenge):
    return Challenge.objects.select_for_update().get(pk=challenge.pk)


def _require_open(challenge):
    if challenge.status != Challenge.Status.OPEN:
        raise ChallengeError(
            f"This challenge is no longer open ({challenge.get_status_display().lower()}).", code="stale"
        )


def _my_place(challenge, user):
    place = challenge.places.filter(player=user).first() if user.is_authenticated else None
    if place is None:
        raise ChallengeError("This challenge is not addressed to you.", code="forbidden")
    return place


def accept(challenge, user):
    """`user` accepts their place; the game starts when every place has accepted.

    Returns the challenge (its `.game` is set once the game has started).
    """
    if challenge.is_seek:
        return accept_seek(challenge, user)
    with transaction.atomic():
        challenge = _locked(challenge)
        _require_open(challenge)
        place = _my_place(challenge, user)
        _refuse(challenge_limits.blocked_refusal(challenge, user))
        if place.accepted_at is None:
            place.accepted_at = timezone.now()
            place.save(update_fields=["accepted_at"])
        started = _start_if_full(challenge)
        if started:
            send_challenge_notice(challenge, challenge.challenger, "accepted", by=user)
    return challenge


def decline(challenge, user):
    """`user` declines: the whole challenge is off, and the challenger is told."""
    with transaction.atomic():
        challenge = _locked(challenge)
        if challenge.is_seek:
            raise ChallengeError("An open challenge is not addressed to anyone: there is nothing to decline.")
        _require_open(challenge)
        _my_place(challenge, user)
        challenge.status = Challenge.Status.DECLINED
        challenge.decided_at = timezone.now()
        challenge.save(update_fields=["status", "decided_at"])
        send_challenge_notice(challenge, challenge.challenger, "declined", by=user)
    return challenge


def cancel(challenge, user):
    """The challenger withdraws an open challenge or seek."""
    with transaction.atomic():
        challenge = _locked(challenge)
        if challenge.challenger_id != user.pk:
            raise ChallengeError("Only the player who made a challenge can cancel it.", code="forbidden")
        _require_open(challenge)
        challenge.status = Challenge.Status.CANCELLED
        challenge.decided_at = timezone.now()
        challenge.save(update_fields=["status", "decided_at"])
    return challenge


def _start_if_full(challenge):
    """Start the game if every place has accepted (inside the caller's transaction)."""
    places = list(challenge.places.select_related("player").order_by("seat"))
    if any(p.player is None or p.accepted_at is None for p in places):
        return False
    players = [challenge.challenger] + [p.player for p in places]
    challenge.game = lifecycle.start_game(
        players=players, settings=challenge.game_settings, help_on=challenge.help_on, rated=challenge.rated
    )
    challenge.status = Challenge.Status.ACCEPTED
    challenge.decided_at = timezone.now()
    challenge.save(update_fields=["game", "status", "decided_at"])
    return True


# --- Seeks -----------------------------------------------------------------------


def create_seek(challenger, **choices):
    """An open challenge on the seek board: anyone may take its places (with `min_reliability`,
    anyone that reliable: games.reliability). `choices`: as for a challenge (_new_challenge_fields)."""
    fields = _new_challenge_fields(challenger, **choices)
    with transaction.atomic():
        seek = Challenge.objects.create(**fields, is_seek=True)
        ChallengePlace.objects.bulk_create(
            ChallengePlace(challenge=seek, seat=seat) for seat in range(1, SEATS_BY_VARIANT[fields["variant"]])
        )
    return seek


def accept_seek(seek, user):
    """`user` takes the first free place of an open seek; the last place starts the game."""
    with transaction.atomic():
        seek = _locked(seek)
        if not seek.is_seek:
            raise ChallengeError("This challenge is addressed to named players, not open to all.")
        _require_open(seek)
        if seek.challenger_id == user.pk:
            raise ChallengeError("This is your own open challenge: wait for someone to take it, or cancel it.")
        if seek.places.filter(player=user).exists():
            raise ChallengeError("You have already taken a place in this open challenge.", code="stale")
        refusal = reliability.below_floor(user, seek.min_reliability)
        if refusal:
            raise ChallengeError(f"You cannot take this open challenge. {refusal}", code="forbidden")
        _refuse(challenge_limits.blocked_refusal(seek, user))
        place = seek.places.filter(player__isnull=True).order_by("seat").first()
        place.player = user
        place.accepted_at = timezone.now()
        place.save(update_fields=["player", "accepted_at"])
        started = _start_if_full(seek)
        if started:
            send_challenge_notice(seek, seek.challenger, "accepted", by=user)
    return seek


# --- Mail ------------------------------------------------------------------------------


def send_challenge_notice(challenge, to, kind, by=None):
    """Tell `to` about `challenge`, after commit: kind "challenge" (you are challenged),
    "accepted" (the game has started) or "declined". Announced to mail (games.signals), which
    owes the email in its outbox, in the caller's transaction."""
    challenge_notice.send(sender=Challenge, challenge=challenge, to=to, kind=kind, by=by)
