import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models

DAY_SECONDS = 86400


def days_to_seconds(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    Vacation = apps.get_model("accounts", "Vacation")
    for user in User.objects.only("pk", "vacation_days"):
        User.objects.filter(pk=user.pk).update(vacation_seconds=round(user.vacation_days * DAY_SECONDS))
    for vacation in Vacation.objects.only("pk", "days"):
        Vacation.objects.filter(pk=vacation.pk).update(seconds=round(vacation.days * DAY_SECONDS))


def seconds_to_days(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    Vacation = apps.get_model("accounts", "Vacation")
    for user in User.objects.only("pk", "vacation_seconds"):
        User.objects.filter(pk=user.pk).update(vacation_days=user.vacation_seconds / DAY_SECONDS)
    for vacation in Vacation.objects.only("pk", "seconds"):
        Vacation.objects.filter(pk=vacation.pk).update(days=vacation.seconds / DAY_SECONDS)


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0002_vacation_and_digest'),
    ]

    operations = [
        migrations.AddField(
            model_name='user',
            name='vacation_seconds',
            field=models.PositiveIntegerField(
                default=7 * DAY_SECONDS, help_text='Vacation held at vacation_days_at, in seconds (a day is 86400).'),
        ),
        migrations.AddField(
            model_name='vacation',
            name='seconds',
            field=models.PositiveIntegerField(default=0, help_text='Vacation taken from the allowance, in seconds.'),
            preserve_default=False,
        ),
        migrations.RunPython(days_to_seconds, seconds_to_days),
        migrations.RemoveField(model_name='user', name='vacation_days'),
        migrations.RemoveField(model_name='vacation', name='days'),
        migrations.CreateModel(
            name='VacationDay',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('day', models.DateField()),
                ('spent_at', models.DateTimeField(default=django.utils.timezone.now)),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE,
                                           related_name='vacation_days_spent', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'ordering': ['-day'],
                'constraints': [models.UniqueConstraint(fields=('user', 'day'), name='one_vacation_day_per_day')],
            },
        ),
    ]
