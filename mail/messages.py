"""The one way an email is built: a template triplet per email on one HTML base, its CSS inlined.

Every email is three templates, `<name>.subject.txt`, `<name>.txt` and
`<name>.html`, kept as templates/<app>/email/<email> (mail/email/turn,
clock/email/reminder, accounts/email/confirm, ...). Every HTML part extends
mail/email/_base.html, whose one stylesheet (mail/email/email.css) css-inline
writes into style attributes, since many mail clients drop a <style> block.

Every email about a game (a turn, an answer, the game-over email, the review,
the clock's reminders and notices) names the game the one way
(mail/email/_game_subject.txt) after what it asks or tells (mail.subjects):
"Your discard — Alice v Bob, hand 3 (game 12)", with the event's name for an
event's game; the headers keep the game's emails in one thread.

`build` adds the headers: an email about a seat of a game threads under the
game's root Message-ID (In-Reply-To and References) and takes replies at the seat's reply address; an
automatic email (every outbox kind, and answers to replies) says so
(Auto-Submitted, RFC 3834, so that vacation responders stay quiet) and offers
the one-click unsubscribe (List-Unsubscribe and List-Unsubscribe-Post, RFC 8058).
The email's kind is its anymail tag, so a provider's statistics split by kind.
"""

import css_inline
from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.core.mail.message import make_msgid
from django.template.loader import render_to_string
from django.urls import reverse

from . import links, subjects

BASE = "mail/email/_base.html"
# Remote stylesheets are never fetched: the one stylesheet is in the base.
_inliner = css_inline.CSSInliner(load_remote_stylesheets=False)


def thread_root(game_id):
    """The Message-ID every email of one game refers to, so a mail client threads them."""
    return f"<cribbage-game-{game_id}@{settings.REPLY_DOMAIN}>"


def render(name, context):
    """(subject, text, html) of email `name` (a template path without its ending), HTML inlined.

    Every email ends with the address of the rules and help page (the HTML's in the base's footer)."""
    help_url = links.absolute(reverse("help"))
    context = {"help_url": help_url, "service_address": links.service_address(), **context}
    subject = " ".join(render_to_string(f"{name}.subject.txt", context).split())
    text = render_to_string(f"{name}.txt", context).rstrip("\n") + f"\n\nRules and help: {help_url}\n"
    html = _inliner.inline(render_to_string(f"{name}.html", context))
    return subject, text, html


def build(name, context, *, to, user=None, game_id=None, seat=None, automatic=True, reply_to=None):
    """Email `name` to address `to` (for `user`, if they have an account), ready to send.

    `game_id` and `seat` make it a game's email (threaded, replies reach that
    seat). `automatic` is False only for what a person just asked for
    (confirming an address, a login link, a password reset): those carry no
    list headers. `reply_to` is where replies go when it is not a game's (a challenge's).
    """
    if game_id is not None and seat is not None:
        reply_to = links.reply_address(game_id, seat)
    context = {"site_url": settings.SITE_URL, "recipient": user, **context}
    if automatic and user is not None:
        context.setdefault("unsubscribe_url", links.unsubscribe_url(user))
    if reply_to:
        context.setdefault("reply_to", reply_to)
    if game_id is not None and "event_name" not in context:
        context["event_name"] = subjects.event_name(game_id)
    subject, text, html = render(name, context)
    kind = name.rpartition("/")[2]
    headers = {
        "Message-ID": make_msgid(
            f"game{game_id}.seat{seat}" if game_id is not None else kind.replace("_", "-"), domain=settings.REPLY_DOMAIN
        )
    }
    if game_id is not None:
        headers.update({"In-Reply-To": thread_root(game_id), "References": thread_root(game_id)})
    if automatic:
        headers.update({"Auto-Submitted": "auto-generated", "X-Auto-Response-Suppress": "All"})
        if user is not None:
            unsubscribe = f"<{context['unsubscribe_url']}>"
            if game_id is not None and seat is not None:  # a game's reply address reads "unsubscribe"
                unsubscribe += f", <mailto:{reply_to}?subject=unsubscribe>"
            headers.update({"List-Unsubscribe": unsubscribe, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click"})
    message = EmailMultiAlternatives(
        subject, text, settings.DEFAULT_FROM_EMAIL, [to], reply_to=[reply_to] if reply_to else None, headers=headers
    )
    message.attach_alternative(html, "text/html")
    message.tags = [kind]  # anymail: the provider's statistics by kind of email
    return message
