"""Composers of the outbox kinds whose causes are below mail (games' challenges, accounts'
invitations): each renders its row when it is sent (see mail.kinds)."""

from accounts import services as accounts
from accounts.models import User
from games.models import Challenge
from games.selectors import view_for

from . import links, messages, table_text


def challenge_notice(row):
    challenge = Challenge.objects.select_related("challenger", "game").filter(pk=row.context["challenge"]).first()
    if challenge is None:
        return "the challenge is gone"
    kind = row.context["notice"]
    by = User.objects.filter(pk=row.context["by"]).first() if row.context.get("by") else None
    url = challenge.game.get_absolute_url() if kind == "accepted" and challenge.game else challenge.get_absolute_url()
    context = {
        "challenge": challenge,
        "to": row.user,
        "by": by,
        "url": links.absolute(url),
        "seats": [challenge.challenger] + [p.player for p in challenge.places.select_related("player")],
    }
    game_id = None
    if kind == "accepted" and challenge.game:  # the game's first email: in its thread, with its subject
        game_id = context["game_id"] = challenge.game.pk
        context["title"] = table_text.game_title(view_for(challenge.game))
    reply_to = None
    if kind == "challenge" and challenge.is_open:
        # The invited player may answer by replying "accept" or "decline" (mail.inbound).
        reply_to = context["reply_to"] = links.challenge_reply_address(challenge.pk, row.user.pk)
    return messages.build(
        f"games/email/challenge_{kind}", context, to=row.user.email, user=row.user, reply_to=reply_to, game_id=game_id
    )


def invitation(row):
    invited_by = User.objects.filter(pk=row.context["invited_by"]).first() if row.context.get("invited_by") else None
    context = accounts.invitation_context(
        row.user,
        invited_by,
        row.context.get("next_url", ""),
        invited_to=row.context.get("invited_to", ""),
        details=row.context.get("details", ""),
    )
    return messages.build("accounts/email/invitation", context, to=row.user.email, user=row.user)
