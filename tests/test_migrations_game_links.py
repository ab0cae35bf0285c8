"""The game's place links moved to the upper apps (issue 14): tournaments.Table.game replaced
scoring.Game.table, club.ClubGame replaced scoring.Game.club_night. Their data migrations copy
each link both ways; this test walks a database with both kinds of game back to the old schema
and forward again, on SQLite and (in CI) PostgreSQL."""

from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from tests.factories import ClubGameFactory, GameFactory

# The last migrations before the links moved.
BEFORE = [
    ("scoring", "0005_player_in_core"),
    ("tournaments", "0006_registration_disqualified"),
    ("club", "0008_ratings_stale_flag"),
]


def _migrate(targets: list[tuple[str, str]]) -> Any:
    """Migrate to `targets`; the apps (historical models) of that state."""
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    return MigrationExecutor(connection).loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
def test_table_and_club_night_links_survive_migrating_back_and_forth() -> None:
    table_game = GameFactory.create()
    table = table_game.table
    club_game = ClubGameFactory.create()
    night = club_game.club_game.night
    latest = MigrationExecutor(connection).loader.graph.leaf_nodes()

    try:
        old = _migrate(BEFORE)
        Game = old.get_model("scoring", "Game")
        assert Game.objects.get(pk=table_game.pk).table_id == table.pk
        assert Game.objects.get(pk=table_game.pk).club_night_id is None
        assert Game.objects.get(pk=club_game.pk).club_night_id == night.pk
        assert Game.objects.get(pk=club_game.pk).table_id is None
    finally:
        new = _migrate(latest)

    Table = new.get_model("tournaments", "Table")
    ClubGame = new.get_model("club", "ClubGame")
    assert Table.objects.get(pk=table.pk).game_id == table_game.pk
    assert list(ClubGame.objects.values_list("game_id", "night_id")) == [(club_game.pk, night.pk)]
    assert not Table.objects.filter(game_id=club_game.pk).exists()
