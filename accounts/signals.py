from django.contrib import messages
from django.dispatch import Signal

# An email answering what a user just asked: kind= ("confirm", "login_link", "password_reset"),
# user=, context= (the template's). Mail builds it and sends it at once.
account_email = Signal()
# An invitation owed to a new account: user=, invited_by= (a User or None), next_url=.
# Mail owes it in its outbox, in the caller's transaction; the link is made when it is sent.
invitation_owed = Signal()


def remind_unconfirmed(sender, request, user, **kwargs):
    """On logging in with an unconfirmed address, say so (the nav keeps saying it)."""
    if request is not None and not getattr(user, "email_confirmed", True):
        messages.warning(request, "Your email address is not confirmed yet: follow the link "
                                  "we sent you, or send a new one from your profile.",
                         fail_silently=True)
