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
_REPAIR_PASSES = 4  # passes of the re-plan's per-table seat-order repair (a count)


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


def _spread_after(history: Sequence[Sequence[Sequence[int]]], plan: Plan, players: int) -> tuple:
    counts = [[0] * len(plan[0][0]) for _ in range(players)]
    for rnd in [*history, *plan]:
        for table in rnd:
            for seat, p in enumerate(table):
                if 0 <= p < players:
                    counts[p][seat] += 1
    return (
        max(max(c) - min(c) for c in counts),
        sum(max(c) - min(c) > 1 for c in counts),
    )


def continue_winds(plan: Plan, history: Sequence[Sequence[Sequence[int]]], players: int) -> Plan:
    """Winds for a re-plan (issue 34.4): the Konig colouring balances the new rounds among
    themselves, but over the whole event a player's spread can then reach 2. Alternatively
    each table, round by round, takes the seat order after which its players' wind counts
    (history included) are most even (least sum of squares); the better of the two over the
    whole event is kept (the smallest spread, then the fewest players past 1)."""
    from itertools import permutations

    konig = balance_winds(plan)
    if not history:
        return konig
    size = len(plan[0][0])
    counts = [[0] * size for _ in range(players)]
    for rnd in history:
        for table in rnd:
            for seat, p in enumerate(table):
                if 0 <= p < players:
                    counts[p][seat] += 1
    greedy: Plan = []
    for rnd in plan:
        out = []
        for table in rnd:
            best = min(
                permutations(table),
                key=lambda order: sum(
                    (counts[p][s] + 1) ** 2 - counts[p][s] ** 2 for s, p in enumerate(order)
                ),
            )
            for s, p in enumerate(best):
                counts[p][s] += 1
            out.append(list(best))
        greedy.append(out)

    # Then each table in turn takes its best seat order given every other table's (the final
    # counts): the least excess spread past 1 (squared), then the most even counts.
    def badness(c: list[int]) -> tuple[int, int]:
        return (max(0, max(c) - min(c) - 1) ** 2, sum(x * x for x in c))

    for _ in range(_REPAIR_PASSES):
        changed = False
        for rnd in greedy:
            for t, table in enumerate(rnd):
                for s, p in enumerate(table):
                    counts[p][s] -= 1

                def score(order: tuple[int, ...]) -> tuple[int, int]:
                    total = (0, 0)
                    for s, p in enumerate(order):
                        counts[p][s] += 1
                        bad = badness(counts[p])
                        counts[p][s] -= 1
                        total = (total[0] + bad[0], total[1] + bad[1])
                    return total

                best = min(permutations(table), key=score)
                changed |= list(best) != table
                rnd[t] = list(best)
                for s, p in enumerate(best):
                    counts[p][s] += 1
        if not changed:
            break
    a, b = _spread_after(history, konig, players), _spread_after(history, greedy, players)
    return greedy if b < a else konig
