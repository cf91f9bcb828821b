"""Ladder games' final scores read again from their games (whose winner now stops at the target),
and the closed seasons' frozen standings given the points for, against and spread they make.

The ladder's history stays: a season reseeded by its table at close keeps the order it was given.
"""

from django.db import migrations


def rescore(apps, schema_editor):
    LadderGame = apps.get_model("ladders", "LadderGame")
    Season = apps.get_model("ladders", "Season")
    for lg in LadderGame.objects.filter(counted=True).select_related("game"):
        scores = lg.game.snapshot["scores"]
        if (lg.challenger_score, lg.defender_score) != (scores[0], scores[1]):
            LadderGame.objects.filter(pk=lg.pk).update(challenger_score=scores[0], defender_score=scores[1])
    for season in Season.objects.exclude(standings=None):
        games = LadderGame.objects.filter(
            match__ladder_id=season.ladder_id, match__season=season.number, counted=True
        ).exclude(match__status="void")
        totals = {}
        for lg in games.select_related("match"):
            for side, own, other in (
                (lg.match.challenger_id, lg.challenger_score, lg.defender_score),
                (lg.match.defender_id, lg.defender_score, lg.challenger_score),
            ):
                was = totals.get(side, (0, 0))
                totals[side] = (was[0] + own, was[1] + other)
        for row in season.standings:
            points_for, against = totals.get(row["entrant"], (0, 0))
            row["points_for"], row["points_against"] = points_for, against
            if "spread" in row:
                row["spread"] = points_for - against
        season.save(update_fields=["standings"])


class Migration(migrations.Migration):
    dependencies = [("ladders", "0004_organisers_in_one_step"), ("games", "0016_scores_stop_at_the_target")]

    operations = [migrations.RunPython(rescore, migrations.RunPython.noop)]
