"""The game-table link moves to tournaments.Table.game (issue 14). Step 2 of 3: the new field,
and each game's table copied onto the table (and back when reversed)."""

import django.db.models.deletion
from django.db import migrations, models


def check_now(schema_editor):
    """PostgreSQL: check the deferred foreign keys of the rows just written now, so that this
    transaction may alter the same tables next (else: "pending trigger events")."""
    if schema_editor.connection.vendor == 'postgresql':
        schema_editor.execute('SET CONSTRAINTS ALL IMMEDIATE')


def copy_links(apps, schema_editor):
    Game = apps.get_model('scoring', 'Game')
    Table = apps.get_model('tournaments', 'Table')
    for game_id, table_id in Game.objects.filter(table__isnull=False).values_list('pk', 'table_id').iterator():
        Table.objects.filter(pk=table_id).update(game_id=game_id)
    check_now(schema_editor)


def copy_links_back(apps, schema_editor):
    Game = apps.get_model('scoring', 'Game')
    Table = apps.get_model('tournaments', 'Table')
    for table_id, game_id in Table.objects.filter(game__isnull=False).values_list('pk', 'game_id').iterator():
        Game.objects.filter(pk=game_id).update(table_id=table_id)
    check_now(schema_editor)


class Migration(migrations.Migration):

    dependencies = [
        ('scoring', '0006_game_table_link_moving'),
        ('tournaments', '0006_registration_disqualified'),
    ]

    operations = [
        migrations.AddField(
            model_name='table',
            name='game',
            field=models.OneToOneField(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='scoring.game'),
        ),
        migrations.RunPython(copy_links, copy_links_back),
    ]
