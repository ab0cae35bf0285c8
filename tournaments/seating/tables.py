"""Table numbers and the choice of design rounds: the qualities of a plan beyond repeats.

Table numbers (Lester, SAT 2021: no player at the same table number twice where the session
count allows). Which table of a round gets which number never changes who meets whom or the
winds, so after everything else each round's tables are renumbered. Where the plan's rounds
are a transversal design's (designs.py), the construction numbers them: table t of round r
gets t + c*r (c outside the column shifts), which sends no player to a number twice over a
field or Z_p (``transversal_numberings``; 32x8, 44x10, 52x12, 76x15 reach 0). Where the plan
also takes other rounds, several c are tried, those leaving each table of those rounds a
free number first, the others matched to them (64x9, 80x11 reach 0). Otherwise, or still
short: greedy round by round (the most constrained table takes the free number its players
have visited least) and a least-cost matching of tables to numbers round by round, each
annealed (exchanges of two tables' numbers in one round, a counted number); then exact
repairs of one round at a time (a least-cost matching given every other round, breakout
weights on the pairs that keep revisiting; counted, stopping after 300 without progress),
and a tabu search on exchanges of two tables' numbers, the best of the whole plan each step
(counted). A
player needs a revisit past as many sessions as there are tables (the "least possible"
reported); where players always meet in the same groups more can be forced, and some
designs' rounds admit no numbering without a revisit (40x8 on the 1-rotational design:
CP-SAT proves it offline).

Indirect meetings (issue 34): for every pair who never meet, the players who meet both.
When a design has more pair-disjoint rounds than the plan needs, which ones it takes changes
that count: ``choose_rounds`` searches exchanges of a chosen round for an unused one for the
highest fewest, then the fewest pairs at it (sideways moves and kicks; a try stops as soon as
it is worse, measured from the players whose pairs were lowest; budgets counted in tries and
pairs measured). Then ``raise_shared`` exchanges two players of one round where that seats
nobody with a player they meet elsewhere (so a plan with no repeat keeps none), aimed at the
pairs at the fewest and evaluated on the rows of the eight players it moves. Both stop at
the aim (generate_plan), which keeps a design's transversal rounds and their numbers. The aim
min(ceil(sqrt n), ``shared_opponents_most``) is often out of reach: that bound counts no
triangle outside a table, and designs have many (128x10 from GF(32)'s rounds: at most 6.9
on average over unmet pairs for any choice tried, against the bound's 8.35).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence

import numpy as np

from .core import Plan


def revisits(plan: Sequence[Sequence[Sequence[int]]]) -> int:
    """Sum over players of (sessions played - distinct table numbers)."""
    seen: dict[int, set[int]] = {}
    played: dict[int, int] = {}
    for rnd in plan:
        for t, table in enumerate(rnd):
            for p in table:
                seen.setdefault(p, set()).add(t)
                played[p] = played.get(p, 0) + 1
    return sum(played[p] - len(seen[p]) for p in played)


def revisits_least(plan: Sequence[Sequence[Sequence[int]]]) -> int:
    """What any numbering must have: a player's sessions past the table count."""
    played: dict[int, int] = {}
    for rnd in plan:
        for table in rnd:
            for p in table:
                played[p] = played.get(p, 0) + 1
    tables = min((len(rnd) for rnd in plan), default=0)
    return sum(max(0, c - tables) for c in played.values())


_MATCHED_TABLES = 64
# Repairs without a new best after which _repair gives up (a count).
_REPAIR_PATIENCE = 300
# The score of an exchange _tabu_numbers may not take.
_BARRED = 1 << 30


