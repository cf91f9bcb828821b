from django.contrib import messages


def remind_unconfirmed(sender, request, user, **kwargs):
    """On logging in with an unconfirmed address, say so (the nav keeps saying it)."""
    if request is not None and not getattr(user, "email_confirmed", True):
        messages.warning(request, "Your email address is not confirmed yet: follow the link "
                                  "we sent you, or send a new one from your profile.",
                         fail_silently=True)
