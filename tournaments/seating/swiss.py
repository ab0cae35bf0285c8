"""Swiss seating: the next session from current standings (docs/seating.md).

``swiss_session`` works on player ids, so the history may hold players who have left and the
session players never seated before. It minimises, over all tables of the session,

    sum of  BACK_TO_BACK * pairs who shared a table in the previous session
          + GROUP        * pairs of one group (club, country, team; substitutes)
          + REPEAT       * earlier meetings of its pairs
          + WIND         * 1 if its players cannot each take a wind keeping their spread <= 1
          + rank spread  (worst minus best competition rank before the session)

The weights make the order lexicographic: a repeat outweighs any single table's spread, a
back-to-back repeat or a group pair outweighs every repeat. The search is seeded greedy
construction (players in standing order, each table filled with the nearest-ranked players
who add no penalty) followed by simulated annealing over swaps of two players between
tables, with a fixed number of iterations: the same request and seed give the same tables on
any machine under any load (there is no clock in it).

Small fields may know the number of sessions still to play (``sessions``): when a zero-repeat
finish still exists for the remaining sessions, a candidate round that leaves none is
rejected (a bounded exact search checks it, see ``lookahead``).
"""

from __future__ import annotations

import contextlib
import math
import random
from collections.abc import Mapping, Sequence
from functools import lru_cache
from itertools import combinations, permutations
from typing import Any

from .core import SeatingError, check_player_count

Id = Any  # a player id: any hashable (the command passes JSON integers and strings)

REPEAT = 12  # one earlier meeting at a table costs as much as 12 ranks of spread
WIND = 1  # a player's wind spread reaching 2 (soft: winds trade against standing)
# A wind spread of 3 costs n + 8, a back-to-back pair 4k(n + 8), a pair of one group 16k(n + 8):
# each above any table's rank spread (< n), so only the impossible keeps them.
ITERATIONS_PER_PLAYER = 100  # annealing moves per player (at least MIN_ITERATIONS)
MIN_ITERATIONS = 20_000
SWEEP_BEAM = 24  # states kept per player by the sweep that builds the first tables
MAX_OPEN = 6  # tables open at once in the sweep
LOOK = 1  # sweep: estimated cost of each seat an open table still has to fill
SMALL_FIELD = 20  # up to this many players, look ahead to the end of a zero-repeat event
EXACT_NODES = 300_000  # node budget of that exact search
FOCUS = 0.8  # share of moves that start from a table above the floor cost
T_START = 1.0  # annealing temperature at the start (in ranks of spread)


def _allowed(counts: Sequence[int], spread: int = 1) -> int:
    """Winds (bit w) a player can take next keeping their wind spread (most minus least used
    wind) <= `spread`, or not widening it."""
    low = min(counts)
    out = 0
    for w, c in enumerate(counts):
        after = list(counts)
        after[w] += 1
        if c == low or max(after) - min(after) <= spread:
            out |= 1 << w
    return out


@lru_cache(maxsize=1 << 17)
def _feasible(masks: tuple[int, ...]) -> bool:
    """Whether players with these allowed-wind masks can take distinct allowed winds."""
    k = len(masks)
    return any(
        all(m >> w & 1 for m, w in zip(masks, perm, strict=True)) for perm in permutations(range(k))
    )


@lru_cache(maxsize=1 << 17)
def _feasible_key(key: int) -> bool:
    """_feasible for masks packed 4 bits each (bit 16 set: three seats)."""
    k = 3 if key >> 16 else 4
    return _feasible(tuple(key >> (4 * i) & 15 for i in range(k)))