def number_tables(
    plan: Plan,
    rng: random.Random,
    steps: int,
    hints: Sequence[Mapping[frozenset[int], int]] = (),
    repairs: int = 0,
    tabu_steps: int = 0,
) -> Plan:
    """The plan with each round's tables reordered (index = table number) to keep players
    off numbers they sat at before; tables and seats unchanged. `hints`: numberings of
    tables (by their players) from the construction (``transversal_numberings``), each a
    start for the rounds whose tables it numbers, the best kept. When the starts stop short of
    the least possible: at most `repairs` exact round repairs (``_repair``), then at most
    `tabu_steps` steps of a tabu search (``_tabu_numbers``), each still short, from the
    other's best (either reaches the least possible where the other stops: 32x10 and 60x8)."""
    if not plan:
        return plan
    least = revisits_least(plan)
    # The construction's numbers (the other rounds matched to them) end it when they reach
    # the least possible. Else starts, each annealed, the fewer revisits kept (the first on
    # a tie), stopping at the least possible: greedy (the most constrained table first), a
    # least-cost matching of tables to numbers round by round (either wins on some fields:
    # 44x8 16 against 21, 100x12 19 against 4), then the construction's, last so that the
    # first two see the random stream they always did.
    hinted: Plan = []
    for hint in hints:
        fixed = _hinted(plan, hint)
        numbered = _matched_numbers(plan, fixed) if fixed else []
        if numbered and (not hinted or revisits(numbered) < revisits(hinted)):
            hinted = numbered
            if revisits(hinted) <= least:
                return hinted
    starts: list[Callable[[], Plan]] = [lambda: _greedy_numbers(plan)]
    if len(plan[0]) <= _MATCHED_TABLES:  # O(tables^3) per round
        starts.append(lambda: _matched_numbers(plan))
    if hinted:
        starts.append(lambda: hinted)
    best: Plan = []
    for start in starts:
        out = _anneal(start(), rng, steps)
        if not best or revisits(out) < revisits(best):
            best = out
        if revisits(best) <= least:
            break
    if repairs and revisits(best) > least:
        best = _repair(best, rng, repairs, least)
    if tabu_steps and revisits(best) > least:
        best = _tabu_numbers(best, rng, tabu_steps, least)
    return best


def _hinted(plan: Plan, hint: Mapping[frozenset[int], int]) -> dict[int, list[int]]:
    """Round -> the number of each of its tables, for the rounds the hint numbers whole (a
    permutation, no table numbered in an earlier round)."""
    out: dict[int, list[int]] = {}
    taken: set[frozenset[int]] = set()
    for r, rnd in enumerate(plan):
        keys = [frozenset(t) for t in rnd]
        numbers = [hint.get(k, -1) for k in keys]
        if sorted(numbers) == list(range(len(rnd))) and taken.isdisjoint(keys):
            out[r] = numbers
            taken.update(keys)
    return out


def _anneal(out: Plan, rng: random.Random, steps: int) -> Plan:
    visits: dict[int, dict[int, int]] = {}
    for rnd in out:
        for k, table in enumerate(rnd):
            for p in table:
                mine = visits.setdefault(p, {})
                mine[k] = mine.get(k, 0) + 1
    # Then simulated annealing on exchanges of two tables' numbers in one round (the
    # temperature falls linearly to 0 over `steps` tries: a count, no clock); the best
    # numbering seen is kept.
    least = revisits_least(out)
    current = best_count = revisits(out)
    best = [[list(t) for t in rnd] for rnd in out]

    def here(table: Sequence[int], k: int, own: int) -> int:
        return sum(visits[p].get(k, 0) > own for p in table)

    for step in range(steps):
        if best_count <= least:
            break
        rnd = out[rng.randrange(len(out))]
        a, b = rng.sample(range(len(rnd)), 2)
        ta, tb = rnd[a], rnd[b]
        delta = here(ta, b, 0) + here(tb, a, 0) - here(ta, a, 1) - here(tb, b, 1)
        if delta > 0:
            heat = 0.6 * (1 - step / steps)
            if heat <= 0 or rng.random() >= math.exp(-delta / heat):
                continue
        for table, old, new in ((ta, a, b), (tb, b, a)):
            for p in table:
                visits[p][old] -= 1
                visits[p][new] = visits[p].get(new, 0) + 1
        rnd[a], rnd[b] = tb, ta
        current += delta
        if current < best_count:
            best_count = current
            best = [[list(t) for t in r] for r in out]
    return best


