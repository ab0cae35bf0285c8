"""The game-table link moves to tournaments.Table.game (issue 14: scoring imports no
tournaments). Step 1 of 3: the old field stops naming its reverse accessor (state only, no SQL)
and the check "a table or a club night" goes (the link is no longer one of the game's columns).
"""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('scoring', '0005_player_in_core'),
        ('tournaments', '0006_registration_disqualified'),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name='game',
            name='game_belongs_to_table_or_club_night',
        ),
        migrations.AlterField(
            model_name='game',
            name='table',
            field=models.OneToOneField(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='+', to='tournaments.table'),
        ),
    ]
