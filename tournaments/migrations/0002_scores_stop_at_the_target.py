"""Event games' final scores read again from their games, whose winner now stops at the target;
an event's table (its spread) is worked out from them whenever it is shown."""

from django.db import migrations


def rescore(apps, schema_editor):
    PairingGame = apps.get_model("tournaments", "PairingGame")
    for pg in PairingGame.objects.filter(counted=True).select_related("game"):
        scores = pg.game.snapshot["scores"]
        home, away = scores[pg.home_seat], scores[1 - pg.home_seat]
        if (pg.home_score, pg.away_score) != (home, away):
            PairingGame.objects.filter(pk=pg.pk).update(home_score=home, away_score=away)


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0001_initial"), ("games", "0016_scores_stop_at_the_target")]

    operations = [migrations.RunPython(rescore, migrations.RunPython.noop)]