def _repair(out: Plan, rng: random.Random, tries: int, least: int) -> Plan:
    """Exact repair of one round at a time: a round with a revisit is renumbered by a
    least-cost matching of its tables to numbers given every other round, the cost of a
    player at a number he takes elsewhere being that pair's weight; when `len(out)` repairs
    in a row find nothing better the weights of the pairs still revisiting grow by one (a
    breakout), so the matching stops undoing the same moves. `tries` repairs at most (a
    count); the numbering with the fewest revisits seen is kept."""
    count = len(out[0])
    ids: dict[int, int] = {}
    for rnd in out:
        for table in rnd:
            for p in table:
                ids.setdefault(p, len(ids))
    seats = [[[ids[p] for p in table] for table in rnd] for rnd in out]
    visits = [[0] * count for _ in ids]
    for rnd in seats:
        for k, table in enumerate(rnd):
            for p in table:
                visits[p][k] += 1
    weight = [[1] * count for _ in ids]
    current = best_count = sum(c - 1 for row in visits for c in row if c > 1)
    best = [list(rnd) for rnd in seats]
    idle = stale = 0
    for _ in range(tries):
        if best_count <= least or stale >= _REPAIR_PATIENCE:
            break
        stale += 1
        troubled = [
            r
            for r, rnd in enumerate(seats)
            if any(visits[p][k] > 1 for k, table in enumerate(rnd) for p in table)
        ]
        rnd = seats[troubled[rng.randrange(len(troubled))]]
        for k, table in enumerate(rnd):
            for p in table:
                visits[p][k] -= 1
        before = sum(visits[p][k] > 0 for k, table in enumerate(rnd) for p in table)
        cost = [
            [sum(weight[p][k] for p in table if visits[p][k]) for k in range(count)]
            for table in rnd
        ]
        placed: list[list[int]] = [[] for _ in rnd]
        for t, k in enumerate(assignment(cost)):
            placed[k] = rnd[t]
        rnd[:] = placed
        for k, table in enumerate(rnd):
            for p in table:
                current += visits[p][k] > 0
                visits[p][k] += 1
        current -= before
        if current < best_count:
            best_count, idle, stale = current, 0, 0
            best = [list(r) for r in seats]
        else:
            idle += 1
        if idle >= len(seats):
            idle = 0
            for p, row in enumerate(visits):
                for k, c in enumerate(row):
                    if c > 1:
                        weight[p][k] += 1
    names = list(ids)
    return [[[names[p] for p in table] for table in rnd] for rnd in best]


def _tabu_numbers(out: Plan, rng: random.Random, steps: int, least: int) -> Plan:
    """Tabu search on exchanges of two tables' numbers in one round: each step takes the
    exchange that lowers revisits most (or raises them least; ties drawn from `rng`) among
    the pairs with a table at a revisit, and a table may not take back a number it left in
    the last 10-19 steps unless that reaches a new best. At most `steps` steps (a count),
    stopping at `least`; the best numbering seen is kept. Every exchange of the plan is
    scored at once (numpy) from each player's visits per number."""
    rounds, count = len(out), len(out[0])
    ids: dict[int, int] = {}
    for rnd in out:
        for table in rnd:
            for p in table:
                ids.setdefault(p, len(ids))
    empty = len(ids)  # an empty seat (tables of 3 beside 4): a player who visits nothing
    width = max(len(table) for rnd in out for table in rnd)
    seats = np.full((rounds, count, width), empty, dtype=np.int64)  # [round, number, seat]
    for r, rnd in enumerate(out):
        for k, table in enumerate(rnd):
            seats[r, k, : len(table)] = [ids[p] for p in table]
    visits = np.zeros((empty + 1, count), dtype=np.int64)
    for k in range(count):
        np.add.at(visits[:, k], seats[:, k].ravel(), 1)
    visits[empty] = 0
    # A seat's own visit, left out when asking whether its player visits a number elsewhere.
    own = np.zeros((1, count, 1, count), dtype=np.int64)
    own[0, np.arange(count), 0, np.arange(count)] = 1
    real = (seats != empty)[..., None]
    origin = np.tile(np.arange(count), (rounds, 1))  # which of its round's tables a slot holds
    tabu_until = np.full((rounds, count, count), -1, dtype=np.int64)  # [round, table, number]
    same = np.eye(count, dtype=bool)[None]
    current = best_count = int(np.maximum(visits - 1, 0).sum())
    best = seats.copy()
    for step in range(steps):
        if best_count <= least:
            break
        # elsewhere[r, a, k]: players of round r's table at number a who visit k elsewhere;
        # its diagonal counts those at a revisit where they sit.
        elsewhere = (((visits[seats] - own) > 0) & real).sum(axis=2)
        here = np.diagonal(elsewhere, axis1=1, axis2=2)
        delta = elsewhere + elsewhere.transpose(0, 2, 1) - here[:, :, None] - here[:, None, :]
        held = tabu_until[np.arange(rounds)[:, None], origin] >= step
        barred = same | ((here[:, :, None] == 0) & (here[:, None, :] == 0))
        barred |= (held | held.transpose(0, 2, 1)) & (current + delta >= best_count)
        delta[barred] = _BARRED
        low = int(delta.min())
        if low == _BARRED:
            continue
        picks = np.argwhere(delta == low)
        r, a, b = (int(v) for v in picks[rng.randrange(len(picks))])
        at_a, at_b = seats[r, a].copy(), seats[r, b].copy()
        for players, old, new in ((at_a, a, b), (at_b, b, a)):
            np.subtract.at(visits[:, old], players, 1)
            np.add.at(visits[:, new], players, 1)
        visits[empty] = 0
        seats[r, a], seats[r, b] = at_b, at_a
        tenure = step + 10 + rng.randrange(10)
        tabu_until[r, origin[r, a], a] = tabu_until[r, origin[r, b], b] = tenure
        origin[r, a], origin[r, b] = origin[r, b], origin[r, a]
        current += low
        if current < best_count:
            best_count, best = current, seats.copy()
    names = list(ids)
    return [[[names[p] for p in table if p != empty] for table in rnd] for rnd in best.tolist()]


