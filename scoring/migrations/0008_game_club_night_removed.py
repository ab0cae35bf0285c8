"""The game-club night link moves to club.ClubGame (issue 14). Step 2 of 2: the old column goes
(its values were copied by club 0009)."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('club', '0009_club_game'),
        ('scoring', '0007_game_table_removed'),
    ]

    operations = [
        migrations.RemoveField(
            model_name='game',
            name='club_night',
        ),
    ]
