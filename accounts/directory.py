"""Finding members by the name they play under (a challenge names its opponents this way).

Only members who have joined (a confirmed address) are found: an invited address's account
is named after its address until its owner chooses a name.
"""

from django.db.models import Q

from .models import User

MOST = 8  # matches offered to choose from; more means the name needs to be more exact


def members_named(text, exclude=None):
    """The members whose name is `text` (any case); if none, those whose name contains it."""
    text = " ".join((text or "").split())
    if not text:
        return []
    members = User.objects.filter(is_active=True, email_confirmed=True)
    if exclude is not None:
        members = members.exclude(pk=exclude.pk)
    exact = list(members.filter(display_name__iexact=text).order_by("pk")[: MOST + 1])
    if exact:
        return exact
    words = Q()
    for word in text.split():
        words &= Q(display_name__icontains=word)
    return list(members.filter(words).order_by("display_name", "pk")[: MOST + 1])


def masked_email(email):
    """'b…@e….com' for bob@example.com: enough to tell two namesakes apart, not an address."""
    local, _, domain = (email or "").partition("@")
    host, _, tld = domain.rpartition(".")
    return f"{local[:1]}…@{host[:1]}….{tld}" if host else f"{local[:1]}…"