def _greedy_numbers(plan: Plan) -> Plan:
    visits: dict[int, dict[int, int]] = {}
    out: Plan = []
    for rnd in plan:
        count = len(rnd)
        free = list(range(count))
        placed: list[list[int] | None] = [None] * count
        # Most constrained table first: the one whose players have visited most numbers.
        order = sorted(
            range(count),
            key=lambda t: -len({k for p in rnd[t] for k in visits.get(p, {})}),
        )
        for t in order:
            table = rnd[t]
            pick, pick_cost = free[0], None
            for k in free:
                cost = sum(visits.get(p, {}).get(k, 0) for p in table)
                if pick_cost is None or cost < pick_cost:
                    pick, pick_cost = k, cost
                    if cost == 0:
                        break
            free.remove(pick)
            placed[pick] = list(table)
            for p in table:
                mine = visits.setdefault(p, {})
                mine[pick] = mine.get(pick, 0) + 1
        out.append([t for t in placed if t is not None])
    return out


def _matched_numbers(plan: Plan, fixed: Mapping[int, list[int]] | None = None) -> Plan:
    """Round by round, a least-cost matching of tables to numbers given the numbers taken so
    far; the `fixed` rounds (round -> each table's number) are placed first as given."""
    fixed = fixed or {}
    visits: dict[int, dict[int, int]] = {}
    out: Plan = [[] for _ in plan]

    def place(r: int, numbers: Sequence[int]) -> None:
        placed: list[list[int]] = [[] for _ in plan[r]]
        for t, k in enumerate(numbers):
            placed[k] = list(plan[r][t])
            for p in plan[r][t]:
                mine = visits.setdefault(p, {})
                mine[k] = mine.get(k, 0) + 1
        out[r] = placed

    for r, numbers in fixed.items():
        place(r, numbers)
    for r, rnd in enumerate(plan):
        if r not in fixed:
            place(
                r,
                assignment(
                    [
                        [sum(visits.get(p, {}).get(k, 0) for p in t) for k in range(len(rnd))]
                        for t in rnd
                    ]
                ),
            )
    return out


def transversal_numbers(
    rounds: Sequence[Sequence[Sequence[int]]], chosen: Sequence[int], budget: int
) -> list[list[int]]:
    """The first of ``transversal_numberings`` (the longest prefix the search numbered when
    no product fits)."""
    found = transversal_numberings(rounds, chosen, budget, 1)
    return found[0] if found else []


