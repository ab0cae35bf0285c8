"""Seats point at core.Player (moved from club, same table: issue 14).
"""


import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('core', '0001_shared_models_from_club'),
        ('scoring', '0004_game_penalty_plural'),
    ]

    operations = [
        # State only: the tables keep their names (issue 14); nothing in the database changes.
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name='gameseat',
                    name='player',
                    field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='game_seats', to='core.player'),
                ),
            ],
            database_operations=[],
        ),
    ]
