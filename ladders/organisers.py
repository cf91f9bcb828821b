"""Making someone an organiser of a ladder, in one step: they become staff (so they can sign in to
the admin, where they see and change only the ladders they run) and join the ladder's organisers.

Staff status is all the admin needs: the organisers' pages (ladders.admin) give an organiser
their own ladders and nothing else, without any model permission.
"""

from django.core.exceptions import ValidationError
from django.db import transaction
from django.urls import reverse

from accounts import services as accounts
from accounts.models import User

from . import services


def make_staff(users):
    """Give staff status to those of `users` who lack it; their names, for the history."""
    promoted = [u for u in users if not u.is_staff]
    if promoted:
        User.objects.filter(pk__in=[u.pk for u in promoted]).update(is_staff=True)
        for user in promoted:
            user.is_staff = True
    return promoted


def add_organiser(ladder, email, *, actor):
    """The player with `email` runs `ladder` from now on (an address new here is invited first).
    Returns the user. ValidationError for a malformed address or a closed account."""
    try:
        user = accounts.invite(
            email, actor, ladder_admin_path(ladder), invited_to=f"help run the {ladder.name} ladder as an organiser"
        )
    except ValidationError:
        raise ValidationError(f"{email} is not an email address: nobody was added.") from None
    if not user.is_active:
        raise ValidationError(f"The account of {email} is closed: nobody was added.")
    with transaction.atomic():
        make_staff([user])
        ladder.organisers.add(user)
        services.record_note(ladder, "organiser", f"{actor} made {user} an organiser", actor=actor)
    return user


def staff_for_organisers(ladder, *, actor):
    """Every organiser of `ladder` made staff (those just ticked in the organisers list)."""
    promoted = make_staff(list(ladder.organisers.all()))
    for user in promoted:
        services.record_note(ladder, "organiser", f"{actor} made {user} an organiser", actor=actor)
    return promoted


def ladder_admin_path(ladder):
    return reverse("admin:ladders_ladder_change", args=[ladder.pk])
