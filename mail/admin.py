from django.contrib import admin

from .models import Announcement, AnswerSent, InboundEmail, OutboundEmail


class DeliveryFilter(admin.SimpleListFilter):
    """The emails that need a look: those being retried, those that gave up, those refused."""

    title = "delivery trouble"
    parameter_name = "trouble"

    def lookups(self, request, model_admin):
        return [("retrying", "Being retried"), ("gave_up", "Gave up"), ("refused", "Refused")]

    def queryset(self, request, queryset):
        if self.value() == "retrying":
            return queryset.filter(status=OutboundEmail.Status.READY, next_attempt_at__isnull=False)
        if self.value() == "gave_up":
            return queryset.filter(status=OutboundEmail.Status.GAVE_UP)
        if self.value() == "refused":
            return queryset.filter(status=OutboundEmail.Status.FAILED)
        return queryset


@admin.register(OutboundEmail)
class OutboundEmailAdmin(admin.ModelAdmin):
    list_display = (
        "kind",
        "to",
        "game",
        "seat",
        "seq",
        "status",
        "attempts",
        "next_attempt_at",
        "created_at",
        "sent_at",
        "last_error",
    )
    list_filter = (DeliveryFilter, "status", "kind")
    search_fields = ("to", "message_id", "key")
    readonly_fields = [f.name for f in OutboundEmail._meta.fields]


@admin.register(InboundEmail)
class InboundEmailAdmin(admin.ModelAdmin):
    list_display = ("message_id", "esp_name", "status", "game", "seat", "received_at")
    list_filter = ("status", "esp_name")
    search_fields = ("message_id", "envelope_recipient", "outcome")
    readonly_fields = [f.name for f in InboundEmail._meta.fields]


@admin.register(Announcement)
class AnnouncementAdmin(admin.ModelAdmin):
    """Every event's announcements, as sent (an event's organisers see theirs on the event's own admin page)."""

    list_display = ("event_label", "subject", "sender", "recipients", "sent_at")
    list_filter = ("event_label",)
    search_fields = ("subject", "body", "event")
    readonly_fields = [f.name for f in Announcement._meta.fields]

    def has_add_permission(self, request):
        return False


@admin.register(AnswerSent)
class AnswerSentAdmin(admin.ModelAdmin):
    list_display = ("address", "kind", "created_at")
