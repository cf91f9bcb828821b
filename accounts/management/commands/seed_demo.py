from django.core.management.base import BaseCommand

from accounts.models import User

DEMO_PASSWORD = "cribbage"
DEMO_PLAYERS = [
    ("alice@example.com", "Alice"),
    ("bob@example.com", "Bob"),
]


class Command(BaseCommand):
    help = "Create the demo accounts (idempotent) so a newcomer can start a game at once."

    def handle(self, *args, **options):
        for email, name in DEMO_PLAYERS:
            user, created = User.objects.get_or_create(
                email=email, defaults={"display_name": name, "email_confirmed": True}
            )
            if created:
                user.set_password(DEMO_PASSWORD)
                user.save(update_fields=["password"])
        if not User.objects.filter(is_superuser=True).exists():
            User.objects.create_superuser("admin@example.com", DEMO_PASSWORD, display_name="Admin")
        self.stdout.write(
            "Demo accounts (password {!r}): {}, and admin@example.com for /admin/".format(
                DEMO_PASSWORD, ", ".join(email for email, _ in DEMO_PLAYERS)
            )
        )
