"""The organisers' admin of ladders, scoped (events.scoped_admin): each organiser sees and runs
only the ladders they organise."""

from events import scoped_admin

from .models import Ladder
from .services import LadderError


class ScopedAdmin(scoped_admin.ScopedAdmin):
    event_model = Ladder
    event_lookup = "ladder"
    refusal = LadderError
