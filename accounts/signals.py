from django.contrib import messages
from django.dispatch import Signal

# An email answering what a user just asked: kind= ("confirm", "login_link", "password_reset",
# ...), user=, to=, details= (plain words, no link). Mail owes it in its outbox, in the caller's
# transaction; the link is made when it is sent (accounts.emails.context).
account_email = Signal()
# An invitation owed to a new account: user=, invited_by= (a User or None), next_url=.
# Mail owes it in its outbox, in the caller's transaction; the link is made when it is sent.
invitation_owed = Signal()
# The account's address changed: user=, old_email=, new_email=. Mail owes the old address the
# news, with a link that undoes it, in the change's transaction.
address_changed = Signal()
# A player downloads their own data: user=. Each receiver returns a dict of its parts
# ({"games": [...], ...}), JSON-ready, of that player's own things only.
own_data = Signal()
# A player's account is being deleted, inside the deletion's transaction: user=, email=.
# Each receiver removes what its app keeps of that person (their notes, their mail) but
# keeps what others' records need (seats and moves: the games replay whole).
account_deleting = Signal()


def remind_unconfirmed(sender, request, user, **kwargs):
    """On logging in with an unconfirmed address, say so (the nav keeps saying it)."""
    if request is not None and not getattr(user, "email_confirmed", True):
        messages.warning(
            request,
            "Your email address is not confirmed yet: follow the link "
            "we sent you, or send a new one from your profile.",
            fail_silently=True,
        )
