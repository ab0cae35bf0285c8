"""Swiss seating: the next round from current standings.

Start from tables of consecutive ranks (1-4, 5-8, ...). A table's cost is
REPEAT * (past meetings of its pairs, a meeting in the previous round counting twice)
+ WIND if its players cannot all take a wind that keeps their spread <= 1 + its rank spread
(worst minus best position). Tables with a repeat or a wind clash swap players with tables at
most 2 away, best improving swap first; for repeats the reach then doubles while they remain.
A last pass between neighbouring tables shrinks the rank spread again. Small fields that still
have repeats get a bounded number of random kicks. Seats are then ordered to balance winds.

Winds are a soft goal here: every fourth round of strictly balanced winds leaves each player
exactly one admissible wind, and as those needs are unrelated to rank, honouring them all would
scatter the tables. Clashes are fixed only by nearby swaps, so a player's wind spread can
reach 2 in Swiss rounds.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from itertools import combinations

from .core import Plan, SeatingError, Table, check_player_count, validate_plan
from .winds import allowed_mask, masks_feasible, order_table, wind_counts

WIND = 8
PASSES = 4  # sweeps per descent: later sweeps rarely gain, and clashes that stay are kept


class _Swiss:
    def __init__(
        self, ranking: Sequence[int], previous: Plan, counts: Sequence[Sequence[int]]
    ) -> None:
        n = len(ranking)
        self.repeat = 2 * n
        self.pos = [0] * n
        for i, p in enumerate(ranking):
            self.pos[p] = i
        self.weight: list[dict[int, int]] = [{} for _ in range(n)]
        for r, rnd in enumerate(previous):
            bonus = 2 if r == len(previous) - 1 else 1
            for table in rnd:
                for a, b in combinations(table, 2):
                    self.weight[a][b] = self.weight[a].get(b, 0) + bonus
                    self.weight[b][a] = self.weight[b].get(a, 0) + bonus
        self.masks = [allowed_mask(c) for c in counts]
        self.tables = [list(ranking[i : i + 4]) for i in range(0, n, 4)]
        self.clash = [self.table_clash(t) for t in self.tables]
        self.cost = [self.table_cost(t) for t in self.tables]

    def table_clash(self, t: Table) -> int:
        w = self.weight
        rep = sum(w[a].get(b, 0) for a, b in combinations(t, 2))
        m = self.masks
        wind = 0 if masks_feasible((m[t[0]], m[t[1]], m[t[2]], m[t[3]])) else WIND
        return self.repeat * rep + wind

    def table_cost(self, t: Table) -> int:
        pos = self.pos
        ranks = [pos[p] for p in t]
        return self.table_clash(t) + max(ranks) - min(ranks)

    def _seats(self, t: Table) -> list[tuple[list[int], int, int, int, tuple[int, ...]]]:
        """Per seat: the other three players, their repeat weight with the seated player,
        their best and worst rank, and their wind masks."""
        w, pos, masks = self.weight, self.pos, self.masks
        out = []
        for s, x in enumerate(t):
            rest = t[:s] + t[s + 1 :]
            ranks = [pos[u] for u in rest]
            weight = sum(w[x].get(u, 0) for u in rest)
            out.append((rest, weight, min(ranks), max(ranks), tuple(masks[u] for u in rest)))
        return out

    def best_swap(self, i: int, js: range) -> tuple[int, int, int, int]:
        """(delta, j, seat in i, seat in j) of the best swap between table i and tables js."""
        w, pos, masks, repeat = self.weight, self.pos, self.masks, self.repeat
        best = (0, -1, -1, -1)
        ti = self.tables[i]
        seats_i = self._seats(ti)
        rep_i = sum(w[a].get(b, 0) for a, b in combinations(ti, 2))
        for j in js:
            if j == i:
                continue
            tj = self.tables[j]
            seats_j = self._seats(tj)
            rep_j = sum(w[a].get(b, 0) for a, b in combinations(tj, 2))
            base = self.cost[i] + self.cost[j]
            for si, (rest_i, out_i, lo_i, hi_i, m_i) in enumerate(seats_i):
                x = ti[si]
                wx, px, mx = w[x], pos[x], masks[x]
                for sj, (rest_j, out_j, lo_j, hi_j, m_j) in enumerate(seats_j):
                    y = tj[sj]
                    wy, py = w[y], pos[y]
                    a0, a1, a2 = rest_i
                    b0, b1, b2 = rest_j
                    rep = rep_i - out_i + wy.get(a0, 0) + wy.get(a1, 0) + wy.get(a2, 0)
                    rep += rep_j - out_j + wx.get(b0, 0) + wx.get(b1, 0) + wx.get(b2, 0)
                    cost = repeat * rep
                    cost += max(hi_i, py) - min(lo_i, py) + max(hi_j, px) - min(lo_j, px)
                    if not masks_feasible((*m_i, masks[y])):
                        cost += WIND
                    if not masks_feasible((*m_j, mx)):
                        cost += WIND
                    if cost - base < best[0]:
                        best = (cost - base, j, si, sj)
        return best

    def apply(self, i: int, j: int, si: int, sj: int) -> None:
        ti, tj = self.tables[i], self.tables[j]
        ti[si], tj[sj] = tj[sj], ti[si]
        self.clash[i], self.clash[j] = self.table_clash(ti), self.table_clash(tj)
        self.cost[i], self.cost[j] = self.table_cost(ti), self.table_cost(tj)

    def clashing(self, repeats_only: bool = False) -> list[int]:
        floor = self.repeat if repeats_only else 1
        return [i for i, c in enumerate(self.clash) if c >= floor]

    def descend(
        self, reach: int, only_clashes: bool, deadline: float, repeats_only: bool = False
    ) -> None:
        """Best-improving swaps from clashing tables (or, to tighten ranks, from tables whose
        rank spread exceeds 3) until none improves."""
        count = len(self.tables)
        improved, passes = True, 0
        while improved and passes < PASSES and time.monotonic() < deadline:
            improved, passes = False, passes + 1
            loose = [i for i, c in enumerate(self.cost) if c > 3]
            for i in self.clashing(repeats_only) if only_clashes else loose:
                near = range(max(0, i - reach), min(count, i + reach + 1))
                delta, j, si, sj = self.best_swap(i, near)
                if delta < 0:
                    self.apply(i, j, si, sj)
                    improved = True


def swiss_round(
    *,
    ranking: Sequence[int],
    previous: Plan,
    seed: int = 0,
    wind_history: Sequence[Sequence[int]] | None = None,
    time_budget: float = 1.0,
) -> list[list[int]]:
    """Seat the next round from `ranking` (player indices, best first) avoiding opponents met in
    `previous` rounds, tables near rank order (table 0 holds the leaders), seats in order
    E, S, W, N balancing winds. `wind_history[p]` = times player p sat E, S, W, N (default:
    counted from `previous`)."""
    n = len(ranking)
    check_player_count(n)
    if sorted(ranking) != list(range(n)):
        raise SeatingError(f"the ranking must list each player 0..{n - 1} exactly once")
    if previous:
        validate_plan(previous, players=n)
    counts = wind_history if wind_history is not None else wind_counts(previous, n)
    if len(counts) != n:
        raise SeatingError(f"wind history has {len(counts)} players instead of {n}")
    deadline = time.monotonic() + time_budget
    s = _Swiss(ranking, previous, counts)
    count = len(s.tables)
    reach = 1
    s.descend(2, only_clashes=True, deadline=deadline)
    # Repeats may need partners from far away; wind clashes are only fixed nearby.
    while s.clashing(repeats_only=True) and time.monotonic() < deadline:
        s.descend(reach, only_clashes=True, deadline=deadline, repeats_only=True)
        if reach >= count:
            break
        reach *= 2
    s.descend(2, only_clashes=False, deadline=deadline)
    if count <= 64 and s.clashing(repeats_only=True):
        _kick(s, random.Random(seed), deadline)
    tables = sorted(s.tables, key=lambda t: min(s.pos[p] for p in t))
    return [order_table(t, counts) for t in tables]


def _kick(s: _Swiss, rng: random.Random, deadline: float) -> None:
    """Random swaps from clashing tables, then descent; keep the best arrangement seen."""
    count = len(s.tables)
    best_total, best = sum(s.cost), [list(t) for t in s.tables]
    for _ in range(200):
        if time.monotonic() > deadline:
            break
        clashes = s.clashing(repeats_only=True)
        if not clashes:
            break
        i, j = rng.choice(clashes), rng.randrange(count)
        if i != j:
            s.apply(i, j, rng.randrange(4), rng.randrange(4))
        s.descend(count, only_clashes=True, deadline=deadline, repeats_only=True)
        total = sum(s.cost)
        if total < best_total:
            best_total, best = total, [list(t) for t in s.tables]
    s.tables = best
    s.clash = [s.table_clash(t) for t in best]
    s.cost = [s.table_cost(t) for t in best]
