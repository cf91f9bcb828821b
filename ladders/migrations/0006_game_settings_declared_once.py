from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("ladders", "0005_scores_stop_at_the_target"),
    ]

    operations = [
        # The field GameSettingsFields declares for every model that holds game settings.
        migrations.RenameField(model_name="ladder", old_name="timeout_action", new_name="timeout_policy"),
        migrations.AlterField(
            model_name="ladder",
            name="timeout_policy",
            field=models.CharField(
                choices=[
                    ("forfeit", "The player who ran out of time forfeits the game"),
                    ("opponent_chooses", "The opponent chooses: claim the game or wait"),
                    ("computer_stands_in", "The computer plays for the absent player"),
                ],
                default="forfeit",
                help_text="What a timeout does in a game.",
                max_length=24,
            ),
        ),
    ]
