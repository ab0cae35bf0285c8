"""Shared types, validation and manual edits for seating plans."""

from __future__ import annotations

from collections.abc import Sequence

Table = list[int]
Round = list[Table]
Plan = list[list[list[int]]]
"""Rounds -> tables -> 4 player indices in seat order East, South, West, North."""

TABLE_SIZE = 4


class SeatingError(ValueError):
    """A seating request or plan that cannot be honoured; the message says why."""


def substitutes_needed(players: int, table_size: int = TABLE_SIZE) -> int:
    """How many substitutes bring `players` up to a multiple of the table size."""
    return -players % table_size


def check_player_count(players: int, table_size: int = TABLE_SIZE) -> None:
    """Refuse counts that cannot fill tables of `table_size` (4, or 3 for three-player rules,
    WDMC 2019 5.1), suggesting the nearest fixes."""
    if players < table_size:
        raise SeatingError(
            f"{players} players cannot fill a table: at least {table_size} are needed"
        )
    add = substitutes_needed(players, table_size)
    if add:
        remove = table_size - add
        raise SeatingError(
            f"{players} players cannot be seated at tables of {table_size}: add {add} "
            f"substitute{'s' if add > 1 else ''} (to {players + add}) or remove {remove} "
            f"player{'s' if remove > 1 else ''} (to {players - remove})"
        )


def validate_plan(plan: Sequence[Sequence[Sequence[int]]], *, players: int | None = None) -> int:
    """Check every round seats each player exactly once at tables of four.

    Returns the player count (inferred from the first round when not given).
    """
    if not plan:
        raise SeatingError("the plan has no rounds")
    # Tables of 4, or all of 3 (three-player rules): the first table sets the size.
    size = len(plan[0][0]) if plan[0] and len(plan[0][0]) == 3 else TABLE_SIZE
    n = players if players is not None else size * len(plan[0])
    check_player_count(n, size)
    for r, rnd in enumerate(plan, start=1):
        if len(rnd) * size != n:
            raise SeatingError(f"round {r}: {len(rnd)} tables cannot seat {n} players")
        seen: set[int] = set()
        for t, table in enumerate(rnd, start=1):
            if len(table) != size:
                raise SeatingError(f"round {r}, table {t}: {len(table)} seats instead of {size}")
            for p in table:
                if not 0 <= p < n:
                    raise SeatingError(f"round {r}, table {t}: no player {p} (0..{n - 1})")
                if p in seen:
                    raise SeatingError(f"round {r}: player {p} is seated twice")
                seen.add(p)
    return n


def copy_plan(plan: Sequence[Sequence[Sequence[int]]]) -> Plan:
    return [[list(table) for table in rnd] for rnd in plan]


def swap_players(plan: Plan, *, round: int, a: int, b: int) -> Plan:
    """Return a copy of `plan` where players `a` and `b` trade seats in round `round` (0-based).

    Each takes the other's table and wind; quality(...) of the result shows the effect.
    """
    if not 0 <= round < len(plan):
        raise SeatingError(f"no round {round}: the plan has rounds 0..{len(plan) - 1}")
    new = copy_plan(plan)
    where: dict[int, tuple[int, int]] = {}
    for t, table in enumerate(new[round]):
        for s, p in enumerate(table):
            where[p] = (t, s)
    for p in (a, b):
        if p not in where:
            raise SeatingError(f"player {p} is not seated in round {round}")
    (ta, sa), (tb, sb) = where[a], where[b]
    new[round][ta][sa], new[round][tb][sb] = b, a
    return new