def seat_order(table: Sequence[Id], counts: Mapping[Id, Sequence[int]]) -> list[Id]:
    """Seat order (East first) for one table given each player's wind counts so far: least
    total excess spread first, then the least-used winds, then the given order."""
    k = len(table)
    best: tuple[tuple[int, int], list[Id]] | None = None
    zero = [0] * k
    for perm in permutations(range(k)):  # perm[i] = wind of table[i]
        spread = used = 0
        for p, w in zip(table, perm, strict=True):
            c = list(counts.get(p, zero))
            c[w] += 1
            spread += max(0, max(c) - min(c) - 1)
            used += c[w] * c[w]
        key = (spread, used)
        if best is None or key < best[0]:
            seats: list[Id] = [None] * k
            for p, w in zip(table, perm, strict=True):
                seats[w] = p
            best = (key, seats)
    assert best is not None
    return best[1]


def wind_history(history: Sequence[Sequence[Sequence[Id]]], table_size: int) -> dict[Id, list[int]]:
    """Times each id sat in each seat (East, South, ...) over the history."""
    counts: dict[Id, list[int]] = {}
    for rnd in history:
        for table in rnd:
            for seat, p in enumerate(table):
                if seat < table_size:
                    counts.setdefault(p, [0] * table_size)[seat] += 1
    return counts


def competition_ranks(players: Sequence[Id], points: Mapping[Id, float]) -> list[int]:
    """0-based competition rank of each player (ties share the best position)."""
    order = sorted(range(len(players)), key=lambda i: -points.get(players[i], 0.0))
    rank = [0] * len(players)
    for place, i in enumerate(order):
        prev = order[place - 1] if place else None
        if prev is not None and points.get(players[prev], 0.0) == points.get(players[i], 0.0):
            rank[i] = rank[prev]
        else:
            rank[i] = place
    return rank


class _Session:
    """Tables of player indices with cached costs."""

    def __init__(
        self,
        *,
        n: int,
        k: int,
        pos: list[int],
        weight: list[list[int]],
        masks: list[int],
        loose: list[int],
        wind: int,
        wind2: int,
    ) -> None:
        self.n, self.k, self.pos, self.weight, self.wind = n, k, pos, weight, wind
        self.masks, self.loose = masks, loose
        self.wind2 = wind2

    def _wind(self, key: int, loose_key: int) -> int:
        if _feasible_key(key):
            return 0
        return self.wind + (0 if _feasible_key(loose_key) else self.wind2)

    def cost(self, t: Sequence[int]) -> int:
        w, pos, masks = self.weight, self.pos, self.masks
        if self.k == 4:
            a, b, c, d = t
            wa, wb = w[a], w[b]
            x = wa[b] + wa[c] + wa[d] + wb[c] + wb[d] + w[c][d]
            pa, pb, pc, pd = pos[a], pos[b], pos[c], pos[d]
            x += max(pa, pb, pc, pd) - min(pa, pb, pc, pd)
            key = masks[a] | masks[b] << 4 | masks[c] << 8 | masks[d] << 12
            if self.wind and not _feasible_key(key):
                lo = self.loose
                x += self._wind(key, lo[a] | lo[b] << 4 | lo[c] << 8 | lo[d] << 12)
            return x
        a, b, c = t
        x = w[a][b] + w[a][c] + w[b][c]
        pa, pb, pc = pos[a], pos[b], pos[c]
        x += max(pa, pb, pc) - min(pa, pb, pc)
        key = masks[a] | masks[b] << 4 | masks[c] << 8 | 1 << 16
        if self.wind and not _feasible_key(key):
            lo = self.loose
            x += self._wind(key, lo[a] | lo[b] << 4 | lo[c] << 8 | 1 << 16)
        return x


