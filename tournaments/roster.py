"""The session roster (issue 31): for each table and seat of a session, who sits there now.

The plan seats a registered player (``Seat``); a substitute may take the seat from the start
or from hand n (EMA 2025 7.3: ``Game.substitutes`` and the game's ``GameSeat``); the seated
player may since have been dropped or disqualified. Every page, PDF, export and API answer
that says who sits where reads ``tournaments.selectors.session_roster``, which builds this in
five queries whatever the number of tables, so they cannot disagree.

Plain data: the readers turn it into their own words (``as_dict`` is the API's shape).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from scoring.engine.constants import WIND_NAMES

# What became of the player the plan seated (``RosterSeat.state``).
SEATED = "seated"  # plays the seat
ABSENT = "absent"  # a substitute plays it (EMA 2025 7.3)
DROPPED = "dropped"  # left the tournament; the seat needs a substitute or a re-seat
DISQUALIFIED = "disqualified"  # EMA 2025 6.12; likewise


@dataclass(frozen=True)
class Person:
    """A player as the roster names them, with their registration's role and state."""

    id: int
    name: str
    ema_number: str | None
    role: str  # "player", "fill-in", "reserve" ("reserve" for someone not registered)
    dropped: bool = False
    disqualified: bool = False
    registration_id: int | None = None

    def __str__(self) -> str:
        return self.name

    def as_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "ema_number": self.ema_number,
            "role": self.role,
            "dropped": self.dropped,
            "disqualified": self.disqualified,
        }


@dataclass(frozen=True)
class RosterSeat:
    table: int  # table number
    table_id: int
    wind: int  # 0 East .. 3 North (the starting seat)
    registered: Person  # whom the plan seated there
    player: Person  # who sits there now: the registered player or their substitute
    substitute_from: str | None = None  # "start" or "during" when a substitute sits there
    from_hand: int | None = None  # "during": the first hand the substitute played, if known
    started: bool = False  # the session has started (a vacant seat is no longer fixable)

    @property
    def wind_name(self) -> str:
        return WIND_NAMES[self.wind]

    @property
    def substituted(self) -> bool:
        return self.substitute_from is not None

    @property
    def state(self) -> str:
        """What became of the registered player: seated, absent, dropped or disqualified."""
        if self.registered.disqualified:
            return DISQUALIFIED
        if self.registered.dropped and not self.substituted:
            return DROPPED
        if self.substituted:
            return ABSENT
        return SEATED

    @property
    def flagged(self) -> bool:
        """Dropped or disqualified and no substitute sits there: the session cannot start."""
        return not self.substituted and (self.registered.dropped or self.registered.disqualified)

    def as_dict(self) -> dict[str, Any]:
        return {
            "table": self.table,
            "seat": self.wind,
            "wind": self.wind_name,
            "player": self.player.as_dict(),
            "registered": self.registered.as_dict(),
            "state": self.state,
            "substitute": self.substituted,
            "from": self.substitute_from,
            "from_hand": self.from_hand,
            "replaces": self.registered.as_dict() if self.substituted else None,
            "flagged": self.flagged,
        }


@dataclass(frozen=True)
class RosterTable:
    number: int
    id: int
    game_id: int | None
    seats: list[RosterSeat]

    def as_dict(self) -> dict[str, Any]:
        return {
            "table": self.number,
            "id": self.id,
            "game": self.game_id,
            "seats": [s.as_dict() for s in self.seats],
        }


@dataclass(frozen=True)
class SessionRoster:
    session_id: int
    number: int
    status: str
    tables: list[RosterTable]
    # Players and fill-ins still in the tournament, registered after the session was seated,
    # who have no seat in it (a late arrival): the session cannot start until they do.
    unseated: list[Person] = field(default_factory=list)

    def seats(self) -> Iterator[RosterSeat]:
        for table in self.tables:
            yield from table.seats

    def seat_of(self, player_id: int) -> RosterSeat | None:
        """Where the player sits now (as planned or as a substitute), else None."""
        return next((s for s in self.seats() if s.player.id == player_id), None)

    def replaced(self, player_id: int) -> RosterSeat | None:
        """The seat the plan gave the player and a substitute plays, else None."""
        return next(
            (s for s in self.seats() if s.registered.id == player_id and s.substituted), None
        )

    def planned_seat(self, player_id: int) -> RosterSeat | None:
        return next((s for s in self.seats() if s.registered.id == player_id), None)

    @property
    def flagged(self) -> list[RosterSeat]:
        return [s for s in self.seats() if s.flagged]

    @property
    def substitutions(self) -> list[RosterSeat]:
        return [s for s in self.seats() if s.substituted]

    @property
    def blocked(self) -> bool:
        """A flagged seat or a late arrival: the session cannot start as seated."""
        return bool(self.flagged or self.unseated)

    def as_dict(self) -> dict[str, Any]:
        return {
            "session": self.number,
            "status": self.status,
            "tables": [t.as_dict() for t in self.tables],
            "unseated": [p.as_dict() for p in self.unseated],
            "flagged": [
                {"table": s.table, "seat": s.wind, "wind": s.wind_name, "state": s.state}
                for s in self.flagged
            ],
        }
