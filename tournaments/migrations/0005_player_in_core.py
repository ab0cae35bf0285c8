"""Registrations, seats, penalties and standings point at core.Player (moved from club,
same table: issue 14).
"""


import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('core', '0001_shared_models_from_club'),
        ('tournaments', '0004_session_clock_pause'),
    ]

    operations = [
        # State only: the tables keep their names (issue 14); nothing in the database changes.
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name='penalty',
                    name='player',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='penalties', to='core.player'),
                ),
                migrations.AlterField(
                    model_name='registration',
                    name='player',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='registrations', to='core.player'),
                ),
                migrations.AlterField(
                    model_name='seat',
                    name='player',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='tournament_seats', to='core.player'),
                ),
                migrations.AlterField(
                    model_name='standingrow',
                    name='player',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='core.player'),
                ),
            ],
            database_operations=[],
        ),
    ]
