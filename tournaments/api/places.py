"""Tournament tables in scoring's game API (scoring.api.places): the `table` of a game's
import, what a game's answer says of its table (tournament slug, session and table numbers,
the table's id), the list's filters by tournament and session."""

from __future__ import annotations

from typing import Any

import django_filters
from django.db.models import QuerySet

from core.api.base import ID_BOUNDS
from scoring.api.places import GamePlace
from scoring.models import Game
from tournaments.models import Table
from tournaments.places import TablePlace
from tournaments.roles import table_of, tournament_id_of_game


class TournamentTables(GamePlace):
    """A tournament's tables: each holds one game (`Table.game`)."""

    kind = "table"
    stamp = (
        "table__session__tournament_id",
        "table__session__tournament__status",
        "table__session__tournament__slug",
        "table__session__number",
        "table__number",
    )

    def owns(self, game: Game) -> bool:
        if Game.table.is_cached(game):
            return table_of(game) is not None
        return tournament_id_of_game(game) is not None  # one query, remembered for the request

    def places(self) -> QuerySet[Table]:
        return Table.objects.all()

    def place(self, place: Any) -> TablePlace:
        return TablePlace(place)

    def fields(self, game: Game) -> dict[str, Any]:
        table = table_of(game)
        if table is None:
            return super().fields(game)
        session = table.session
        return {
            "tournament": session.tournament.slug,
            "session": session.number,
            "table": table.pk,
            "table_number": table.number,
            "club_night": None,
        }

    def filters(self) -> dict[str, Any]:
        return {
            "tournament": django_filters.CharFilter(field_name="table__session__tournament__slug"),
            "session": django_filters.NumberFilter(field_name="table__session_id", **ID_BOUNDS),
        }
