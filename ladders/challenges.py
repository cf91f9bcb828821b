"""Challenges on a ladder: who may challenge whom, and a challenge's life (made, accepted,
declined, withdrawn, lapsed); one not taken up is a match won by forfeit."""

from datetime import timedelta

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from games.presentation import plural

from . import notices
from .matches import finish_match, game_url, open_match, start_game
from .models import Challenge, Entrant, Match
from .services import LadderError, lock, record


class ChallengeFacts:
    """What the rules of `challenge_problem` need from the database, for one challenger
    and any number of defenders, fetched in two queries however many defenders.

    `under_way`: entrants with an open challenge or a match being played with the challenger;
    `met_recently`: entrants who finished a match with the challenger after `since`
    (None when the ladder has no rematch rule); `commitments`: entrant id -> selectors.open_commitments.
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
        ladder = lock(challenger.ladder)
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
        record(
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
        ladder = lock(item.ladder)
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
        match = open_match(ladder, item, now=now)
        Entrant.objects.filter(pk__in=[item.challenger_id, item.defender_id]).update(last_active_at=now)
        by = f" ({actor} for them)" if actor and actor != item.defender.player else ""
        record(
            ladder,
            "accept",
            f"{item.defender} accepted {item.challenger}'s challenge{by}",
            actor=actor,
            match=match,
            now=now,
        )
        game = start_game(ladder, match, number=1, first_dealer=None)
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
        ladder = lock(item.ladder)
        item = Challenge.objects.select_for_update().get(pk=item.pk)
        if item.status != Challenge.Status.OPEN:
            raise LadderError("Only an open challenge can be withdrawn.")
        item.status, item.responded_at = Challenge.Status.WITHDRAWN, timezone.now()
        item.save(update_fields=["status", "responded_at"])
        record(ladder, "withdraw", f"{item.challenger}'s challenge to {item.defender} was withdrawn", actor=actor)
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
            lad = lock(item.ladder)
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
        ladder = lock(item.ladder)
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
    match = open_match(ladder, item, now=now)
    finish_match(ladder, match, item.challenger, Match.DecidedBy.FORFEIT, now=now, why=why, actor=actor)
    return match


def cancel_open_challenges(entrant):
    Challenge.objects.filter(Q(challenger=entrant) | Q(defender=entrant), status=Challenge.Status.OPEN).update(
        status=Challenge.Status.CANCELLED, responded_at=timezone.now()
    )
