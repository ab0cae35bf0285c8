"""The game API's places: where a game is played (a tournament table, a club night), as the
API accepts it (`table`, `club_night`) and shows it.

`scoring.models.Game` knows nothing of where it is played: the upper app's place holds the
link (`tournaments.Table.game`, `club.ClubGame`). The game API names places in its requests
and answers, so each app that has places registers a `GamePlace` from its own API package in
AppConfig.ready() (tournaments.api.places, club.api.places): the name of its places in the API
(`kind`) and their rows (`places`), a place as scoring's game services are passed it
(`place`: scoring.services.games.Place), a club's house rules (`house_rules`), and what the
game API shows of a game's place (`fields`, `filters`, `stamp`). Nothing else asks it: the
services are passed their place, pages and records hear from the apps themselves
(config.places, scoring.signals), and who may write a game is scoring.policy's question.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from django.db.models import QuerySet

if TYPE_CHECKING:
    from scoring.models import Game
    from scoring.services.games import Place

# Where a game is played, as the game API shows it (`GET /games/<id>/`): None where a key does
# not apply (a club game has no tournament). The app owning the game fills them (`fields`).
PLACE_FIELDS = ("tournament", "session", "table", "table_number", "club_night")


class GamePlace:
    """One app's places. Subclasses override what their places need."""

    # The name of its places in the API's input (`table`, `club_night`).
    kind: str = ""
    # The values (paths from Game) that change what the game API shows of its place: the
    # cached answer of `GET /games/<id>/` is kept per game version and these.
    stamp: tuple[str, ...] = ()

    def owns(self, game: Game) -> bool:
        """Whether `game` is played at one of this app's places."""
        return False

    def places(self) -> QuerySet[Any]:
        """Every place of `kind` (the API looks the given id up in it)."""
        raise NotImplementedError

    def place(self, place: Any) -> Place:
        """`place`, one of `places()`, as scoring's game services are passed it."""
        raise NotImplementedError

    def house_rules(self, place: Any) -> tuple[str, Mapping[str, Any] | None]:
        """The ruleset and overrides a game created at `place` plays by when the request names
        none (a club's house rules)."""
        raise NotImplementedError

    def fields(self, game: Game) -> dict[str, Any]:
        """`game`'s PLACE_FIELDS (tournament slug, session and table numbers, table and club
        night ids)."""
        return dict.fromkeys(PLACE_FIELDS)

    def filters(self) -> dict[str, Any]:
        """The game API's list filters by place, by query parameter (`tournament`, `session`;
        `club_night`, `club`): django_filters filters on Game."""
        return {}


_NOWHERE = GamePlace()
_places: list[GamePlace] = []


def register_game_place(place: GamePlace) -> None:
    """Called from an AppConfig.ready(): the app's places."""
    if all(type(p) is not type(place) for p in _places):
        _places.append(place)


def place_of(game: Game) -> GamePlace:
    """The places `game` is played at (a default that knows none, for a game no app places)."""
    return next((p for p in _places if p.owns(game)), _NOWHERE)


def places_named(kind: str) -> GamePlace:
    """The places an app names `kind` in the API (`table`, `club_night`)."""
    for place in _places:
        if place.kind == kind:
            return place
    raise LookupError(f"no app registered places of kind {kind!r}")


def places_of_kind(kind: str) -> QuerySet[Any]:
    """The rows of the places an app names `kind` in the API (`table`, `club_night`)."""
    return places_named(kind).places()


def all_places() -> list[GamePlace]:
    """Every registered app's places (filters, stamps, the referee start page's lists)."""
    return list(_places)
