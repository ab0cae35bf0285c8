"""Where a game is played: a place of an upper app (a tournament table, a club night).

`scoring.models.Game` knows nothing of where it is played: the upper app's place holds the
link (`tournaments.Table.game`, `club.ClubGame`). What scoring's game services, pages and
game API need to know of a place the app owning it tells through the `GamePlace` it registers
in AppConfig.ready(), beside its scoring.policy.GamePolicy (which alone decides who may write
a game and when; nothing here is asked while a hand is written):

- creating a game at a place: the game API's `table` and `club_night` fields (`kind`,
  `places`), who may create one there (`check_create`), whether the place is free and open
  (`place_taken`, `check_place_open`), the game the seating made there for an import to fill
  (`seated_game`, `check_fill`), the link (`attach`), a club's house rules (`house_rules`);
- what the game API shows of the place (`fields`, `filters`, `stamp`).

What pages call a place, and which games the referee start page lists, the apps render
themselves (config.places).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from django.db.models import QuerySet

if TYPE_CHECKING:
    from core.models import Player
    from scoring.models import Game

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
    # Whether one of its places holds one game only (a tournament table).
    one_game_per_place = False

    def owns(self, game: Game) -> bool:
        """Whether `game` is played at one of this app's places."""
        return False

    def claims(self, place: Any) -> bool:
        """Whether `place` is one of this app's places."""
        return False

    def places(self) -> QuerySet[Any]:
        """Every place of `kind` (the API looks the given id up in it)."""
        raise NotImplementedError

    def house_rules(self, place: Any) -> tuple[str, Mapping[str, Any] | None]:
        """The ruleset and overrides a game created at `place` plays by when the request names
        none (a club's house rules)."""
        raise NotImplementedError

    def check_create(self, actor: Any, place: Any, players: Sequence[Player]) -> None:
        """Raise PermissionDenied or ValidationFailed if `actor` (never None: the system is not
        checked) may not create a game for `players` at `place`."""

    def check_place_open(self, actor: Any, place: Any) -> None:
        """Raise ValidationFailed if nothing may be played at `place` now (an import there)."""

    def place_taken(self, place: Any) -> bool:
        """Whether `place` holds its one game already (a tournament table)."""
        return False

    def seated_game(self, place: Any) -> Game | None:
        """The game already created at `place` for its seated players, for an import to fill
        (issue 20); None if there is none."""
        return None

    def check_fill(self, actor: Any, place: Any) -> None:
        """Raise PermissionDenied if `actor` (never None) may not import a record into the
        `seated_game` of `place`."""

    def attach(self, game: Game, place: Any) -> None:
        """Link the new (saved) `game` to `place`; afterwards this app `owns` it."""

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


def places_for(place: Any) -> GamePlace | None:
    """The app whose place `place` is (None: no app claims it)."""
    return next((p for p in _places if p.claims(place)), None)


def places_of_kind(kind: str) -> QuerySet[Any]:
    """The places an app names `kind` in the API (`table`, `club_night`)."""
    for place in _places:
        if place.kind == kind:
            return place.places()
    raise LookupError(f"no app registered places of kind {kind!r}")


def all_places() -> list[GamePlace]:
    """Every registered app's places (filters, stamps, the referee start page's lists)."""
    return list(_places)
