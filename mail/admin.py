from django.contrib import admin

from .models import AnswerSent, InboundEmail, OutboundEmail


@admin.register(OutboundEmail)
class OutboundEmailAdmin(admin.ModelAdmin):
    list_display = ("kind", "to", "game", "seat", "seq", "status", "attempts", "created_at", "sent_at")
    list_filter = ("status", "kind")
    search_fields = ("to", "message_id", "key")
    readonly_fields = [f.name for f in OutboundEmail._meta.fields]


@admin.register(InboundEmail)
class InboundEmailAdmin(admin.ModelAdmin):
    list_display = ("message_id", "esp_name", "status", "game", "seat", "received_at")
    list_filter = ("status", "esp_name")
    search_fields = ("message_id", "envelope_recipient", "outcome")
    readonly_fields = [f.name for f in InboundEmail._meta.fields]


@admin.register(AnswerSent)
class AnswerSentAdmin(admin.ModelAdmin):
    list_display = ("address", "kind", "created_at")