def _anneal(s: _Session, tables: list[list[int]], rng: random.Random, iterations: int) -> None:
    """Simulated annealing over swaps between tables near each other in standing order."""
    m, k = len(tables), s.k
    if m < 2:
        return
    costs = [s.cost(t) for t in tables]
    total = best_total = sum(costs)
    best = [list(t) for t in tables]
    t0, t1 = T_START, 0.05
    decay = math.log(t1 / t0) / max(1, iterations)
    reach = max(2, m // 8)
    cost = s.cost
    rand, randrange, expo, exp = rng.random, rng.randrange, rng.expovariate, math.exp
    keep_from = iterations * 3 // 4  # snapshots of the best only once the search has cooled
    floor = k - 1  # a table of consecutive ranks with nothing against it
    loose: list[int] = []
    for it in range(iterations):
        temp = t0 * exp(decay * it)
        if it % m == 0:  # most moves start at a table that costs more than the floor
            loose = [t for t, c in enumerate(costs) if c > floor]
        i = loose[randrange(len(loose))] if loose and rand() < FOCUS else randrange(m)
        d = 1 + int(expo(1.0) * reach * (1.0 - it / iterations) + rand() * 2)
        j = i + d if rand() < 0.5 else i - d
        if j < 0 or j >= m:
            j = randrange(m)
            if j == i:
                continue
        a, b = tables[i], tables[j]
        si, sj = randrange(k), randrange(k)
        x, y = a[si], b[sj]
        a[si], b[sj] = y, x
        ca, cb = cost(a), cost(b)
        delta = ca + cb - costs[i] - costs[j]
        if delta <= 0 or rand() < exp(-delta / temp):
            costs[i], costs[j] = ca, cb
            total += delta
            if total < best_total and it >= keep_from:
                best_total = total
                best = [list(t) for t in tables]
        else:
            a[si], b[sj] = x, y
    if total <= best_total:
        return
    tables[:] = best


def swiss_session(
    *,
    players: Sequence[Id],
    points: Mapping[Id, float] | None = None,
    history: Sequence[Sequence[Sequence[Id]]] = (),
    seed: int = 0,
    groups: Mapping[Id, str | None] | None = None,
    table_size: int = 4,
    iterations: int | None = None,
) -> list[list[Id]]:
    """Seat the next session: tables (seat order East, South, West[, North]) of `players`,
    leaders' table first. `points` are totals before this session (missing: 0);
    `history` lists earlier sessions' tables of ids (any ids; dropped players are ignored);
    players in one `groups` label are kept apart where possible (a hard rule: the search
    gives up any amount of standing and repeats first)."""
    if table_size not in (3, 4):
        raise SeatingError("table_size must be 3 or 4")
    n = len(players)
    check_player_count(n, table_size)
    if len(set(players)) != n:
        raise SeatingError("a player is listed twice")
    points = points or {}
    groups = groups or {}
    index = {p: i for i, p in enumerate(players)}
    k = table_size
    repeat = REPEAT
    back_to_back = 4 * k * (n + 8)
    group = 4 * back_to_back
    weight = [[0] * n for _ in range(n)]
    for r, rnd in enumerate(history):
        last = r == len(history) - 1
        for table in rnd:
            seated = [index[p] for p in table if p in index]
            for a, b in combinations(seated, 2):
                add = repeat + (back_to_back if last else 0)
                weight[a][b] += add
                weight[b][a] += add
    label = [groups.get(p) for p in players]
    by_group: dict[str, list[int]] = {}
    for i, g in enumerate(label):
        if g:
            by_group.setdefault(str(g), []).append(i)
    for members in by_group.values():
        for a, b in combinations(members, 2):
            weight[a][b] += group
            weight[b][a] += group
    counts = wind_history(history, k)
    zero = [0] * k
    masks = [_allowed(counts.get(p, zero)) for p in players]
    loose = [_allowed(counts.get(p, zero), 2) for p in players]
    pos = competition_ranks(players, points)
    rng = random.Random(seed)
    tiebreak = list(range(n))
    rng.shuffle(tiebreak)
    order = sorted(range(n), key=lambda i: (pos[i], tiebreak[i]))
    s = _Session(n=n, k=k, pos=pos, weight=weight, masks=masks, loose=loose, wind=WIND, wind2=n + 8)
    tables: list[list[int]] | None = None
    bound = (n - 1) // (k - 1)  # rounds in which nobody need meet anyone twice
    if n <= SMALL_FIELD and len(history) < bound:
        # Small fields: only a round after which the rest of a zero-repeat event (up to the
        # bound) stays possible; the exact search is bounded by a node count.
        unmet = [sum(1 << q for q in range(n) if q != p and not weight[p][q]) for p in range(n)]
        tables = _exact_round(s, order, unmet, bound - len(history) - 1, EXACT_NODES)
    if tables is None:
        tables = _sweep(s, order, SWEEP_BEAM)
        budget = max(MIN_ITERATIONS, ITERATIONS_PER_PLAYER * n)
        _anneal(s, tables, rng, budget if iterations is None else iterations)
    tables.sort(key=lambda t: (min(pos[p] for p in t), min(tiebreak[p] for p in t)))
    by_id = {players[i]: counts.get(players[i], zero) for i in range(n)}
    return [seat_order([players[i] for i in t], by_id) for t in tables]


def swiss_round(
    *,
    ranking: Sequence[int],
    previous: Sequence[Sequence[Sequence[int]]],
    seed: int = 0,
    table_size: int = 4,
) -> list[list[int]]:
    """Seat the next round from `ranking` (player indices 0..n-1, best first) avoiding
    opponents met in `previous` rounds; see ``swiss_session``."""
    n = len(ranking)
    if sorted(ranking) != list(range(n)):
        raise SeatingError(f"the ranking must list each player 0..{n - 1} exactly once")
    points = {p: float(n - i) for i, p in enumerate(ranking)}
    tables = swiss_session(
        players=list(range(n)), points=points, history=previous, seed=seed, table_size=table_size
    )
    return [[int(p) for p in t] for t in tables]


class _Budget(Exception):
    """The exact search ran out of nodes (a count, never a clock)."""


def _cliques(cands: int, size: int, unmet: list[int]) -> list[list[int]]:
    """Sets of `size` players from bitmask `cands` who may all still meet each other."""
    out: list[list[int]] = []

    def grow(chosen: list[int], pool: int) -> None:
        if len(chosen) == size:
            out.append(list(chosen))
            return
        while pool:
            low = pool & -pool
            q = low.bit_length() - 1
            pool ^= low
            chosen.append(q)
            grow(chosen, pool & unmet[q])
            chosen.pop()

    grow([], cands)
    return out


def extendable(n: int, k: int, unmet: list[int], rounds: int, budget: list[int]) -> bool:
    """Whether `rounds` more rounds of tables of k can seat players 0..n-1 with no pair
    meeting twice, given `unmet[p]` (bitmask of those p has not met). Depth-first over tables,
    the lowest free player first; `budget[0]` nodes at most (raises _Budget)."""
    if rounds <= 0:
        return True
    full = (1 << n) - 1

    def fill(free: int, left: list[int]) -> bool:
        budget[0] -= 1
        if budget[0] < 0:
            raise _Budget
        if not free:
            return extendable(n, k, left, rounds - 1, budget)
        low = free & -free
        p = low.bit_length() - 1
        for rest in _cliques(left[p] & free & ~low, k - 1, left):
            table = [p, *rest]
            after = list(left)
            mask = sum(1 << q for q in table)
            for q in table:
                after[q] &= ~mask
            if fill(free & ~mask, after):
                return True
        return False

    return fill(full, unmet)


def _exact_round(
    s: _Session, order: list[int], unmet: list[int], ahead: int, nodes: int
) -> list[list[int]] | None:
    """The cheapest round with no repeat after which `ahead` more rounds without repeats
    remain possible (branch and bound over tables in standing order), or None."""
    n, k = s.n, s.k
    budget = [nodes]
    best: list[list[list[int]] | None] = [None]
    best_cost = [math.inf]
    rank_of = {p: i for i, p in enumerate(order)}

    def place(free: int, tables: list[list[int]], cost: int) -> None:
        budget[0] -= 1
        if budget[0] < 0:
            raise _Budget
        if not free:
            after = list(unmet)
            for t in tables:
                mask = sum(1 << q for q in t)
                for q in t:
                    after[q] &= ~mask
            if extendable(n, k, after, ahead, budget):
                best[0], best_cost[0] = [list(t) for t in tables], cost
            return
        p = min((q for q in range(n) if free >> q & 1), key=rank_of.__getitem__)
        low = 1 << p
        options = _cliques(unmet[p] & free & ~low, k - 1, unmet)
        scored = sorted(
            ((s.cost([p, *rest]), [p, *rest]) for rest in options),
            key=lambda x: (x[0], [rank_of[q] for q in x[1]]),
        )
        tables_left = free.bit_count() // k
        for c, table in scored:
            if cost + c + (tables_left - 1) * (k - 1) >= best_cost[0]:
                break
            mask = sum(1 << q for q in table)
            tables.append(table)
            place(free & ~mask, tables, cost + c)
            tables.pop()

    with contextlib.suppress(_Budget):
        place((1 << n) - 1, [], 0)
    return best[0]


def _sweep(s: _Session, order: list[int], beam: int) -> list[list[int]]:
    """Beam search sweeping players in standing order: each joins an open table or opens one.

    A table's rank spread is paid gap by gap while it is open (sum over open tables of the
    rank step to the next player), its pair penalties when a player joins, its wind penalty
    when it fills. States with the same open tables keep the cheapest; `beam` states survive
    each step, so the search is deterministic and linear in the players."""
    n, k, w, pos = s.n, s.k, s.weight, s.pos
    wind = s.wind

    def wind_cost(t: tuple[int, ...]) -> int:
        """Wind penalty of a (partial) table: can its players still take distinct winds?"""
        if _partial(k, tuple(sorted(s.masks[q] for q in t))):
            return 0
        return wind + (0 if _partial(k, tuple(sorted(s.loose[q] for q in t))) else s.wind2)

    # state: (cost, open tables as tuples, closed tables as a linked list)
    states: list[tuple[int, tuple[tuple[int, ...], ...], Any]] = [(0, (), None)]
    last = pos[order[0]]
    for idx, p in enumerate(order):
        x = pos[p]
        step = x - last
        last = x
        left = n - idx - 1
        wp = w[p]
        children: dict[
            tuple[tuple[int, ...], ...], tuple[int, tuple[tuple[int, ...], ...], Any]
        ] = {}
        for cost, open_, closed in states:
            base = cost + step * len(open_)
            need = sum(k - len(t) for t in open_)
            options = []
            for i, t in enumerate(open_):
                c = base + sum(wp[q] for q in t)
                grown = (*t, p)
                if wind:
                    c += wind_cost(grown) - wind_cost(t)
                if len(grown) == k:
                    rest = open_[:i] + open_[i + 1 :]
                    options.append((c, rest, (grown, closed), need - 1))
                else:
                    options.append((c, (*open_[:i], grown, *open_[i + 1 :]), closed, need - 1))
            if len(open_) < MAX_OPEN:
                options.append((base, (*open_, (p,)), closed, need + k - 1))
            for c, new_open, new_closed, new_need in options:
                if new_need > left:
                    continue
                key = tuple(sorted(new_open))
                old = children.get(key)
                if old is None or c < old[0]:
                    children[key] = (c, new_open, new_closed)
        # Rank states by cost so far plus the seats their open tables still have to fill
        # (each costs at least one rank step while the table stays open).
        states = sorted(
            children.values(), key=lambda st: st[0] + LOOK * sum(k - len(t) for t in st[1])
        )[:beam]
    done = min(states, key=lambda st: st[0]) if states else None
    assert done is not None and not done[1], "every table fills at the last player"
    tables: list[list[int]] = []
    node = done[2]
    while node is not None:
        tables.append(list(node[0]))
        node = node[1]
    tables.reverse()
    tables.sort(key=lambda t: pos[t[0]])
    return tables


@lru_cache(maxsize=1 << 16)
def _partial(k: int, masks: tuple[int, ...]) -> bool:
    """Whether players with these allowed-wind masks can take distinct winds of k."""
    return any(
        all(m >> w & 1 for m, w in zip(masks, perm, strict=True))
        for perm in permutations(range(k), len(masks))
    )
