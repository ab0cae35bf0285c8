"""Seat winds: who sits East, South, West and North at each table.

Whole plans: rounds are taken in blocks of four. Within a block, players and (round, table)
slots form a bipartite graph in which every slot has degree 4 and every player degree <= 4;
by Konig's theorem its edges can be coloured with 4 colours so that no two edges at a vertex
share a colour. Reading colours as winds, every table gets the four winds and every player a
different wind in each round of the block: after every full block all of a player's wind
counts are equal, and the last partial block adds at most one to each. The wind spread (most
minus least used wind per player) is therefore 0 when the round count is a multiple of 4 and
at most 1 otherwise, for any table assignment. The colouring flips alternating (Kempe) paths.

Swiss rounds are seated one at a time, so the best is per table: pick the seat order that
keeps each player's spread <= 1 (the 24 orders are tried), which is possible when the four
players' allowed winds admit a matching; swiss.py keeps tables where it does not rare.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import permutations

from .core import Plan, copy_plan, validate_plan

WINDS = 4
PERMUTATIONS = list(permutations(range(WINDS)))


def wind_counts(plan: Sequence[Sequence[Sequence[int]]], players: int) -> list[list[int]]:
    counts = [[0] * WINDS for _ in range(players)]
    for rnd in plan:
        for table in rnd:
            for seat, p in enumerate(table):
                counts[p][seat] += 1
    return counts


def _colour_block(block: Sequence[Sequence[Sequence[int]]], players: int) -> list[list[list[int]]]:
    tables = len(block[0])
    slot_of = [(j, t) for j in range(len(block)) for t in range(tables)]
    at_player = [[-1] * WINDS for _ in range(players)]  # colour -> slot
    at_slot = [[-1] * WINDS for _ in slot_of]  # colour -> player
    for s, (j, t) in enumerate(slot_of):
        for p in block[j][t]:
            a = at_player[p].index(-1)
            b = at_slot[s].index(-1)
            if at_slot[s][a] != -1:
                # Swap colours a and b along the path from s that starts with colour a;
                # it cannot reach p, which has no a edge, so a becomes free at s and p.
                path, node, on_slot, colour = [], s, True, a
                while True:
                    nxt = at_slot[node][colour] if on_slot else at_player[node][colour]
                    if nxt == -1:
                        break
                    path.append((node, nxt, on_slot, colour))
                    node, on_slot = nxt, not on_slot
                    colour = b if colour == a else a
                for u, v, u_is_slot, c in path:
                    if u_is_slot:
                        at_slot[u][c], at_player[v][c] = -1, -1
                    else:
                        at_player[u][c], at_slot[v][c] = -1, -1
                for u, v, u_is_slot, c in path:
                    d = b if c == a else a
                    if u_is_slot:
                        at_slot[u][d], at_player[v][d] = v, u
                    else:
                        at_player[u][d], at_slot[v][d] = v, u
            at_player[p][a], at_slot[s][a] = s, p
    out: list[list[list[int]]] = [[[] for _ in range(tables)] for _ in block]
    for s, (j, t) in enumerate(slot_of):
        out[j][t] = list(at_slot[s])
    return out


def balance_winds(plan: Plan) -> Plan:
    """Reorder seats within every table so each player's wind spread is <= 1 (0 when the
    number of rounds is a multiple of 4). Tables keep their players."""
    if not plan:
        return []
    players = validate_plan(plan)
    out: Plan = []
    for start in range(0, len(plan), WINDS):
        out.extend(_colour_block(copy_plan(plan[start : start + WINDS]), players))
    return out


def allowed_mask(counts: Sequence[int]) -> int:
    """Winds (bit w) a player can take next while keeping their spread <= 1 (or shrinking it)."""
    low, high = min(counts), max(counts)
    if high == low:
        return 0b1111
    return sum(1 << w for w in range(WINDS) if counts[w] == low)


@lru_cache(maxsize=65536)
def masks_feasible(masks: tuple[int, int, int, int]) -> bool:
    """Whether four players with these allowed-wind masks can take distinct allowed winds."""
    return any(all(m >> w & 1 for m, w in zip(masks, perm, strict=True)) for perm in PERMUTATIONS)


def order_table(table: Sequence[int], counts: Sequence[Sequence[int]]) -> list[int]:
    """Seat order (E, S, W, N) for one table given each player's wind counts so far:
    least spread first, then the least-used winds."""
    best: tuple[tuple[int, int], list[int]] | None = None
    for perm in PERMUTATIONS:  # perm[i] = wind of table[i]
        spread = 0
        used = 0
        for p, w in zip(table, perm, strict=True):
            c = list(counts[p])
            c[w] += 1
            spread += max(0, max(c) - min(c) - 1)
            used += counts[p][w] * counts[p][w]
        key = (spread, used)
        if best is None or key < best[0]:
            seats = [0] * WINDS
            for p, w in zip(table, perm, strict=True):
                seats[w] = p
            best = (key, seats)
    assert best is not None
    return best[1]
