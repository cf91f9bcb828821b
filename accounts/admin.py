from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin

from .forms import SignupForm
from .models import User


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    add_form = SignupForm
    ordering = ["email"]
    list_display = ["email", "display_name", "email_confirmed", "email_trouble", "notify", "is_staff"]
    list_filter = ["email_trouble", "email_confirmed", "notify", "is_staff"]
    search_fields = ["email", "display_name"]
    fieldsets = [
        (None, {"fields": ["email", "password"]}),
        (
            "Player",
            {
                "fields": [
                    "display_name",
                    "email_confirmed",
                    "email_trouble",
                    "email_trouble_at",
                    "time_zone",
                    "notify",
                    "digest_hour",
                    "allow_forced_moves",
                    "event_announcements",
                    "acknowledge_replies",
                ]
            },
        ),
        ("Permissions", {"fields": ["is_active", "is_staff", "is_superuser", "groups", "user_permissions"]}),
        ("Dates", {"fields": ["last_login", "date_joined"]}),
    ]
    add_fieldsets = [(None, {"classes": ["wide"], "fields": ["email", "display_name", "password1", "password2"]})]
