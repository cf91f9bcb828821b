"""The winner's score stops at the target: every game's snapshot folded again from its log.

The log stays as it was; the fold now pegs no point past the target, and its score records say
what was left unpegged (`past_target`), so every snapshot is written again from a replay (as
verify_games replays). Nothing else in games caches a score.
"""

from django.db import migrations

from games import cribbage
from games.models import CLOCK_EVENT_KINDS


def refold(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    Event = apps.get_model("games", "Event")
    for game in Game.objects.order_by("pk").iterator(chunk_size=200):
        moves = list(
            Event.objects.filter(game=game).exclude(kind__in=CLOCK_EVENT_KINDS).order_by("seq").values_list("data", flat=True)
        )
        rules = cribbage.Rules.from_json(game.rules)
        try:
            state = cribbage.replay(rules, moves, first_dealer=game.first_dealer)
        except cribbage.IllegalMove:  # a log that no longer replays: verify_games names it, left as it is
            continue
        snapshot = cribbage.state_to_json(state)
        if snapshot != game.snapshot:
            Game.objects.filter(pk=game.pk).update(snapshot=snapshot)


class Migration(migrations.Migration):
    dependencies = [("games", "0015_deal_seed")]

    operations = [migrations.RunPython(refold, migrations.RunPython.noop)]
