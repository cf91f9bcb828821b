"""Ladder operations. Views and the admin parse input, call one of these, render.

Every operation that changes a ladder locks its row, appends to its history
(with the actor) and, when positions change, refreshes the cached positions
from the fold of the history (ladders.rungs documents the ordering rule for
results that finish out of order). Notices go out after commit (ladders.notices).
"""

import csv
import io
from datetime import timedelta

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.db.models import Max, Q
from django.utils import timezone

from accounts import services as accounts
from accounts.models import User
from accounts.services import normalize_email
from games import services as game_services
from games.models import Game
from games.presentation import plural

from . import notices, rungs
from .models import Challenge, Entrant, Ladder, LadderGame, LadderHistory, Match, Season

STANDINGS_COLUMNS = [
    ("position", "Position"),
    ("player", "Player"),
    ("matches", "Matches"),
    ("matches_won", "Matches won"),
    ("games", "Games"),
    ("wins", "Wins"),
    ("games_won", "Games won (skunks count extra)"),
    ("skunks_given", "Skunks given"),
    ("skunks_taken", "Skunks taken"),
    ("points_for", "Points for"),
    ("points_against", "Points against"),
    ("spread", "Spread"),
]


class LadderError(Exception):
    """An operation that cannot be done; nothing was changed."""

    def __init__(self, message):
        super().__init__(message)
        self.message = message


# --- History and positions --------------------------------------------------


def _lock(ladder):
    return Ladder.objects.select_for_update().get(pk=ladder.pk)


def _current_order(ladder, extra_op=None, undo=None):
    entries = ladder.history.filter(op__isnull=False).order_by("seq")
    undone = set(ladder.history.filter(undoes__isnull=False).values_list("undoes_id", flat=True))
    if undo is not None:
        undone.add(undo.pk)
    ops = [e.op for e in entries if e.pk not in undone]
    if extra_op is not None:
        ops.append(extra_op)
    return rungs.fold(ops)


def _record(ladder, kind, text, *, actor=None, op=None, match=None, undoes=None, now=None):
    """Append a history entry; with an `op` or `undoes`, refresh the cached positions.

    Returns (entry, {entrant id: (old position, new position)} for those who moved).
    """
    seq = (ladder.history.aggregate(m=Max("seq"))["m"] or 0) + 1
    moved = {}
    positions = None
    if op is not None or undoes is not None:
        order = _current_order(ladder, extra_op=op, undo=undoes)
        new = rungs.positions(order)
        positions = {str(k): v for k, v in new.items()}
        changed = []
        for entrant in ladder.entrants.all():
            place = new.get(entrant.pk)
            if entrant.position != place:
                moved[entrant.pk] = (entrant.position, place)
                entrant.position = place
                changed.append(entrant)
        Entrant.objects.bulk_update(changed, ["position"])
    entry = LadderHistory.objects.create(
        ladder=ladder,
        seq=seq,
        season=ladder.season,
        kind=kind,
        text=text[:300],
        op=op,
        positions=positions,
        undoes=undoes,
        match=match,
        actor=actor,
        created_at=now or timezone.now(),
    )
    return entry, moved


def record_note(ladder, kind, text, *, actor=None):
    """A history entry that changes no positions (e.g. the rules were changed)."""
    with transaction.atomic():
        ladder = _lock(ladder)
        entry, _ = _record(ladder, kind, text, actor=actor)
    return entry


def _notify_moves(ladder, moved, why, entry):
    for entrant in Entrant.objects.filter(pk__in=moved).select_related("player"):
        old, new = moved[entrant.pk]
        if old is None or new is None:
            continue
        direction = "up" if new < old else "down"
        notices.send(
            [entrant.player],
            f"{ladder.name}: you moved {direction} to position {new}",
            [f"You moved from position {old} to {new} on {ladder.name}.", why],
            url=ladder.get_absolute_url(),
            cause=f"{ladder.pk}:{entry.seq}:moved",
            ladder=ladder,
        )


def current_season(ladder):
    season, _ = Season.objects.get_or_create(ladder=ladder, number=ladder.season)
    return season


# --- Entrants ---------------------------------------------------------------


