"""The game-club night link moves to club.ClubGame (issue 14: scoring imports no club). Step 1
of 2: the link model, and each game's club night copied into it (and back when reversed)."""

import django.db.models.deletion
from django.db import migrations, models


def check_now(schema_editor):
    """PostgreSQL: check the deferred foreign keys of the rows just written now, so that this
    transaction may alter the same tables next (else: "pending trigger events")."""
    if schema_editor.connection.vendor == 'postgresql':
        schema_editor.execute('SET CONSTRAINTS ALL IMMEDIATE')


def copy_links(apps, schema_editor):
    Game = apps.get_model('scoring', 'Game')
    ClubGame = apps.get_model('club', 'ClubGame')
    rows = Game.objects.filter(club_night__isnull=False).values_list('pk', 'club_night_id')
    ClubGame.objects.bulk_create(
        (ClubGame(game_id=game_id, night_id=night_id) for game_id, night_id in rows.iterator()),
        batch_size=500,
    )
    check_now(schema_editor)


def copy_links_back(apps, schema_editor):
    Game = apps.get_model('scoring', 'Game')
    ClubGame = apps.get_model('club', 'ClubGame')
    for game_id, night_id in ClubGame.objects.values_list('game_id', 'night_id').iterator():
        Game.objects.filter(pk=game_id).update(club_night_id=night_id)
    check_now(schema_editor)


class Migration(migrations.Migration):

    dependencies = [
        ('club', '0008_ratings_stale_flag'),
        ('scoring', '0007_game_table_removed'),
    ]

    operations = [
        migrations.CreateModel(
            name='ClubGame',
            fields=[
                ('game', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True, related_name='club_game', serialize=False, to='scoring.game')),
                ('night', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='club_games', to='club.clubnight')),
            ],
        ),
        migrations.RunPython(copy_links, copy_links_back),
    ]
