"""Tabu search on swaps between tables of one round (after Dotu & Van Hentenryck's SGP search).

Cost = sum over pairs of C(meetings, 2) (zero iff nobody meets twice; convex, so repeats are
spread thin and the most-met pair is kept low) + CONSECUTIVE per pair seated together in two
consecutive rounds + GROUP per same-group pair seated together in the first k rounds.

Each step picks a round, weighted by its number of conflicting pairs (met before, same group,
or a consecutive repeat), evaluates swapping (up to MOVERS of) its conflicting players with every
player at another table (each delta costs a few table look-ups), and makes the best move that
is not tabu, even a worsening one. Moved players stay put for a few steps; long stalls trigger
a few random swaps. The best plan seen is returned.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from itertools import combinations

from .core import Plan, Round

CONSECUTIVE = 6  # a pair together in consecutive rounds: above a second meeting (1) and a third (2)
# A pair of one group (club, country) at a table in the rounds that keep groups apart: above
# anything repeats can cost, so the search gives up repeats first (issue 17.5: a hard rule
# where feasible; the quality report counts what is left).
GROUP = 1000
MOVERS = 8  # conflicting players tried per step; bounds the cost of a step on big fields


def meet_lower_bound(players: int, rounds: int, size: int = 4) -> int:
    """Least possible sum of C(meetings, 2): meetings spread as evenly as possible over pairs."""
    pairs = players * (players - 1) // 2
    total = rounds * players * (size - 1) // 2
    q, rem = divmod(total, pairs)
    return rem * (q + 1) * q // 2 + (pairs - rem) * q * (q - 1) // 2


def greedy_round(players: int, rounds: Sequence[Round], rng: random.Random, size: int = 4) -> Round:
    """One more round, table by table: each seat goes to a remaining player who has met the
    table least so far (ties at random). A better start for the search than a random round.
    `rounds` may hold players outside 0..players-1 (who have left): they are ignored."""
    meet = [[0] * players for _ in range(players)]
    for rnd in rounds:
        for table in rnd:
            for a, b in combinations(table, 2):
                if 0 <= a < players and 0 <= b < players:
                    meet[a][b] += 1
                    meet[b][a] += 1
    rest = list(range(players))
    rng.shuffle(rest)
    out: Round = []
    while rest:
        table = [rest.pop()]
        while len(table) < size:
            scores = [sum(meet[p][u] for u in table) for p in rest]
            low = min(scores)
            table.append(rest.pop(scores.index(low)))
        out.append(table)
    return out


class _State:
    def __init__(
        self,
        rounds: Sequence[Round],
        players: int,
        gid: Sequence[int],
        separate: int,
        history: Sequence[Round] = (),
    ) -> None:
        self.n = players
        self.tables = [[list(t) for t in rnd] for rnd in rounds]
        self.size = len(self.tables[0][0])
        self.gid = list(gid)
        self.separate = separate
        self.where = [[0] * players for _ in self.tables]
        self.meet = [[0] * players for _ in range(players)]
        # Earlier sessions (a re-plan from session k): their meetings count, and the last
        # one's tables for back-to-back repeats; players who left (outside 0..n-1) are ignored.
        self.before = [-1] * players
        for h, rnd in enumerate(history):
            for t, table in enumerate(rnd):
                seated = [p for p in table if 0 <= p < players]
                for a, b in combinations(seated, 2):
                    self.meet[a][b] += 1
                    self.meet[b][a] += 1
                if h == len(history) - 1:
                    for p in seated:
                        self.before[p] = t
        self.base = sum(m * (m - 1) // 2 for row in self.meet for m in row) // 2
        for r, rnd in enumerate(self.tables):
            for t, table in enumerate(rnd):
                for p in table:
                    self.where[r][p] = t
                for a, b in combinations(table, 2):
                    self.meet[a][b] += 1
                    self.meet[b][a] += 1
        self.cost = self.full_cost()

    def full_cost(self) -> int:
        cost = sum(m * (m - 1) // 2 for row in self.meet for m in row) // 2
        before = self.before
        for r, rnd in enumerate(self.tables):
            nxt = self.where[r + 1] if r + 1 < len(self.tables) else None
            for table in rnd:
                for a, b in combinations(table, 2):
                    if r == 0 and before[a] >= 0 and before[a] == before[b]:
                        cost += CONSECUTIVE
                    if nxt is not None and nxt[a] == nxt[b]:
                        cost += CONSECUTIVE
                    if r < self.separate and self.gid[a] >= 0 and self.gid[a] == self.gid[b]:
                        cost += GROUP
        return cost

    def pair_cost(self, r: int) -> Callable[[int, int], int]:
        """Marginal cost of seating two players together in round r (their meetings so far
        elsewhere, plus penalties)."""
        meet, gid = self.meet, self.gid
        prev = self.where[r - 1] if r > 0 else None
        nxt = self.where[r + 1] if r + 1 < len(self.tables) else None
        before = self.before if r == 0 else None
        grouped = r < self.separate

        def c(a: int, b: int) -> int:
            v = meet[a][b]
            if prev is not None and prev[a] == prev[b]:
                v += CONSECUTIVE
            if before is not None and before[a] >= 0 and before[a] == before[b]:
                v += CONSECUTIVE
            if nxt is not None and nxt[a] == nxt[b]:
                v += CONSECUTIVE
            if grouped and gid[a] >= 0 and gid[a] == gid[b]:
                v += GROUP
            return v

        return c

    def conflicts_in(self, r: int) -> list[tuple[int, int, int]]:
        c = self.pair_cost(r)
        return [
            (r, a, b)
            for table in self.tables[r]
            for a, b in combinations(table, 2)
            if c(a, b) > 1  # its own meeting counts 1
        ]

    def conflicts(self) -> list[tuple[int, int, int]]:
        return [c for r in range(len(self.tables)) for c in self.conflicts_in(r)]

    def moves(self, r: int, x: int) -> list[tuple[int, int]]:
        """(delta, y) for swapping x with each player y at another table of round r."""
        c = self.pair_cost(r)
        ta = self.where[r][x]
        others = [u for u in self.tables[r][ta] if u != x]
        leave_x = sum(c(x, u) for u in others)
        out = []
        for tb, table in enumerate(self.tables[r]):
            if tb == ta:
                continue
            cx = [c(x, v) for v in table]
            into_b = sum(cx)
            inner = [0] * len(table)
            for i, j in combinations(range(len(table)), 2):
                w = c(table[i], table[j])
                inner[i] += w
                inner[j] += w
            for j, y in enumerate(table):
                into_a = sum(c(y, u) for u in others)
                # Each of the 2(size-1) pairs x and y leave had counted its own meeting.
                delta = into_a - leave_x + (into_b - cx[j]) - inner[j] + 2 * (self.size - 1)
                out.append((delta, y))
        return out

    def swap(self, r: int, x: int, y: int) -> None:
        meet, where = self.meet, self.where[r]
        ta, tb = where[x], where[y]
        a_tab, b_tab = self.tables[r][ta], self.tables[r][tb]
        for u in a_tab:
            if u != x:
                meet[x][u] -= 1
                meet[u][x] -= 1
                meet[y][u] += 1
                meet[u][y] += 1
        for v in b_tab:
            if v != y:
                meet[y][v] -= 1
                meet[v][y] -= 1
                meet[x][v] += 1
                meet[v][x] += 1
        a_tab[a_tab.index(x)] = y
        b_tab[b_tab.index(y)] = x
        where[x], where[y] = tb, ta


def improve(
    rounds: Sequence[Round],
    *,
    players: int,
    gid: Sequence[int],
    separate: int,
    rng: random.Random,
    max_iterations: int,
    progress: Callable[[float], None] | None = None,
    history: Sequence[Round] = (),
) -> tuple[Plan, int]:
    """Search from `rounds` (after the fixed `history`); return the best plan found and its
    cost. Only the iteration count bounds it: no clock, so the result depends on the seed."""
    state = _State(rounds, players, gid, separate, history)
    size = len(rounds[0][0])
    target = state.base if history else meet_lower_bound(players, len(rounds), size)
    best_cost = state.cost
    best = [[list(t) for t in rnd] for rnd in state.tables]
    tabu = [[0] * players for _ in rounds]
    pending: list[tuple[int, int, int]] = []  # conflicts, re-listed when used up
    stall, stall_limit = 0, 200 + 20 * players
    it = 0
    while state.cost > target and it < max_iterations:
        it += 1
        if progress is not None and it % 64 == 0:
            progress(it / max_iterations)
        if not pending:
            pending = state.conflicts()
            rng.shuffle(pending)
            if not pending:
                break
        r = pending.pop()[0]
        movers = sorted({p for _, a, b in state.conflicts_in(r) for p in (a, b)})
        if not movers:
            continue
        candidates = [
            (d, x, y)
            for x in rng.sample(movers, min(MOVERS, len(movers)))
            for d, y in state.moves(r, x)
            if tabu[r][y] <= it or state.cost + d < best_cost
        ]
        if not candidates:
            continue
        low = min(m[0] for m in candidates)
        delta, x, y = rng.choice([m for m in candidates if m[0] == low])
        state.swap(r, x, y)
        state.cost += delta
        tabu[r][x] = tabu[r][y] = it + rng.randint(3, 10)
        if state.cost < best_cost:
            best_cost, stall = state.cost, 0
            best = [[list(t) for t in rnd] for rnd in state.tables]
        else:
            stall += 1
        if stall > stall_limit:
            stall = 0
            for _ in range(max(2, players // 16)):
                r = rng.randrange(len(rounds))
                x, y = rng.sample(range(players), 2)
                if state.where[r][x] != state.where[r][y]:
                    state.swap(r, x, y)
            state.cost = state.full_cost()
            pending = []
    return best, best_cost