def transversal_numberings(
    rounds: Sequence[Sequence[Sequence[int]]],
    chosen: Sequence[int],
    budget: int,
    most: int,
    others: Sequence[Sequence[Sequence[int]]] = (),
) -> list[list[list[int]]]:
    """Table numbers from the construction for a transversal design (designs.py: round r
    seats column i's point t + r*x_i at table t, x_0..x_3 = 0, 1, 2, 3, seats in column
    order; `rounds` are all its transversal rounds, round r being the ring's element r) and
    the plan's `chosen` rounds: up to `most` numberings, each per chosen round in order,
    table index -> number.

    Round r is numbered by a translation t -> t + e_r of the ring. Column i's point j then
    sits at number j - r*x_i + e_r, so no point visits a number twice when e_r - r*x_i
    differs between the chosen rounds for every column: e_r = c*r with c outside the x_i
    does it over a field or Z_p (32x8 on GF(8), 44x11 on Z_11). The translations (column
    i of round r is the translation by r*x_i, closed under composition) and the products
    (r -> r*x_i is read off round r) come from the rounds themselves; each c among the
    products of two to four of x_2, x_3 is tried, every point checked, and each that fits
    is a numbering (which one leaves room for the plan's other rounds differs: 64x10's two
    recursive rounds). Where none fits (Z_m, m not prime) a depth-first search over the
    translations, `budget` tries, restarted on reshuffled candidates every 2000 tries, gives
    one: the longest prefix of `chosen` it numbered."""
    if not chosen or not rounds:
        return []
    m, size = len(rounds[0]), len(rounds[0][0])
    seen: set[tuple[int, ...]] = set()
    pool: list[tuple[int, ...]] = []
    for rnd in rounds:
        for i in range(1, size):
            shift = tuple(table[i] - i * m for table in rnd)
            if shift not in seen:
                seen.add(shift)
                pool.append(shift)
    gens = list(pool)
    for perm in pool:  # grows while it is read: the closure under composition
        for g in gens:
            both = tuple(g[k] for k in perm)
            if both not in seen:
                seen.add(both)
                pool.append(both)
    pool.sort()
    used = [0] * (m * size)
    full = (1 << m) - 1
    roomy = [False]  # also keep a free number for every table of the `others`

    def room() -> bool:
        for rnd in others:
            free_somewhere = 0
            for table in rnd:
                taken = 0
                for p in table:
                    taken |= used[p]
                if taken == full:
                    return False
                free_somewhere |= full & ~taken
            if free_somewhere != full:
                return False
        return True

    def fits(rnd: Sequence[Sequence[int]], perm: Sequence[int]) -> bool:
        if any(used[p] >> perm[t] & 1 for t, table in enumerate(rnd) for p in table):
            return False
        if not roomy[0]:
            return True
        mark(rnd, perm)
        ok = room()
        mark(rnd, perm)
        return ok

    def mark(rnd: Sequence[Sequence[int]], perm: Sequence[int]) -> None:
        for t, table in enumerate(rnd):
            bit = 1 << perm[t]
            for p in table:
                used[p] ^= bit

    # e_r = c*r: r -> r*x_i is where round r's translation for column i sends table 0.
    by_start = {perm[0]: perm for perm in pool}
    scale = [[rnd[0][i] - i * m for rnd in rounds] for i in range(2, size)]
    products: list[list[int]] = []
    layer = [list(range(len(rounds)))]
    known: set[tuple[int, ...]] = set()
    for depth in range(4):  # r -> r*c for c a product of `depth + 1` of x_2, x_3
        layer = [[g[r] if 0 <= r < len(g) else -1 for r in h] for g in scale for h in layer]
        for mult in layer:
            if depth and tuple(mult) not in known:
                known.add(tuple(mult))
                products.append(mult)

    def linear() -> list[list[list[int]]]:
        out: list[list[list[int]]] = []
        for mult in products:
            numbered: list[tuple[int, ...]] = []
            for r in chosen:
                found = by_start.get(mult[r])
                if found is None or not fits(rounds[r], found):
                    break
                mark(rounds[r], found)
                numbered.append(found)
            for r, shift in zip(chosen, numbered, strict=False):
                mark(rounds[r], shift)
            if len(numbered) == len(chosen):
                out.append([list(shift) for shift in numbered])
                if len(out) >= most:
                    break
        return out

    def search() -> list[list[list[int]]]:
        out: list[list[list[int]]] = []
        best: list[list[int]] = []
        picked: list[tuple[int, ...]] = []
        cursor = [0]
        orders = [pool] * len(chosen)
        mix = random.Random(0)  # its own stream: the plan's is not touched
        for tries in range(budget):
            if tries and tries % 2000 == 0:  # a fresh start, candidates reshuffled
                while picked:
                    mark(rounds[chosen[len(picked) - 1]], picked.pop())
                cursor = [0]
                orders = [mix.sample(pool, len(pool)) for _ in chosen]
            depth = len(picked)
            if depth == len(chosen):  # one more numbering; then on to the next
                out.append([list(x) for x in picked])
                if len(out) >= most:
                    break
                cursor.pop()
                mark(rounds[chosen[depth - 1]], picked.pop())
                continue
            k = cursor[depth]
            if k == len(pool):  # no translation fits: back to the previous round
                if not picked:
                    break
                cursor.pop()
                mark(rounds[chosen[depth - 1]], picked.pop())
                continue
            cursor[depth] = k + 1
            perm = orders[depth][k]
            if fits(rounds[chosen[depth]], perm):
                mark(rounds[chosen[depth]], perm)
                picked.append(perm)
                cursor.append(0)
                if len(picked) > len(best):
                    best = [list(x) for x in picked]
        while picked:
            mark(rounds[chosen[len(picked) - 1]], picked.pop())
        return out or ([best] if best and not roomy[0] else [])

    if others:
        roomy[0] = True
        found = linear() or search()
        if found:
            return found
        roomy[0] = False
    return linear() or search()


