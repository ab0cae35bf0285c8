"""Standings rows written before chombos counted in them (commit 145703e, issue 15: the penalty
column, `game_penalties` and the EMA report's chombo lines) miss them until a full rebuild.
Every tournament that has standings rows is marked stale, so the periodic
`rebuild_stale_standings` (or the next recompute) rebuilds them whole; nobody has to remember
`manage.py rebuild_standings`. A tournament without rows has nothing to rebuild and is left as
it is. Data only; going back leaves the flag (a rebuild is harmless)."""

from django.db import migrations


def mark_standings_stale(apps, schema_editor):
    Tournament = apps.get_model("tournaments", "Tournament")
    StandingRow = apps.get_model("tournaments", "StandingRow")
    with_rows = StandingRow.objects.values("tournament_id")
    Tournament.objects.filter(pk__in=with_rows).update(standings_stale=True)


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0008_table_game_related_name"),
    ]

    operations = [
        migrations.RunPython(mark_standings_stale, migrations.RunPython.noop, elidable=True),
    ]
