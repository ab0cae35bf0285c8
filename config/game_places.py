"""The game API's places (scoring.api.places.GamePlaces), composed from the apps that have
places: club nights (club.api.places) and tournament tables (tournaments.api.places).
settings.GAME_PLACES names it; the apps register nothing with scoring, and this is the one
place that knows both."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db.models import QuerySet

from club.api import places as nights
from scoring.api.places import GamePlaces
from scoring.models import Game
from scoring.services.games import Place
from tournaments.api import places as tables

_KINDS = {"club_night": nights, "table": tables}


class TablesAndNights(GamePlaces):
    """A game is played at a club night or at a tournament table (or nowhere known)."""

    stamp = (*nights.STAMP, *tables.STAMP)

    def fields(self, game: Game) -> dict[str, Any]:
        return nights.fields(game) or tables.fields(game) or super().fields(game)

    def filters(self) -> dict[str, Any]:
        return {**nights.filters(), **tables.filters()}

    def rows(self, kind: str) -> QuerySet[Any]:
        return _KINDS[kind].rows()

    def place(self, kind: str, row: Any) -> Place:
        return _KINDS[kind].place(row)

    def house_rules(self, row: Any) -> tuple[str, Mapping[str, Any] | None]:
        return nights.house_rules(row)