def join(ladder, user, *, actor=None, now=None):
    """Put `user` at the bottom of the ladder (players themselves only while it is open)."""
    now = now or timezone.now()
    with transaction.atomic():
        ladder = _lock(ladder)
        if actor is None and not ladder.is_open:
            raise LadderError("This ladder is closed to new entrants; ask an organiser.")
        entrant = Entrant.objects.filter(ladder=ladder, player=user).first()
        if entrant is not None and entrant.active:
            raise LadderError(f"{user} is already on this ladder.")
        if entrant is None:
            entrant = Entrant.objects.create(ladder=ladder, player=user, joined_at=now, last_active_at=now)
        else:
            entrant.active, entrant.joined_at, entrant.last_active_at = True, now, now
            entrant.save(update_fields=["active", "joined_at", "last_active_at"])
        who = f"{actor} added {user}" if actor and actor != user else f"{user} joined"
        _record(
            ladder,
            "join",
            f"{who} at the bottom",
            actor=actor or user,
            op={"op": "append", "entrant": entrant.pk},
            now=now,
        )
    entrant.refresh_from_db()
    return entrant


def parse_emails(text):
    """The addresses in `text` (one per line, or separated by commas/spaces), validated.

    Raises ValidationError naming every malformed one.
    """
    emails, bad = [], []
    for word in text.replace(",", " ").replace(";", " ").split():
        email = normalize_email(word.strip("<>"))
        try:
            validate_email(email)
        except ValidationError:
            bad.append(word)
            continue
        if email not in emails:
            emails.append(email)
    if bad:
        raise ValidationError(f"Not email addresses: {', '.join(bad)}. Nothing was changed.")
    if not emails:
        raise ValidationError("Paste at least one email address.")
    return emails


def add_entrants(ladder, text, *, actor):
    """Add every address in `text` at the bottom, in order; unknown ones get an invitation.

    Returns (added entrants, invited addresses, skipped "already on" names).
    """
    emails = parse_emails(text)
    added, invited, skipped = [], [], []
    with transaction.atomic():
        for email in emails:
            user = User.objects.filter(email__iexact=email).first()
            if user is None:
                user = accounts.invite(email, actor, ladder.get_absolute_url(), invited_to=f"the {ladder.name} ladder")
                invited.append(email)
            if Entrant.objects.filter(ladder=ladder, player=user, active=True).exists():
                skipped.append(str(user))
                continue
            added.append(join(ladder, user, actor=actor))
    return added, invited, skipped


def remove_entrant(entrant, *, actor, reason=""):
    """Take `entrant` off the ladder; those below move up one; open challenges are cancelled."""
    with transaction.atomic():
        ladder = _lock(entrant.ladder)
        entrant = Entrant.objects.select_for_update().get(pk=entrant.pk)
        if not entrant.active:
            raise LadderError(f"{entrant} is not on this ladder.")
        _cancel_open_challenges(entrant)
        entrant.active = False
        entrant.save(update_fields=["active"])
        text = f"{actor} removed {entrant}" if actor else f"{entrant} was removed"
        entry, moved = _record(
            ladder,
            "remove",
            text + (f": {reason}" if reason else ""),
            actor=actor,
            op={"op": "remove", "entrant": entrant.pk},
        )
    return entry


def _cancel_open_challenges(entrant):
    Challenge.objects.filter(Q(challenger=entrant) | Q(defender=entrant), status=Challenge.Status.OPEN).update(
        status=Challenge.Status.CANCELLED, responded_at=timezone.now()
    )


def reorder(ladder, entrant_ids, *, actor):
    """Set the order of the whole ladder: `entrant_ids` top first, each active entrant once."""
    with transaction.atomic():
        ladder = _lock(ladder)
        active = set(ladder.entrants.filter(active=True).values_list("pk", flat=True))
        ids = [int(i) for i in entrant_ids]
        if len(ids) != len(set(ids)) or set(ids) != active:
            raise LadderError("The new order must list every entrant on the ladder exactly once.")
        entry, moved = _record(
            ladder, "reorder", f"{actor} reordered the ladder", actor=actor, op={"op": "order", "order": ids}
        )
        _notify_moves(ladder, moved, "An organiser reordered the ladder.", entry)
    return entry


