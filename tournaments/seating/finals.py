"""Seating after a cut (issue 32.2): tables by standing and winds by standing or drawn.

Plain Python like the rest of tournaments.seating. A final seats its players by standing:
the first `table_size` at table 1, the next at table 2, ... Within a table the winds go by
standing (the best placed is East, then South, West, North) or are drawn.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping, Sequence
from typing import TypeVar

from .core import SeatingError

Id = TypeVar("Id", bound=Hashable)


def tables_by_standing(
    ordered: Sequence[Id], table_size: int = 4, groups: Mapping[Id, str | None] | None = None
) -> list[list[Id]]:
    """`ordered` best first -> tables: 1-4 at table 1, 5-8 at table 2, ...

    With `groups` (a team event, issue 32.1: team mates are kept apart by every seating
    mode), each table in turn takes the best placed players left whose group it does not seat
    yet; a player who would meet a group mate moves down to the next table that has none (as
    few places as they must). Where every player left would meet one (a group larger than
    the tables left), the best placed of them sits there anyway."""
    if not ordered or len(ordered) % table_size:
        raise SeatingError(f"{len(ordered)} players cannot be seated at tables of {table_size}")
    if not groups:
        return [list(ordered[i : i + table_size]) for i in range(0, len(ordered), table_size)]
    left = list(ordered)
    tables: list[list[Id]] = []
    while left:
        table: list[Id] = []
        for player in list(left):
            if len(table) == table_size:
                break
            label = groups.get(player)
            if label and any(groups.get(other) == label for other in table):
                continue
            table.append(player)
            left.remove(player)
        while len(table) < table_size:  # nobody left without a group mate here
            table.append(left.pop(0))
        tables.append(table)
    return tables


def set_winds(
    tables: Sequence[Sequence[Id]], position: Mapping[Id, int], *, drawn: bool, seed: int
) -> list[list[Id]]:
    """Each table's seats in wind order East, South, West[, North]: by `position` (lower is
    better placed) or, `drawn`, in an order drawn with `seed` (the same seed, the same draw)."""
    rng = random.Random(seed)
    out = []
    for table in tables:
        seats = sorted(table, key=lambda p: position.get(p, len(position)))
        if drawn:
            rng.shuffle(seats)
        out.append(seats)
    return out
