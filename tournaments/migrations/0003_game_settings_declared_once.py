import django.core.validators
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0002_scores_stop_at_the_target"),
    ]

    operations = [
        # The field GameSettingsFields declares for every model that holds game settings.
        migrations.RenameField(model_name="tournament", old_name="timeout_action", new_name="timeout_policy"),
        migrations.AlterField(
            model_name="tournament",
            name="time_bank_days",
            field=models.PositiveSmallIntegerField(
                default=0,
                help_text="A reserve of days per player and game, spent a day at a time before a timeout (0 to 10).",
                validators=[django.core.validators.MaxValueValidator(10)],
            ),
        ),
    ]