def set_away(entrant, until, *, actor, today=None):
    """Vacation until the date `until` (None ends it): nobody can challenge an entrant away."""
    today = today or timezone.localdate()
    ladder = entrant.ladder
    with transaction.atomic():
        ladder = _lock(ladder)
        entrant = Entrant.objects.select_for_update().get(pk=entrant.pk)
        if until is None:
            entrant.away_until = None
            entrant.save(update_fields=["away_until"])
            _record(ladder, "vacation", f"{entrant} is back", actor=actor)
            return entrant
        if not ladder.vacation_allowed:
            raise LadderError("This ladder does not allow vacations.")
        days = (until - today).days
        if days < 1:
            raise LadderError("A vacation ends after today.")
        if entrant.away_days_used + days > ladder.vacation_days_cap:
            left = ladder.vacation_days_cap - entrant.away_days_used
            raise LadderError(f"That is {days} days; {left} vacation days are left this season.")
        entrant.away_until = until
        entrant.away_days_used += days
        entrant.save(update_fields=["away_until", "away_days_used"])
        _record(ladder, "vacation", f"{entrant} is away until {until:%d %b %Y}", actor=actor)
    return entrant


# --- Challenges ---------------------------------------------------------------


def open_commitments(entrant):
    """Open challenges plus matches being played that `entrant` is in."""
    either = Q(challenger=entrant) | Q(defender=entrant)
    return (
        Challenge.objects.filter(either, status=Challenge.Status.OPEN).count()
        + Match.objects.filter(either, status=Match.Status.PLAYING).count()
    )


class ChallengeFacts:
    """What the rules of `challenge_problem` need from the database, for one challenger
    and any number of defenders, fetched in two queries however many defenders.

    `under_way`: entrants with an open challenge or a match being played with the challenger;
    `met_recently`: entrants who finished a match with the challenger after `since`
    (None when the ladder has no rematch rule); `commitments`: entrant id -> open_commitments.
    """

    def __init__(self, challenger, defenders, *, now):
        ladder = challenger.ladder
        me = challenger.pk
        ids = {me} | {d.pk for d in defenders}
        self.since = now - timedelta(days=ladder.rematch_days) if ladder.rematch_days else None
        self.commitments = dict.fromkeys(ids, 0)
        self.under_way, self.met_recently = set(), set()

        def touches(group):
            return Q(challenger_id__in=group) | Q(defender_id__in=group)

        def other(row):
            return row[1] if row[0] == me else row[0]

        for row in Challenge.objects.filter(touches(ids), status=Challenge.Status.OPEN).values_list(
            "challenger_id", "defender_id"
        ):
            self._commit(row)
            if me in row:
                self.under_way.add(other(row))
        matches = Q(touches(ids), status=Match.Status.PLAYING)
        if self.since is not None:
            matches |= Q(touches([me]), status=Match.Status.FINISHED, finished_at__gt=self.since)
        for *row, status in Match.objects.filter(matches).values_list("challenger_id", "defender_id", "status"):
            if status == Match.Status.PLAYING:
                self._commit(row)
                if me in row:
                    self.under_way.add(other(row))
            else:
                self.met_recently.add(other(row))

    def _commit(self, row):
        for side in row:
            if side in self.commitments:
                self.commitments[side] += 1