def assignment(cost: Sequence[Sequence[int]]) -> list[int]:
    """Row -> column of a least-cost perfect matching of a square matrix (the Hungarian
    method with potentials, O(n^3))."""
    n = len(cost)
    big = 1 << 60
    u, v = [0] * (n + 1), [0] * (n + 1)
    match = [0] * (n + 1)  # column -> row (1-based; 0 = free)
    way = [0] * (n + 1)
    for row in range(1, n + 1):
        match[0] = row
        col = 0
        low = [big] * (n + 1)
        used = [False] * (n + 1)
        while True:
            used[col] = True
            r, delta, nxt = match[col], big, 0
            cr = cost[r - 1]
            for j in range(1, n + 1):
                if not used[j]:
                    c = cr[j - 1] - u[r] - v[j]
                    if c < low[j]:
                        low[j], way[j] = c, col
                    if low[j] < delta:
                        delta, nxt = low[j], j
            for j in range(n + 1):
                if used[j]:
                    u[match[j]] += delta
                    v[j] -= delta
                else:
                    low[j] -= delta
            col = nxt
            if match[col] == 0:
                break
        while col:
            prev = way[col]
            match[col] = match[prev]
            col = prev
    out = [0] * n
    for j in range(1, n + 1):
        out[match[j] - 1] = j - 1
    return out


def shared_opponents_most(players: int, rounds: int, size: int = 4) -> int | None:
    """An upper bound on the fewest shared opponents of two players who never met, for a
    plan with no repeat: a player meets d = (size - 1) * rounds others, each of whom meets at
    most d - size + 1 players outside the first one's table that session, shared among the
    n - 1 - d players the first one never met. None when everyone can meet everyone."""
    met = (size - 1) * rounds
    unmet = players - 1 - met
    if unmet <= 0:
        return None
    return met * (met - size + 1) // unmet


def shared_opponents_aim(players: int) -> int:
    """Issue 34: at least the square root of the field (where the session count allows)."""
    return math.isqrt(players - 1) + 1 if players > 1 else 0


def fewest_shared(rounds: Sequence[Sequence[Sequence[int]]], players: int) -> tuple[int, int]:
    """(fewest shared opponents over pairs who never met, how many pairs have that few);
    (players, 0) when every pair met."""
    opp = _opponents(rounds, players)
    low, ties = players, 0
    full = (1 << players) - 1
    for a in range(players):
        mine = opp[a]
        rest = full & ~mine & ~((1 << (a + 1)) - 1)  # players after a whom a never met
        while rest:
            bit = rest & -rest
            rest ^= bit
            shared = (mine & opp[bit.bit_length() - 1]).bit_count()
            if shared < low:
                low, ties = shared, 1
            elif shared == low:
                ties += 1
    return low, ties


def _opponents(rounds: Sequence[Sequence[Sequence[int]]], players: int) -> list[int]:
    """Each player's opponents as a bit set (player p is bit p; never the player itself)."""
    opp = [0] * players
    for rnd in rounds:
        for table in rnd:
            mask = 0
            for p in table:
                mask |= 1 << p
            for p in table:
                opp[p] |= mask & ~(1 << p)
    return opp


