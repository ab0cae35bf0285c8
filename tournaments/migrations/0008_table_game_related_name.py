"""`game.table` reads the table's link (tournaments.Table.game) now that the game has no `table`
column of its own (issue 14). State only: no SQL."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('scoring', '0007_game_table_removed'),
        ('tournaments', '0007_table_game'),
    ]

    operations = [
        migrations.AlterField(
            model_name='table',
            name='game',
            field=models.OneToOneField(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='table', to='scoring.game'),
        ),
    ]