def challenge_problem(challenger, defender, *, now=None, facts=None):
    """Why `challenger` may not challenge `defender` now, or None when they may.

    `facts`: a ChallengeFacts for this challenger covering `defender`, when checking many
    defenders at once (see eligible_defenders); fetched here when not given.
    """
    now = now or timezone.now()
    ladder = challenger.ladder
    if challenger.ladder_id != defender.ladder_id:
        return "They are not on the same ladder."
    if challenger.pk == defender.pk:
        return "You cannot challenge yourself."
    if not (challenger.active and defender.active and challenger.position and defender.position):
        return "Both players must be on the ladder."
    gap = challenger.position - defender.position
    if gap < 1:
        return "You may only challenge players above you."
    if gap > ladder.challenge_range:
        return f"You may challenge at most {plural(ladder.challenge_range, 'place')} above you."
    if defender.away_until and defender.away_until >= timezone.localdate(now):
        return f"{defender} is on vacation until {defender.away_until:%d %b}."
    if defender.immune_until and defender.immune_until > now:
        return f"{defender} defended successfully and is immune until {defender.immune_until:%d %b}."
    if facts is None:
        facts = ChallengeFacts(challenger, [defender], now=now)
    if defender.pk in facts.under_way:
        return "You two already have a challenge or match under way."
    if defender.pk in facts.met_recently:
        return f"You two met within the last {ladder.rematch_days} days."
    for who in (challenger, defender):
        if facts.commitments[who.pk] >= ladder.max_open_challenges:
            return (
                f"{who} already has "
                f"{plural(ladder.max_open_challenges, 'open challenge or match', 'open challenges or matches')}."
            )
    return None


def eligible_defenders(challenger, *, now=None):
    """Entrants `challenger` may challenge now, top first (a fixed handful of queries)."""
    if not (challenger.active and challenger.position):
        return []
    now = now or timezone.now()
    above = list(
        challenger.ladder.entrants.filter(
            active=True,
            position__lt=challenger.position,
            position__gte=challenger.position - challenger.ladder.challenge_range,
        )
        .select_related("player")
        .order_by("position")
    )
    facts = ChallengeFacts(challenger, above, now=now)
    return [d for d in above if challenge_problem(challenger, d, now=now, facts=facts) is None]


def challenge(challenger, defender, *, actor, now=None):
    """`challenger` challenges `defender` (an organiser may do it on the player's behalf)."""
    now = now or timezone.now()
    with transaction.atomic():
        ladder = _lock(challenger.ladder)
        challenger = Entrant.objects.select_related("player").get(pk=challenger.pk)
        defender = Entrant.objects.select_related("player").get(pk=defender.pk)
        problem = challenge_problem(challenger, defender, now=now)
        if problem:
            raise LadderError(problem)
        item = Challenge.objects.create(
            ladder=ladder,
            season=ladder.season,
            challenger=challenger,
            defender=defender,
            created_at=now,
            respond_by=now + timedelta(days=ladder.accept_days),
            created_by=actor,
        )
        Entrant.objects.filter(pk=challenger.pk).update(last_active_at=now)
        by = f" ({actor} for them)" if actor and actor != challenger.player else ""
        _record(
            ladder,
            "challenge",
            f"{challenger} (#{challenger.position}) challenged {defender} (#{defender.position}){by}",
            actor=actor,
            now=now,
        )
        notices.send(
            [defender.player],
            f"{ladder.name}: {challenger} challenges you",
            [
                f"{challenger} (position {challenger.position}) challenges you (position "
                f"{defender.position}) to a match to {ladder.match_length} game points.",
                f"Accept by {item.respond_by:%d %b %Y %H:%M} UTC, or the challenge counts as a forfeit "
                f"and {challenger} takes your place.",
            ],
            url=ladder.get_absolute_url(),
            cause=f"{ladder.pk}:challenge:{item.pk}",
            ladder=ladder,
        )
    return item


