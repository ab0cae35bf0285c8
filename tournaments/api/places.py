"""Tournament tables in scoring's game API (scoring.api.places; composed with club nights in
config.game_places): the `table` of a game's import, what a game's answer says of its table
(tournament slug, session and table numbers, the table's id), the list's filters by
tournament and session."""

from __future__ import annotations

from typing import Any

import django_filters
from django.db.models import QuerySet

from core.api.base import ID_BOUNDS
from scoring.models import Game
from tournaments.models import Table
from tournaments.places import TablePlace
from tournaments.roles import table_of, tournament_id_of_game

# What the answer shows of a table changes with these (paths from Game).
STAMP = (
    "table__session__tournament_id",
    "table__session__tournament__status",
    "table__session__tournament__slug",
    "table__session__number",
    "table__number",
)


def rows() -> QuerySet[Table]:
    return Table.objects.all()


def place(table: Table) -> TablePlace:
    return TablePlace(table)


def fields(game: Game) -> dict[str, Any] | None:
    """A table's game's place fields (None: not a table's game)."""
    if Game.table.is_cached(game):
        if table_of(game) is None:
            return None
    elif tournament_id_of_game(game) is None:  # one query, remembered for the request
        return None
    table = table_of(game)
    if table is None:
        return None
    session = table.session
    return {
        "tournament": session.tournament.slug,
        "session": session.number,
        "table": table.pk,
        "table_number": table.number,
        "club_night": None,
    }


def filters() -> dict[str, Any]:
    return {
        "tournament": django_filters.CharFilter(field_name="table__session__tournament__slug"),
        "session": django_filters.NumberFilter(field_name="table__session_id", **ID_BOUNDS),
    }
