"""The game-table link moves to tournaments.Table.game (issue 14). Step 3 of 3: the old column
goes (its values were copied by tournaments 0007)."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('scoring', '0006_game_table_link_moving'),
        ('tournaments', '0007_table_game'),
    ]

    operations = [
        migrations.RemoveField(
            model_name='game',
            name='table',
        ),
    ]