def accept(item, *, actor, now=None):
    """The defender (or an organiser for them) accepts: the match and its first game start."""
    now = now or timezone.now()
    with transaction.atomic():
        ladder = _lock(item.ladder)
        item = (
            Challenge.objects.select_for_update()
            .select_related("challenger__player", "defender__player")
            .get(pk=item.pk)
        )
        if item.status != Challenge.Status.OPEN:
            raise LadderError(f"This challenge is no longer open ({item.get_status_display().lower()}).")
        if item.respond_by <= now:
            raise LadderError("The time to accept this challenge has passed; it counts as a forfeit.")
        if not (item.challenger.active and item.defender.active):
            raise LadderError("One of the players has left the ladder.")
        item.status, item.responded_at = Challenge.Status.ACCEPTED, now
        item.save(update_fields=["status", "responded_at"])
        match = Match.objects.create(
            ladder=ladder,
            season=ladder.season,
            challenge=item,
            challenger=item.challenger,
            defender=item.defender,
            started_at=now,
        )
        Entrant.objects.filter(pk__in=[item.challenger_id, item.defender_id]).update(last_active_at=now)
        by = f" ({actor} for them)" if actor and actor != item.defender.player else ""
        _record(
            ladder,
            "accept",
            f"{item.defender} accepted {item.challenger}'s challenge{by}",
            actor=actor,
            match=match,
            now=now,
        )
        game = _start_game(ladder, match, number=1, first_dealer=None)
        notices.send(
            [item.challenger.player],
            f"{ladder.name}: {item.defender} accepted your challenge",
            [
                f"{item.defender} accepted. The match is to {ladder.match_length} game points; "
                f"the first game has started."
            ],
            url=game_url(game),
            cause=f"{ladder.pk}:accepted:{item.pk}",
            ladder=ladder,
        )
    return match


def start_match(challenger, defender, *, actor, now=None):
    """An organiser starts a match on the players' behalf: a challenge accepted at once."""
    item = challenge(challenger, defender, actor=actor, now=now)
    return accept(item, actor=actor, now=now)


def withdraw(item, *, actor):
    with transaction.atomic():
        ladder = _lock(item.ladder)
        item = Challenge.objects.select_for_update().get(pk=item.pk)
        if item.status != Challenge.Status.OPEN:
            raise LadderError("Only an open challenge can be withdrawn.")
        item.status, item.responded_at = Challenge.Status.WITHDRAWN, timezone.now()
        item.save(update_fields=["status", "responded_at"])
        _record(ladder, "withdraw", f"{item.challenger}'s challenge to {item.defender} was withdrawn", actor=actor)
    return item


def lapse_challenges(*, now=None, ladder=None):
    """Count every open challenge past its deadline as a forfeit by the defender.

    Oldest deadline first (ties by id), each applied to the positions at that moment.
    """
    now = now or timezone.now()
    due = Challenge.objects.filter(status=Challenge.Status.OPEN, respond_by__lte=now)
    if ladder is not None:
        due = due.filter(ladder=ladder)
    done = []
    for item in due.order_by("respond_by", "pk"):
        with transaction.atomic():
            lad = _lock(item.ladder)
            item = Challenge.objects.select_for_update().get(pk=item.pk)
            if item.status != Challenge.Status.OPEN:
                continue
            why = f"{item.defender} did not accept {item.challenger}'s challenge in time"
            match = _forfeit_challenge(lad, item, now=now, why=why)
            done.append(match)
    return done


def decline(item, *, actor, now=None):
    """The defender declines an open challenge: it counts as a forfeit at once, as if they had not
    accepted in time (the challenger takes their place)."""
    now = now or timezone.now()
    with transaction.atomic():
        ladder = _lock(item.ladder)
        item = Challenge.objects.select_for_update().select_related("challenger", "defender").get(pk=item.pk)
        if item.status != Challenge.Status.OPEN:
            raise LadderError(f"This challenge is no longer open ({item.get_status_display().lower()}).")
        by = f" ({actor} for them)" if actor and actor != item.defender.player else ""
        why = f"{item.defender} declined {item.challenger}'s challenge{by}"
        return _forfeit_challenge(ladder, item, now=now, why=why, actor=actor)


def _forfeit_challenge(ladder, item, *, now, why, actor=None):
    """An open challenge not taken up (lapsed or declined): a match won by the challenger by forfeit."""
    item.status, item.responded_at = Challenge.Status.LAPSED, now
    item.save(update_fields=["status", "responded_at"])
    match = Match.objects.create(
        ladder=ladder,
        season=ladder.season,
        challenge=item,
        challenger=item.challenger,
        defender=item.defender,
        started_at=now,
    )
    _finish_match(ladder, match, item.challenger, Match.DecidedBy.FORFEIT, now=now, why=why, actor=actor)
    return match


# --- Games and matches ---------------------------------------------------------


def game_url(game):
    try:
        return game.get_absolute_url()
    except Exception:  # the game pages may not be wired yet
        return ""


