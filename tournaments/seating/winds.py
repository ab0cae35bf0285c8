"""Seat winds: who sits East, South, West and North at each table.

Whole plans: rounds are taken in blocks of four (of three at tables of three, whose seats are
East, South and West). Within a block, players and (round, table)
slots form a bipartite graph in which every slot has degree 4 and every player degree <= 4;
by Konig's theorem its edges can be coloured with 4 colours so that no two edges at a vertex
share a colour. Reading colours as winds, every table gets the four winds and every player a
different wind in each round of the block: after every full block all of a player's wind
counts are equal, and the last partial block adds at most one to each. The wind spread (most
minus least used wind per player) is therefore 0 when the round count is a multiple of 4 and
at most 1 otherwise, for any table assignment. The colouring flips alternating (Kempe) paths.

Swiss rounds are seated one at a time (swiss.py): there the search keeps tables whose players'
allowed winds admit a matching, and each table takes the best of its seat orders.
"""

from __future__ import annotations

from collections.abc import Sequence

from .core import Plan, copy_plan, validate_plan

WINDS = 4


def wind_counts(plan: Sequence[Sequence[Sequence[int]]], players: int) -> list[list[int]]:
    """Times each player sat East, South, West (and North at tables of four)."""
    size = len(plan[0][0]) if plan and plan[0] and len(plan[0][0]) == 3 else WINDS
    counts = [[0] * size for _ in range(players)]
    for rnd in plan:
        for table in rnd:
            for seat, p in enumerate(table):
                counts[p][seat] += 1
    return counts


def _colour_block(
    block: Sequence[Sequence[Sequence[int]]], players: int, winds: int = WINDS
) -> list[list[list[int]]]:
    tables = len(block[0])
    slot_of = [(j, t) for j in range(len(block)) for t in range(tables)]
    at_player = [[-1] * winds for _ in range(players)]  # colour -> slot
    at_slot = [[-1] * winds for _ in slot_of]  # colour -> player
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
    winds = len(plan[0][0])  # 3 at tables of three (East, South, West: WDMC 2019 5.1)
    out: Plan = []
    for start in range(0, len(plan), winds):
        out.extend(_colour_block(copy_plan(plan[start : start + winds]), players, winds))
    return out