def _unmet_low(
    opp: list[int], order: Sequence[int], low: int, ties: int
) -> tuple[tuple[int, int] | None, int]:
    """(fewest shared opponents of a pair who never met, pairs with that few) over the pairs
    of players in `order`, or None as soon as it is worse than (low, ties): a pair below
    `low` or more than `ties` pairs at it; and how many pairs were measured. Players whose
    pairs were lowest come first in `order`, so a worse choice is usually told early."""
    best, count, measured = len(opp), 0, 0
    later = [opp[a] for a in order]
    for i, a in enumerate(order):
        mine = later[i]
        measured += len(later) - i - 1
        shared = [(mine & o).bit_count() for o in later[i + 1 :] if not (o >> a) & 1]
        if not shared:
            continue
        least = min(shared)
        if least < best:
            if least < low:
                return None, measured
            best, count = least, 0
        if least == best:
            count += shared.count(least)
            if best == low and count > ties:
                return None, measured
    return (best, count), measured


def _lowest_first(opp: list[int]) -> list[int]:
    """Players by their fewest shared opponents with anyone they never met (lowest first)."""
    players = len(opp)
    own = []
    for a, mine in enumerate(opp):
        unmet = [o for b, o in enumerate(opp) if b != a and not (mine >> b) & 1]
        own.append(min(((mine & o).bit_count() for o in unmet), default=players))
    return sorted(range(players), key=lambda p: (own[p], p))


def choose_rounds(
    rounds: Sequence[Sequence[Sequence[int]]],
    wanted: int,
    players: int,
    rng: random.Random,
    tries: int,
    pairs: int | None = None,
    stall: int = 100,
    enough: int | None = None,
) -> tuple[list[int], tuple[int, int]]:
    """Indices of `wanted` of the pair-disjoint `rounds` (the first `wanted` to start with)
    whose union leaves the most shared opponents to the pairs who never meet, and that
    (fewest shared, pairs with that few; as ``fewest_shared``).
    Local search over exchanges of a chosen round for an unused one: an exchange is kept when
    it leaves the fewest no lower and no more pairs at it (sideways moves allowed); after
    `stall` exchanges undone since the score last changed, one random exchange is kept
    whatever it costs. The best choice seen is returned. Counted, never clocked: at most
    `tries` exchanges, and it stops once `pairs` pairs have been measured (a try measures
    from a few rows to every pair) or the fewest reaches `enough`."""
    chosen = list(range(wanted))
    unused = list(range(wanted, len(rounds)))
    opp = _opponents([rounds[i] for i in chosen], players)
    found, measured = _unmet_low(opp, range(players), -1, 0)
    score = found or (players, 0)
    if not unused or wanted == 0:
        return chosen, score
    best, best_score = list(chosen), score
    order = _lowest_first(opp)
    measured += players * players // 2
    failed = 0
    for _ in range(tries):
        if pairs is not None and measured >= pairs:
            break
        if enough is not None and best_score[0] >= enough:
            break
        i, j = rng.randrange(len(chosen)), rng.randrange(len(unused))
        chosen[i], unused[j] = unused[j], chosen[i]
        trial = _opponents([rounds[c] for c in chosen], players)
        if failed >= stall:
            # A kick: the exchange is kept whatever it costs (the best stays recorded).
            failed = 0
            found, cost = _unmet_low(trial, order, -1, 0)
        else:
            found, cost = _unmet_low(trial, order, score[0], score[1])
        measured += cost
        if found is None:
            chosen[i], unused[j] = unused[j], chosen[i]
            failed += 1
            continue
        if found != score:
            order = _lowest_first(trial)
            measured += players * players // 2
            failed = 0
        score = found
        if (score[0], -score[1]) > (best_score[0], -best_score[1]):
            best, best_score = list(chosen), score
    return best, best_score