def _start_game(ladder, match, *, number, first_dealer):
    game = game_services.start_game(
        players=[match.challenger.player, match.defender.player],
        variant=ladder.variant,
        target=ladder.target,
        muggins=ladder.muggins,
        days_per_move=ladder.days_per_move,
        timeout_policy=ladder.timeout_action,
        pause_weekends=ladder.pause_weekends,
        pause_nights=ladder.pause_nights,
        time_bank_days=ladder.time_bank_days,
        vacation_cap_days=ladder.vacation_days_cap if ladder.vacation_allowed else 0,
        rated=True,
        first_dealer=first_dealer,
    )
    LadderGame.objects.create(match=match, game=game, number=number)
    return game


def _kind_of(game):
    # A resignation concedes as the board stands (the engine reports its skunk);
    # only a timeout or adjudication counts as a forfeit win.
    if game.finish in (Game.Finish.TARGET, Game.Finish.RESIGN):
        return game.skunk or LadderGame.Kind.WIN
    return LadderGame.Kind.FORFEIT


def record_game_result(game_id):
    """Count a finished ladder game in its match (idempotent; nothing for other games).

    Starts the next game (the loser of this one deals first) or finishes the match.
    """
    pending = (
        LadderGame.objects.filter(game_id=game_id, counted=False).values_list("match__ladder_id", flat=True).first()
    )
    if pending is None:
        return None
    with transaction.atomic():
        ladder = Ladder.objects.select_for_update().get(pk=pending)
        lg = (
            LadderGame.objects.select_for_update()
            .select_related("match__challenger__player", "match__defender__player", "game")
            .get(game_id=game_id)
        )
        game = lg.game
        if lg.counted or not game.is_finished:
            return None
        match = lg.match
        winner = match.challenger if game.winner_side == 0 else match.defender
        loser = match.defender if winner == match.challenger else match.challenger
        kind = _kind_of(game)
        scores = game_services.engine_state(game).scores
        lg.counted, lg.winner, lg.kind, lg.value = True, winner, kind, ladder.value_of(kind)
        lg.challenger_score, lg.defender_score = scores[0], scores[1]
        lg.save()
        described = LadderGame.Kind(kind).label.lower()
        _record(
            ladder,
            "game",
            f"Game {lg.number}: {winner} beat {loser} {max(scores)}-{min(scores)} "
            f"({described}, {lg.value} game point{'s' if lg.value != 1 else ''})",
            match=match,
        )
        if match.status != Match.Status.PLAYING:
            return lg
        if winner == match.challenger:
            match.challenger_points += lg.value
        else:
            match.defender_points += lg.value
        match.save(update_fields=["challenger_points", "defender_points"])
        if max(match.challenger_points, match.defender_points) >= ladder.match_length:
            _finish_match(
                ladder, match, winner, Match.DecidedBy.PLAY, why=f"{winner} won the match {_score_text(match)}"
            )
        else:
            _start_game(ladder, match, number=lg.number + 1, first_dealer=match.entrant_seat(loser))
    return lg


def _score_text(match):
    high, low = sorted([match.challenger_points, match.defender_points], reverse=True)
    return f"{high}-{low}"


def _finish_match(ladder, match, winner, decided_by, *, why, actor=None, now=None):
    now = now or timezone.now()
    match.status, match.winner, match.decided_by, match.finished_at = (Match.Status.FINISHED, winner, decided_by, now)
    match.save(update_fields=["status", "winner", "decided_by", "finished_at"])
    Entrant.objects.filter(pk__in=[match.challenger_id, match.defender_id]).update(last_active_at=now)
    op = None
    if winner.pk == match.challenger_id:
        op = {"op": "promote", "winner": match.challenger_id, "over": match.defender_id}
    elif ladder.immunity_days:
        Entrant.objects.filter(pk=match.defender_id).update(immune_until=now + timedelta(days=ladder.immunity_days))
    entry, moved = _record(ladder, "result", why, actor=actor, op=op, match=match, now=now)
    players = [match.challenger.player, match.defender.player]
    notices.send(
        players,
        f"{ladder.name}: {why}",
        [why + ".", "Positions changed." if moved else "Nobody moved on the ladder."],
        url=ladder.get_absolute_url(),
        cause=f"{ladder.pk}:{entry.seq}:result",
        ladder=ladder,
    )
    _notify_moves(ladder, moved, why + ".", entry)
    return entry


