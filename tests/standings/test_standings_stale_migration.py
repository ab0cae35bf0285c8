"""Standings rows written before chombos counted in them (commit 145703e) miss them until a full
rebuild: tournaments' migration 0009 marks every tournament with standings rows stale, and the
periodic catch-up rebuilds them (docs/standings.md)."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from standings_builders import make_players, make_tournament, register, scores_game

from tournaments.models import StandingRow, Tournament
from tournaments.standings.services import recompute_standings
from tournaments.standings.tasks import rebuild_stale_standings

BEFORE = [("tournaments", "0008_table_game_related_name")]


@pytest.mark.django_db(transaction=True)
def test_migration_marks_tournaments_with_rows_stale_and_the_catch_up_rebuilds_them() -> None:
    tournament = make_tournament()
    players = make_players(4)
    register(tournament, players)
    scores_game(tournament, 1, 1, players, [40000, 30000, 30000, 20000])
    recompute_standings(tournament_id=tournament.pk)
    expected = dict(StandingRow.objects.values_list("player", "total"))
    # An old row, as written before the rebuild it needs: wrong total, no per-game entries.
    StandingRow.objects.filter(player=players[0]).update(total=0, per_session=[])
    without_rows = make_tournament(slug="no-games-yet")
    latest = MigrationExecutor(connection).loader.graph.leaf_nodes()

    try:
        MigrationExecutor(connection).migrate(BEFORE)
    finally:
        MigrationExecutor(connection).migrate(latest)

    assert Tournament.objects.get(pk=tournament.pk).standings_stale
    assert not Tournament.objects.get(pk=without_rows.pk).standings_stale
    assert rebuild_stale_standings.delay().get() == 1
    assert dict(StandingRow.objects.values_list("player", "total")) == expected
    assert not Tournament.objects.filter(standings_stale=True).exists()
    assert not StandingRow.objects.filter(tournament=without_rows).exists()
