"""The admin index's "Your events" (events.progress.organised_events)."""

from django import template
from django.contrib import admin

from events.progress import organised_events

register = template.Library()


@register.inclusion_tag("events/admin/_your_events.html", takes_context=True)
def your_events(context):
    user = context["request"].user
    events, new = organised_events(admin.site, user)
    return {"events": events, "new": new}