def forfeit_game(ladder_game, loser, *, reason, actor):
    """An organiser records a forfeit (or adjudicates an abandoned game) against `loser`.

    A new forfeit event in the game's log, then the result counts as usual.
    """
    reason = (reason or "").strip()
    if not reason:
        raise LadderError("Give a reason for the forfeit.")
    match = ladder_game.match
    if loser.pk not in (match.challenger_id, match.defender_id):
        raise LadderError(f"{loser} is not playing this match.")
    game = ladder_game.game
    if game.is_finished:
        raise LadderError("That game is already over.")
    with transaction.atomic():  # the forfeit and its history entry, under the ladder's lock
        ladder = _lock(match.ladder)
        try:
            game_services.record_forfeit(game, match.entrant_seat(loser), reason=reason, actor=actor)
        except game_services.MoveError as exc:
            raise LadderError(exc.message) from exc
        _record(
            ladder,
            "adjudicate",
            f"{actor} recorded a forfeit by {loser} in game {ladder_game.number}: {reason}",
            actor=actor,
            match=match,
        )
    return record_game_result(game.pk)


def undo_result(match, *, actor, reason):
    """Void a mistaken match result: a new history entry; positions as if it never counted."""
    reason = (reason or "").strip()
    if not reason:
        raise LadderError("Give a reason for undoing the result.")
    with transaction.atomic():
        ladder = _lock(match.ladder)
        match = Match.objects.select_for_update().select_related("challenger", "defender").get(pk=match.pk)
        if match.status != Match.Status.FINISHED:
            raise LadderError("Only a finished match's result can be undone.")
        result = match.history.filter(kind="result").order_by("-seq").first()
        match.status = Match.Status.VOID
        match.save(update_fields=["status"])
        if match.winner_id == match.defender_id and ladder.immunity_days:
            Entrant.objects.filter(pk=match.defender_id).update(immune_until=None)
        entry, moved = _record(
            ladder, "undo", f"{actor} undid the result of {match}: {reason}", actor=actor, match=match, undoes=result
        )
        _notify_moves(ladder, moved, f"The result of {match} was undone: {reason}", entry)
    return entry


# --- Idle entrants and the periodic sweep -------------------------------------


def apply_idle_rule(ladder, *, now=None, actor=None):
    """Drop or remove entrants idle for `idle_days` (not on vacation, nothing under way)."""
    now = now or timezone.now()
    if ladder.idle_rule == Ladder.IdleRule.NONE:
        return []
    cutoff = now - timedelta(days=ladder.idle_days)
    affected = []
    with transaction.atomic():
        ladder = _lock(ladder)
        idle = ladder.entrants.filter(active=True, last_active_at__lt=cutoff).order_by("position")
        for entrant in idle:
            if entrant.away_until and entrant.away_until >= timezone.localdate(now):
                continue
            if open_commitments(entrant):
                continue
            if ladder.idle_rule == Ladder.IdleRule.REMOVE:
                entrant.active = False
                entrant.save(update_fields=["active"])
                _record(
                    ladder,
                    "idle",
                    f"{entrant} removed: idle for {ladder.idle_days} days",
                    actor=actor,
                    op={"op": "remove", "entrant": entrant.pk},
                    now=now,
                )
            else:
                Entrant.objects.filter(pk=entrant.pk).update(last_active_at=now)
                _record(
                    ladder,
                    "idle",
                    f"{entrant} dropped {ladder.idle_drop_places} places: idle for {ladder.idle_days} days",
                    actor=actor,
                    now=now,
                    op={"op": "drop", "entrant": entrant.pk, "places": ladder.idle_drop_places},
                )
            affected.append(entrant)
    return affected


