"""Seat whoever turns up at a club night into tables of 4 and 3 (pure functions, no Django).

Tables of four as long as the rest splits into tables of three (13 -> 4+3+3+3, 6 -> 3+3);
the only count of three or more that cannot be seated whole is five: one table of three and
two players sit out. Later rounds of the night rotate: the players who sat out least sit out,
and the tables keep the fewest pairs who already met tonight.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

MIN_PLAYERS = 3


def table_sizes(players: int) -> tuple[list[int], int]:
    """(table sizes, how many sit out): as many tables of 4 as the rest allows in 3s."""
    if players < MIN_PLAYERS:
        raise ValueError(f"a table needs at least {MIN_PLAYERS} players, {players} came")
    for fours in range(players // 4, -1, -1):
        rest = players - 4 * fours
        if rest % 3 == 0:
            return [4] * fours + [3] * (rest // 3), 0
    return [3], players - 3  # five players: one table of three


@dataclass(frozen=True)
class NightRound:
    tables: list[list[int]]  # player ids per table, seat order (seat 0 is East)
    sitting_out: list[int]
    repeats: int  # pairs at the same table who already met tonight


def _pair(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


def _cost(tables: Sequence[Sequence[int]], met: Mapping[tuple[int, int], int]) -> int:
    return sum(
        met.get(_pair(t[i], t[j]), 0) for t in tables for i in range(len(t)) for j in range(i)
    )


def seat_round(
    players: Sequence[int],
    *,
    met: Mapping[tuple[int, int], int] | None = None,
    sat_out: Mapping[int, int] | None = None,
    seed: int = 0,
    tries: int = 200,
) -> NightRound:
    """One round: ``met`` counts how often two players shared a table tonight, ``sat_out``
    how often each sat out. Deterministic for a seed."""
    ids = list(dict.fromkeys(players))
    if len(ids) != len(players):
        raise ValueError("a player is listed twice")
    sizes, out_count = table_sizes(len(ids))
    met = met or {}
    sat_out = sat_out or {}
    rng = random.Random(seed)
    shuffled = ids[:]
    rng.shuffle(shuffled)
    # Who sits out: the ones who sat out least so far (ties by the shuffle).
    by_turn = sorted(shuffled, key=lambda p: sat_out.get(p, 0))
    out = sorted(by_turn[:out_count])
    playing = [p for p in shuffled if p not in set(out)]
    best: list[list[int]] | None = None
    best_cost = -1
    for _ in range(max(1, tries)):
        pool = playing[:]
        rng.shuffle(pool)
        tables: list[list[int]] = []
        for size in sizes:
            table = [pool.pop()]
            while len(table) < size:
                pick = min(
                    range(len(pool)),
                    key=lambda i: sum(met.get(_pair(pool[i], q), 0) for q in table),
                )
                table.append(pool.pop(pick))
            tables.append(table)
        cost = _cost(tables, met)
        if best is None or cost < best_cost:
            best, best_cost = tables, cost
            if cost == 0:
                break
    assert best is not None
    for table in best:
        rng.shuffle(table)  # seat order (who starts as East) by lot, as WDMC 2019 2.2 / 5.2
    return NightRound(tables=best, sitting_out=out, repeats=best_cost)
