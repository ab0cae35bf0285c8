"""The game API's places: where a game is played (a tournament table, a club night), as the
API accepts it (`table`, `club_night`) and shows it.

`scoring.models.Game` knows nothing of where it is played: the upper app's place holds the
link (`tournaments.Table.game`, `club.ClubGame`). The game API names places in its requests
and answers; what it needs to know of them it asks a `GamePlaces` that the layer above the
apps composes and names in settings.GAME_PLACES (config.game_places: tournament tables from
tournaments.api.places, club nights from club.api.places), the way Django is told its
authentication backends: no app registers anything with scoring. The services are passed
their place (scoring.services.games.Place), pages and records hear from the apps themselves
(config.places, scoring.signals), and who may write a game is scoring.policy's question.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db.models import QuerySet
from django.utils.module_loading import import_string

if TYPE_CHECKING:
    from scoring.models import Game
    from scoring.services.games import Place

# Where a game is played, as the game API shows it (`GET /games/<id>/`): None where a key does
# not apply (a club game has no tournament). The app owning the game fills them (`fields`).
PLACE_FIELDS = ("tournament", "session", "table", "table_number", "club_night")


class GamePlaces:
    """What the game API asks of places. This default knows none: every place field None, no
    filters by place, no `table` or `club_night` accepted."""

    # The values (paths from Game) that change what the game API shows of a game's place: the
    # cached answer of `GET /games/<id>/` is kept per game version and these.
    stamp: tuple[str, ...] = ()

    def fields(self, game: Game) -> dict[str, Any]:
        """`game`'s PLACE_FIELDS (tournament slug, session and table numbers, table and club
        night ids; None where a key does not apply)."""
        return dict.fromkeys(PLACE_FIELDS)

    def filters(self) -> dict[str, Any]:
        """The game list's filters by place, by query parameter (`tournament`, `session`,
        `club_night`, `club`): django_filters filters on Game."""
        return {}

    def rows(self, kind: str) -> QuerySet[Any]:
        """Every place the API names `kind` (`table`, `club_night`): an id is looked up here."""
        raise LookupError(f"no places of kind {kind!r}")

    def place(self, kind: str, row: Any) -> Place:
        """`row`, one of `rows(kind)`, as scoring's game services are passed it."""
        raise LookupError(f"no places of kind {kind!r}")

    def house_rules(self, row: Any) -> tuple[str, Mapping[str, Any] | None]:
        """The ruleset and overrides of a game created at club night `row` when the request
        names none (its club's house rules)."""
        raise LookupError("no club nights")


@functools.cache
def game_places() -> GamePlaces:
    """The places the game API asks: the GamePlaces that settings.GAME_PLACES names
    (config.game_places: tournament tables and club nights), else the default, which knows
    none."""
    path = getattr(settings, "GAME_PLACES", "")
    places = import_string(path)() if path else GamePlaces()
    assert isinstance(places, GamePlaces)
    return places