def raise_shared(
    plan: Plan,
    players: int,
    rng: random.Random,
    tries: int,
    pairs: int | None = None,
    stall: int | None = None,
    enough: int | None = None,
) -> Plan:
    """A plan with no repeated pair, its tables changed so that pairs who never meet share
    more opponents: exchanges of two players between tables of one round that seat nobody
    with a player they meet in another round (so still no pair meets twice), kept when they
    leave the fewest shared opponents no lower, no more pairs at it and, at as many, no more
    pairs one above it (sideways moves allowed). Every try aims at a pair at the fewest: one
    of the two joins, in a random round, the table of someone the other meets.
    Counted, never clocked: at most `tries` exchanges, none once `pairs` pairs have been
    measured, none after `stall` tries in a row that did not raise the fewest or lower the
    pairs at it, none once the fewest reaches `enough` (each exchange can cost the table
    numbers of a design's rounds: tables changed lose the construction's numbers). Winds and
    table numbers come after."""
    if not plan or players < 8:
        return plan
    out = [[list(t) for t in rnd] for rnd in plan]
    where = [[0] * players for _ in out]
    for r, rnd in enumerate(out):
        for t, table in enumerate(rnd):
            for p in table:
                where[r][p] = t
    opp = _opponents(out, players)
    hist = [0] * (players + 1)
    for a in range(players):
        for b in range(a + 1, players):
            if not (opp[a] >> b) & 1:
                hist[(opp[a] & opp[b]).bit_count()] += 1
    low = next((c for c, k in enumerate(hist) if k), players)
    lowest: list[tuple[int, int]] = []
    measured, idle = players * players // 2, 0

    def rows(touched: set[int], delta: dict[int, int], sign: int) -> None:
        # Every pair with a player in `touched` (once): its shared count, if it never met.
        for u in touched:
            mine = opp[u]
            for v, o in enumerate(opp):
                if v != u and not (v in touched and v < u) and not (mine >> v) & 1:
                    c = (mine & o).bit_count()
                    delta[c] = delta.get(c, 0) + sign

    def exchange(x: int, y: int, xs: list[int], ys: list[int]) -> None:
        # x leaves the table of `xs` for that of `ys`, y the other way (opponents only).
        mx, my = sum(1 << p for p in xs), sum(1 << p for p in ys)
        opp[x] = (opp[x] & ~mx) | my
        opp[y] = (opp[y] & ~my) | mx
        bx, by = 1 << x, 1 << y
        for p in xs:
            opp[p] = (opp[p] & ~bx) | by
        for p in ys:
            opp[p] = (opp[p] & ~by) | bx

    goal = players if enough is None else min(enough, players)
    for _ in range(tries):
        if low >= goal or (pairs is not None and measured >= pairs):
            break
        if stall is not None and idle >= stall:
            break
        idle += 1
        r = rng.randrange(len(out))
        if not lowest:
            measured += players * players // 2
            lowest = [
                (a, b)
                for a in range(players)
                for b in range(a + 1, players)
                if not (opp[a] >> b) & 1 and (opp[a] & opp[b]).bit_count() == low
            ]
            rng.shuffle(lowest)
        u, v = lowest[-1]
        if (opp[u] >> v) & 1 or (opp[u] & opp[v]).bit_count() != low:
            lowest.pop()  # no longer at the fewest
            continue
        if rng.random() < 0.5:
            u, v = v, u
        # u joins, in round r, the table of one of v's opponents (not u's own table).
        friends = [w for w in range(players) if (opp[v] >> w) & 1 and where[r][w] != where[r][u]]
        if not friends:
            continue
        w = rng.choice(friends)
        ta, tb = where[r][u], where[r][w]
        y = rng.choice([p for p in out[r][tb] if p != w])
        mates = [p for p in out[r][ta] if p != u]
        theirs = [p for p in out[r][tb] if p != y]
        if any((opp[u] >> p) & 1 for p in theirs) or any((opp[y] >> p) & 1 for p in mates):
            continue  # a repeat
        touched = {u, y, *mates, *theirs}
        measured += 2 * len(touched) * players
        delta: dict[int, int] = {}
        rows(touched, delta, -1)
        exchange(u, y, mates, theirs)
        rows(touched, delta, 1)
        changed = sorted(c for c, k in delta.items() if k)
        if changed and changed[0] <= low + 1 and delta[changed[0]] > 0:
            exchange(y, u, mates, theirs)  # worse: undone
            continue
        out[r][ta][out[r][ta].index(u)] = y
        out[r][tb][out[r][tb].index(y)] = u
        where[r][u], where[r][y] = tb, ta
        for c, k in delta.items():
            hist[c] += k
        if delta.get(low, 0) < 0:
            idle = 0
        if hist[low] == 0:
            low = next((c for c, k in enumerate(hist) if k), players)
            lowest = []
    return out


__all__ = [
    "choose_rounds",
    "fewest_shared",
    "number_tables",
    "raise_shared",
    "revisits",
    "revisits_least",
    "shared_opponents_aim",
    "shared_opponents_most",
    "transversal_numberings",
    "transversal_numbers",
]
