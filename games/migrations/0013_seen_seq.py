from django.db import migrations, models
from django.db.models import Max, OuterRef, Subquery

PRIVATE_KINDS = ["plan"]  # cribbage.PRIVATE_KINDS when this was written


def backfill(apps, schema_editor):
    Game, Seat, Event = apps.get_model("games", "Game"), apps.get_model("games", "Seat"), apps.get_model("games", "Event")
    public = Event.objects.filter(game=OuterRef("pk")).exclude(kind__in=PRIVATE_KINDS)
    Game.objects.update(public_seq=Subquery(public.order_by("-seq").values("seq")[:1]))
    Game.objects.filter(public_seq__isnull=True).update(public_seq=0)
    for row in (
        Event.objects.filter(kind__in=PRIVATE_KINDS).values("game_id", "seat").annotate(last=Max("seq"))
    ):
        Seat.objects.filter(game_id=row["game_id"], number=row["seat"]).update(private_seq=row["last"])


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0012_rated_and_table_results"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="public_seq",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="seat",
            name="private_seq",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.RunPython(backfill, migrations.RunPython.noop),
    ]