def count_finished_games():
    """Count the finished ladder games whose result was not counted (its task was lost: the broker
    was down when the game ended). Idempotent; how many were counted."""
    pending = LadderGame.objects.filter(counted=False, game__status=Game.Status.FINISHED)
    counted = 0
    for game_id in pending.values_list("game_id", flat=True)[:200]:
        counted += record_game_result(game_id) is not None
    return counted


def sweep(*, now=None):
    """Count lost results, lapse overdue challenges, then apply every ladder's idle rule. For beat / a command."""
    now = now or timezone.now()
    count_finished_games()
    lapsed = lapse_challenges(now=now)
    idle = [e for ladder in Ladder.objects.all() for e in apply_idle_rule(ladder, now=now)]
    return lapsed, idle


# --- Standings and seasons ---------------------------------------------------


def standings(ladder, season=None):
    """One row per entrant on the ladder, top first, counting this season's matches and games."""
    season = ladder.season if season is None else season
    entrants = list(ladder.entrants.filter(active=True).select_related("player").order_by("position"))
    rows = {
        e.pk: dict(
            entrant=e.pk,
            position=e.position,
            player=str(e.player),
            player_id=e.player_id,
            matches=0,
            matches_won=0,
            games=0,
            wins=0,
            games_won=0,
            skunks_given=0,
            skunks_taken=0,
            points_for=0,
            points_against=0,
        )
        for e in entrants
    }
    for m in Match.objects.filter(ladder=ladder, season=season, status=Match.Status.FINISHED):
        for side in (m.challenger_id, m.defender_id):
            if side in rows:
                rows[side]["matches"] += 1
                rows[side]["matches_won"] += side == m.winner_id
    games = (
        LadderGame.objects.filter(match__ladder=ladder, match__season=season, counted=True)
        .exclude(match__status=Match.Status.VOID)
        .select_related("match")
    )
    for lg in games:
        m = lg.match
        for side, own, other in (
            (m.challenger_id, lg.challenger_score, lg.defender_score),
            (m.defender_id, lg.defender_score, lg.challenger_score),
        ):
            row = rows.get(side)
            if row is None:
                continue
            won = side == lg.winner_id
            skunk = lg.kind in (LadderGame.Kind.SKUNK, LadderGame.Kind.DOUBLE_SKUNK)
            row["games"] += 1
            row["wins"] += won
            row["games_won"] += lg.value if won else 0
            row["skunks_given"] += won and skunk
            row["skunks_taken"] += (not won) and skunk
            row["points_for"] += own
            row["points_against"] += other
    out = list(rows.values())
    for row in out:
        row["spread"] = row["points_for"] - row["points_against"]
    return out


def table_order(rows):
    """The points-table order: game points won, then wins, then spread (ACC tie-breaks)."""
    return sorted(rows, key=lambda r: (-r["games_won"], -r["wins"], -r["spread"], r["position"] or 0))


def standings_csv(rows):
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow([label for _, label in STANDINGS_COLUMNS])
    for row in rows:
        writer.writerow([row[key] for key, _ in STANDINGS_COLUMNS])
    return out.getvalue()


def close_season(ladder, *, actor, reseed="keep", now=None):
    """Freeze this season's standings, open the next; `reseed` "keep" or "table" (points order)."""
    now = now or timezone.now()
    if reseed not in ("keep", "table"):
        raise LadderError('Reseed is "keep" or "table".')
    with transaction.atomic():
        ladder = _lock(ladder)
        season = current_season(ladder)
        rows = standings(ladder)
        season.closed_at, season.closed_by, season.standings = now, actor, rows
        season.save(update_fields=["closed_at", "closed_by", "standings"])
        _record(ladder, "season_close", f"{actor} closed season {season.number}", actor=actor, now=now)
        ladder.season += 1
        ladder.save(update_fields=["season"])
        Season.objects.create(ladder=ladder, number=ladder.season, started_at=now)
        ladder.entrants.update(away_days_used=0)
        op = None
        if reseed == "table":
            op = {"op": "order", "order": [r["entrant"] for r in table_order(rows)]}
        entry, moved = _record(
            ladder,
            "season_open",
            f"Season {ladder.season} opened" + (", reseeded by last season's table" if op else ""),
            actor=actor,
            op=op,
            now=now,
        )
    return season
