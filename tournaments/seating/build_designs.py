"""Offline search for the base rounds in ``designs.json`` (run once; its output is committed).

    nice -n 10 .venv/bin/python -m tournaments.seating.build_designs [--sizes 40,52] [--check]

Without ``--sizes`` it rebuilds the fields the shipped file holds (40 and 52: 1-rotational
designs; 36, 48 and 60: 4-RGDDs of type 3^(n/3) by ``triple``, a few minutes of CPU; 32, 44
and 56: base rounds over Z_(n/4) beside rounds every translate fixes, as an exact cover by
``transversal_cover`` (xcover, up to 10 attempts of 5 minutes) and then by CP-SAT in
``developed`` (up to half an hour per field); ``pip install -e .[designs]``). ``--sizes``
searches others: n = 4 mod 12 by the rotational depth-first search, n = 0 mod 12 by
``triple``, n = 0 mod 4 by those two when n / 4 translates are too few, then (any n) by
annealing over orbit base rounds (bounded; see docs/seating.md).

For each field of 16-172 players (tables of four) where the constructions of ``designs.py``
give fewer pair-disjoint rounds than the best known (Miller et al., Symmetry 2020; the bound
floor((n - 1) / 3); at most ``MAX_ROUNDS`` wanted), it looks for a *base round* over Z_m:
k orbits of m points (x, i) plus f fixed points, whose m translates (x -> x + g) are m
pair-disjoint rounds. Fixed point b sits at base table b with three points of different
orbits (so it meets each of their orbits once over the translates); the other tables hold
four orbit points. Two points at one table, (x, i) and (y, j), cover the "difference class"
(i, j, y - x) (for i == j the class of {d, -d}; d = m/2 is not allowed: its translate by
m/2 is the same pair). No pair meets twice over the translates exactly when every class is
covered at most once. n = 3m + 1 gives a resolvable 2-(n,4,1) design (every pair once).

The search is a tabu search on swaps of two points between base tables, minimising the
classes covered twice; bounded by a count of steps per attempt and a count of attempts,
seeded (``random.Random(f"{n}:{m}:{k}:{attempt}")``), so a rerun prints the same file.
``--check`` rebuilds every stored design and checks it (the tests do the same).
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import sys
from collections.abc import Callable
from functools import partial
from itertools import combinations
from multiprocessing.connection import Connection

from .designs import DATA, round_count, stored_rounds

MAX_ROUNDS = 15
# Miller, Barr, Gao, Olafsson, Soltanifar: the zero-repeat round counts they give (issue 34).
MILLER = {
    16: 5, 20: 5, 24: 7, 28: 9, 32: 10, 36: 11, 40: 13, 44: 14, 48: 15, 52: 17, 56: 18,
    60: 19, 64: 21, 80: 26, 100: 33, 128: 42, 172: 57,
}  # fmt: skip
STEPS = 200_000  # tabu steps per attempt
ATTEMPTS = 40
ROTATIONAL_NODES = 200_000  # depth-first nodes per attempt
TRIPLE_NODES = 200_000
DEVELOPED_SECONDS = 1800.0  # CP-SAT's limit per field (wall clock: offline only)
COVER_ATTEMPTS = 10  # seeded orders of the exact cover's options, then CP-SAT
COVER_SECONDS = 300.0  # per attempt (wall clock: offline only)


def best_known(players: int) -> int:
    """Rounds with no repeated pair that a known design reaches (the bound past Miller's list)."""
    return MILLER.get(players, (players - 1) // 3)


def wanted(players: int) -> int:
    return min(best_known(players), MAX_ROUNDS)


def shapes(players: int, rounds: int) -> list[tuple[int, int, int]]:
    """(m, k, f) with k*m + f = players and m >= rounds, most spare classes first."""
    out = []
    for m in range(rounds, players // 3 + 1):
        for k in range(3, players // m + 1):
            f = players - k * m
            if f < 0 or 3 * f > k * m or (k * m - 3 * f) % 4 or f > players // 4:
                continue
            used = 3 * f + 6 * (k * m - 3 * f) // 4
            spare = k * (k - 1) // 2 * m + k * ((m - 1) // 2) - used
            if spare >= 0:
                out.append((spare, m, k, f))
    out.sort(key=lambda s: (-s[0], s[1]))
    return [(m, k, f) for _, m, k, f in out]


class _Classes:
    def __init__(self, m: int, k: int) -> None:
        self.m, self.k = m, k
        # class id of the pair (p, q), p = i*m + x; -1 for a forbidden pair (d = m/2, or d = 0)
        n = m * k
        self.of = [[-1] * n for _ in range(n)]
        ids: dict[tuple[int, int, int], int] = {}
        for p in range(n):
            i, x = divmod(p, m)
            for q in range(n):
                j, y = divmod(q, m)
                if p == q:
                    continue
                if i < j:
                    key = (i, j, (y - x) % m)
                elif i > j:
                    key = (j, i, (x - y) % m)
                else:
                    d = (y - x) % m
                    if 2 * d == m:
                        continue
                    key = (i, i, min(d, m - d))
                self.of[p][q] = ids.setdefault(key, len(ids))
        self.count = len(ids)


def search(players: int, m: int, k: int, f: int, seed: str, steps: int) -> list[list[int]] | None:
    """Base tables (orbit points i*m + x; the first f tables also hold fixed point b) covering
    no difference class twice, or None within `steps` tabu steps."""
    rng = random.Random(seed)
    cls = _Classes(m, k)
    of = cls.of
    points = list(range(k * m))
    # A start in which the fixed tables hold one point of orbits 0, 1, 2 each.
    rng.shuffle(points)
    tables: list[list[int]] = []
    by_orbit = [[p for p in points if p // m == i] for i in range(k)]
    for _ in range(f):
        orbits = rng.sample([i for i in range(k) if by_orbit[i]], 3) if k > 3 else [0, 1, 2]
        tables.append([by_orbit[i].pop() for i in orbits])
    rest = [p for ps in by_orbit for p in ps]
    rng.shuffle(rest)
    tables += [rest[i : i + 4] for i in range(0, len(rest), 4)]
    where = [0] * (k * m)
    for t, table in enumerate(tables):
        for p in table:
            where[p] = t
    count = [0] * cls.count
    bad = 0  # forbidden pairs + same-orbit pairs at fixed tables

    def pair_cost(p: int, q: int, t: int) -> int:
        c = of[p][q]
        if c < 0 or (t < f and p // m == q // m):
            return 1
        return 0

    for t, table in enumerate(tables):
        for p, q in combinations(table, 2):
            c = of[p][q]
            if c >= 0:
                count[c] += 1
            bad += pair_cost(p, q, t)
    cost = bad + sum(c - 1 for c in count if c > 1)
    # Simulated annealing on swaps: a point in conflict with any point at another table,
    # a worsening accepted with probability exp(-delta / temperature).
    temperature = 0.6
    for _step in range(steps):
        if cost == 0:
            return [list(t) for t in tables]
        p = rng.randrange(k * m)
        q = rng.randrange(k * m)
        ta, tb = where[p], where[q]
        if ta == tb:
            continue
        a_rest = [u for u in tables[ta] if u != p]
        b_rest = [v for v in tables[tb] if v != q]
        d = _swap_delta(p, q, ta, tb, a_rest, b_rest, of, count, f, m)
        if d > 0 and rng.random() >= math.exp(-d / temperature):
            continue
        for u in a_rest:
            _add(p, u, -1, of, count)
            _add(q, u, 1, of, count)
        for v in b_rest:
            _add(q, v, -1, of, count)
            _add(p, v, 1, of, count)
        tables[ta][tables[ta].index(p)] = q
        tables[tb][tables[tb].index(q)] = p
        where[p], where[q] = tb, ta
        cost += d
    return None


def rotational(m: int, seed: str, limit: int) -> list[list[int]] | None:
    """Base blocks of a 1-rotational resolvable 2-(3m+1, 4, 1) design over Z_3m + {inf}
    (m = 1 mod 4): (m - 1) / 4 blocks of four whose residues mod m are 1..m-1 once each and
    whose 12 (m - 1) / 4 differences are distinct and never a multiple of m (those are the
    table {inf, 0, m, 2m}'s). Depth-first, `limit` nodes at most."""
    big = 3 * m
    rng = random.Random(seed)
    blocks: list[list[int]] = []
    taken = [False] * m
    taken[0] = True
    nodes = 0

    def fits(block: list[int], x: int, used: int) -> list[int] | None:
        new: list[int] = []
        for y in block:
            for d in ((x - y) % big, (y - x) % big):
                if d % m == 0 or used >> d & 1 or d in new:
                    return None
                new.append(d)
        return new

    def place(used: int) -> list[list[int]] | None:
        nonlocal nodes
        nodes += 1
        if nodes > limit:
            return None
        if len(blocks) == (m - 1) // 4:
            return [list(b) for b in blocks]
        r = taken.index(False)
        starts = [r] if not blocks else [r + j * m for j in range(3)]
        rng.shuffle(starts)
        for x in starts:
            taken[r] = True
            blocks.append([x])
            found = grow(used)
            blocks.pop()
            taken[r] = False
            if found is not None or nodes > limit:
                return found
        return None

    def grow(used: int) -> list[list[int]] | None:
        nonlocal nodes
        block = blocks[-1]
        if len(block) == 4:
            return place(used)
        nodes += 1
        if nodes > limit:
            return None
        low = block[-1] % m
        options = [x for x in range(big) if not taken[x % m] and x % m > low]
        rng.shuffle(options)
        for x in options:
            new = fits(block, x, used)
            if new is None:
                continue
            block.append(x)
            taken[x % m] = True
            found = grow(used | sum(1 << d for d in new))
            block.pop()
            taken[x % m] = False
            if found is not None or nodes > limit:
                return found
        return None

    return place(0)


def triple(m: int, seed: str, limit: int) -> list[list[int]] | None:
    """A 4-RGDD of type 3^u (u = (m + 3) / 3, m = 3 mod 4) over Z_m x Z_3 + {inf_0, inf_1,
    inf_2}: base round invariant under sigma: (x, i) -> (x, i + 1), inf_b -> inf_b+1, as well
    as developed by x -> x + 1, so m rounds (Z_m x Z_3 acts on the design). The groups
    {(x, 0), (x, 1), (x, 2)} and {inf_0, inf_1, inf_2} never meet; every other pair meets once.

    Under sigma the pair classes are: pure d (two points of one orbit, d = 1..(m-1)/2) and
    mixed d ((x, i) with (x + d, i + 1), d = 1..m-1): 3 (m - 1) / 2 classes, each to be covered
    exactly once by the sigma-orbit representatives: one fixed table {inf_0, (0, 0), (b, 1),
    (c, 2)} (3 mixed classes) and (m - 3) / 4 tables of four. The representatives' x values
    partition Z_m (sigma then seats each "column" x once per orbit). Depth-first over tables
    (the smallest free x opens the next one), `limit` nodes at most. Returns the whole base
    round in the ``designs.json`` "orbits" form (the three fixed tables first)."""
    if m % 4 != 3:
        return None
    rng = random.Random(seed)
    half = (m - 1) // 2

    def cls(p: tuple[int, int], q: tuple[int, int]) -> int | None:
        (x, i), (y, j) = p, q
        if i == j:
            d = (y - x) % m
            return min(d, m - d) - 1 if d else None
        d = (y - x) % m if (j - i) % 3 == 1 else (x - y) % m
        return None if d == 0 else half + d - 1  # d = 0: a group, never met

    used: set[int] = set()
    taken = [False] * m
    reps: list[list[tuple[int, int]]] = []
    nodes = 0

    def open_table() -> bool:
        if all(taken):
            return True
        x = taken.index(False)
        taken[x] = True
        reps.append([(x, 0)])  # sigma picks which rep of the table's orbit: orbit 0 first
        if grow():
            return True
        reps.pop()
        taken[x] = False
        return False

    def grow() -> bool:
        nonlocal nodes
        nodes += 1
        if nodes > limit:
            return False
        table = reps[-1]
        if len(table) == 4:
            return open_table()
        options = [(x, i) for x in range(table[-1][0] + 1, m) if not taken[x] for i in range(3)]
        rng.shuffle(options)
        for p in options:
            new = [cls(q, p) for q in table]
            if None in new or len(set(new)) < len(new) or used.intersection(new):
                continue
            used.update(new)  # type: ignore[arg-type]
            taken[p[0]] = True
            table.append(p)
            if grow():
                return True
            table.pop()
            taken[p[0]] = False
            used.difference_update(new)
            if nodes > limit:
                return False
        return False

    fixed_options = [(b, c) for b in range(1, m) for c in range(1, m) if b != c]
    rng.shuffle(fixed_options)
    for b, c in fixed_options:
        fixed = [(0, 0), (b, 1), (c, 2)]
        classes = {cls(fixed[0], fixed[1]), cls(fixed[1], fixed[2]), cls(fixed[2], fixed[0])}
        if None in classes or len(classes) < 3:
            continue
        used.clear()
        used.update(classes)  # type: ignore[arg-type]
        for x in (0, b, c):
            taken[x] = True
        if open_table():
            return _expand(fixed, reps, m)
        for x in (0, b, c):
            taken[x] = False
        if nodes > limit:
            return None
    return None


def _expand(
    fixed: list[tuple[int, int]], reps: list[list[tuple[int, int]]], m: int
) -> list[list[int]]:
    """The base round from sigma-orbit representatives: fixed table s (inf_s's) is sigma^s of
    the fixed representative, then t, sigma t, sigma^2 t for each table of four."""

    def image(table: list[tuple[int, int]], s: int) -> list[int]:
        return [(i + s) % 3 * m + x for x, i in table]

    return [image(fixed, s) for s in range(3)] + [image(t, s) for t in reps for s in range(3)]


def _add(p: int, q: int, by: int, of: list[list[int]], count: list[int]) -> None:
    c = of[p][q]
    if c >= 0:
        count[c] += by


def _swap_delta(
    p: int,
    q: int,
    ta: int,
    tb: int,
    a_rest: list[int],
    b_rest: list[int],
    of: list[list[int]],
    count: list[int],
    f: int,
    m: int,
) -> int:
    """Change of cost when p (table ta) and q (table tb) trade places."""
    change: dict[int, int] = {}
    d = 0
    for x, keep, t, sign in (
        (p, a_rest, ta, -1),
        (q, b_rest, tb, -1),
        (q, a_rest, ta, 1),
        (p, b_rest, tb, 1),
    ):
        for u in keep:
            c = of[x][u]
            if c < 0 or (t < f and x // m == u // m):
                d += sign
            if c >= 0:
                change[c] = change.get(c, 0) + sign
    for c, by in change.items():
        before = count[c]
        after = before + by
        d += max(after - 1, 0) - max(before - 1, 0)
    return d


def transversal_round(m: int, shifts: tuple[int, ...]) -> list[list[int]]:
    """The round of tables {(x + shifts[i], i) for each orbit i}, x in Z_m: every translate
    fixes it, and it covers the whole mixed classes (i, j, shifts[j] - shifts[i])."""
    return [[i * m + (x + a) % m for i, a in enumerate(shifts)] for x in range(m)]


def _four_orbits(
    players: int, rounds: int
) -> tuple[int, int, list[list[list[int]]], list[list[int]], set[int]] | None:
    """The frame ``developed`` and ``transversal_cover`` share: Z_m x 4 (m = players / 4), the
    transversal rounds with shifts (0, t, 2t, 3t) for t < rounds - m, the pairs' difference
    classes and the classes those rounds took; None where they are none or not disjoint."""
    m, k = players // 4, 4
    extra = [transversal_round(m, (0, t, 2 * t, 3 * t)) for t in range(rounds - m)]
    if players % 4 or not extra or not pair_disjoint(extra, players):
        return None
    of = _Classes(m, k).of
    banned = {of[p][q] for rnd in extra for t in rnd for p, q in combinations(t, 2)}
    return m, k, extra, of, banned


def developed(players: int, rounds: int, seconds: float) -> dict | None:
    """m = players / 4 < rounds: four orbits of Z_m, the transversal rounds with shifts
    (0, t, 2t, 3t) for t < rounds - m (disjoint while every (j - i) t differs mod m), and a
    base round, found by OR-Tools CP-SAT, whose m translates cover none of their classes and
    no class twice (d = m/2 excluded: its translate by m/2 is the same pair). An exact model
    (a point per table, at most one co-seated pair per class; table t holds no point below t,
    which orders the tables), where annealing and depth-first search stall: 44x12 in about a
    minute, 56x15 in about 8 (2 workers, load 5-10). Needs ``pip install ortools`` (not a
    dependency of the app: only this rebuild uses it); the solver's answer may differ from
    run to run, any answer is checked pair-disjoint before it is stored."""
    try:
        from ortools.sat.python import cp_model
    except ImportError:
        print("  developed designs need OR-Tools: .venv/bin/pip install ortools", file=sys.stderr)
        return None
    frame = _four_orbits(players, rounds)
    if frame is None:
        return None
    m, k, extra, of, banned = frame
    tables = players // 4
    model = cp_model.CpModel()
    seat = [[model.new_bool_var(f"x{p}_{t}") for t in range(min(p, tables - 1) + 1)]
            for p in range(players)]  # fmt: skip
    for p in range(players):
        model.add_exactly_one(seat[p])
    for t in range(tables):
        model.add(sum(seat[p][t] for p in range(t, players)) == 4)
    together: dict[int, list] = {}
    for p, q in combinations(range(players), 2):
        c = of[p][q]
        for t in range(min(p, q, tables - 1) + 1):
            if c < 0 or c in banned:
                model.add_bool_or([seat[p][t].negated(), seat[q][t].negated()])
                continue
            both = model.new_bool_var("")
            model.add_bool_and([seat[p][t], seat[q][t]]).only_enforce_if(both)
            model.add_bool_or([seat[p][t].negated(), seat[q][t].negated(), both])
            together.setdefault(c, []).append(both)
    for pairs in together.values():
        model.add_at_most_one(pairs)
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = seconds
    solver.parameters.num_workers = 2
    if solver.solve(model) not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None
    base = [[p for p in range(t, players) if solver.value(seat[p][t])] for t in range(tables)]
    return {"m": m, "orbits": k, "base": base, "extra": extra}


def transversal_cover(players: int, rounds: int, seed: int, seconds: float) -> dict | None:
    """The four-orbit form of ``developed`` (Z_m x 4, m = players / 4, transversals with
    shifts (0, t, 2t, 3t) for t < rounds - m), its base round found as an exact cover: each
    option a table of four whose six classes differ and none of which a transversal took;
    every point at one table (primary items), every class at most once (secondary). The
    options are tried in a seeded order by xcover (Knuth's dancing cells), one attempt of at
    most `seconds` in a child process (the solver cannot be interrupted otherwise), where
    CP-SAT ran out of time: 44x13 in 10-70 s."""
    if not _has_xcover():
        return None
    frame = _four_orbits(players, rounds)
    if frame is None:
        return None
    m, k, extra, of, banned = frame
    tables: list[tuple[int, ...]] = []
    options: list[list[int]] = []  # items: points 0..players-1, then class c at players + c
    for quad in combinations(range(players), 4):
        classes = [of[p][q] for p, q in combinations(quad, 2)]
        if min(classes) < 0 or len(set(classes)) < 6 or banned.intersection(classes):
            continue
        tables.append(quad)
        options.append([*quad, *(players + c for c in classes)])
    order = list(range(len(options)))
    random.Random(f"{players}:cover:{rounds}:{seed}").shuffle(order)
    secondary = sorted({i for o in options for i in o if i >= players})
    chosen = _first_cover([options[i] for i in order], players, secondary, seconds)
    if chosen is None:
        return None
    base = sorted(sorted(tables[order[i]]) for i in chosen)
    return {"m": m, "orbits": k, "base": base, "extra": extra}


def two_orbit_cover(players: int, seed: int, seconds: float) -> dict | None:
    """32x10, a 4-RGDD of type 2^16 (the social golfer problem 8-4-10): every player meets
    all but one partner. Points (a, b, i) of (Z_4 x Z_4) x {0, 1}, moved by G = Z_4 x Z_4.
    Eight rounds are the translates of a round that (2, 0) fixes, two the translates of a
    round that H = <(1, 0), (0, 2)> fixes, and the partners a matching that all of G fixes.
    Exact cover: an option is the orbit of a table under its round's subgroup (the partner
    matching's pairs count as tables of two); every point once in each of the three, every
    class of pairs (an orbit of G) exactly once. Forms that ran out with no cover (one base
    round over Z_10 x 3 + 2, Z_2^3 x 4 with two fixed rounds, Z_16 x 2 with this split,
    Z_5 x 6 + 2 with the second base round an image of the first) are in docs/seating.md."""
    if not _has_xcover():
        return None
    if players != 32:
        return None
    group = [(c, d) for c in range(4) for d in range(4)]

    def move(p: int, by: tuple[int, int]) -> int:
        i, rest = divmod(p, 16)
        return i * 16 + (rest // 4 + by[0]) % 4 * 4 + (rest + by[1]) % 4

    def subgroup(gens: list[tuple[int, int]]) -> list[tuple[int, int]]:
        out = {(0, 0)}
        for _ in range(16):
            out |= {((a + c) % 4, (b + d) % 4) for a, b in out for c, d in gens}
        return sorted(out)

    def pair(p: int, q: int) -> tuple[int, int]:
        return (p, q) if p < q else (q, p)

    def starts(fixing: list[tuple[int, int]]) -> list[tuple[int, int]]:
        """One element of each coset of `fixing`: the moves of a round it fixes."""
        cosets = {min(((a + c) % 4, (b + d) % 4) for c, d in fixing) for a, b in group}
        return sorted(cosets)

    classes = {pq: min(pair(move(pq[0], g), move(pq[1], g)) for g in group)
               for pq in combinations(range(32), 2)}  # fmt: skip
    class_item = {c: 3 * 32 + t for t, c in enumerate(sorted(set(classes.values())))}
    slots = [(subgroup([(2, 0)]), 4), (subgroup([(1, 0), (0, 2)]), 4), (group, 2)]
    options: list[list[int]] = []
    orbits: list[tuple[int, list[tuple[int, ...]]]] = []  # an option's slot and tables
    for s, (fixing, size) in enumerate(slots):
        moves = starts(fixing)
        seen: set[tuple[int, ...]] = set()
        for table in combinations(range(32), size):
            orbit = sorted({tuple(sorted(move(p, h) for p in table)) for h in fixing})
            if orbit[0] in seen:
                continue
            seen.add(orbit[0])
            points = [p for t in orbit for p in t]
            moved = [[move(p, g) for p in t] for g in moves for t in orbit]
            pairs = [pair(p, q) for t in moved for p, q in combinations(t, 2)]
            if len(set(points)) < len(points) or len(set(pairs)) < len(pairs):
                continue
            items = {class_item[classes[pq]] for pq in pairs}
            options.append([s * 32 + p for p in points] + sorted(items))
            orbits.append((s, orbit))
    order = list(range(len(options)))
    random.Random(f"{players}:two orbits:{seed}").shuffle(order)
    chosen = _first_cover([options[i] for i in order], 3 * 32 + len(class_item), [], seconds)
    if chosen is None:
        return None
    rounds = []
    for s, (fixing, _) in enumerate(slots[:2]):
        tables = [t for i in chosen if orbits[order[i]][0] == s for t in orbits[order[i]][1]]
        for g in starts(fixing):
            rounds.append(sorted(sorted(move(p, g) for p in t) for t in tables))
    return {"rounds": rounds}


def paired_triple(players: int, seed: int, seconds: float) -> dict | None:
    """A 4-RGDD of type 2^(players/2), each player meeting all but one partner (44x14):
    points (x, i) of Z_m x {0, 1, 2}, m = (players - 2) / 3 even, and inf_0, inf_1 (players
    3m, 3m + 1); partners {(x, i), (x + m/2, i)} and {inf_0, inf_1}; rounds the m translates
    of one base round. The base round is asked to be fixed by sigma: (x, i) -> (ux, i + 1)
    with u^3 = 1 mod m, u != 1 (the cut that found 36, 48 and 60 in ``triple``), so an option
    is a sigma orbit: three tables, or a table {inf_b, (a, 0), (ua, 1), (u^2 a, 2)} it fixes;
    moving each orbit by its own shift puts inf_0 with the three zeros. Exact cover: every
    point once and, the counts being equal, every class exactly once. 44 (u = 9): 377 nodes
    of dancing links; 32 (m = 10) has no such u, and its base round does not exist even
    without sigma (every case up to symmetry runs out)."""
    if not _has_xcover():
        return None
    m = (players - 2) // 3
    units = [u for u in range(2, m) if pow(u, 3, m) == 1] if m % 2 == 0 else []
    if players != 3 * m + 2 or not units:
        return None
    u = units[0]
    finite = _Classes(m, 3)
    top = 3 * m  # inf_b is player top + b; its class with orbit i is item players + count + 3b + i

    def sigma(table: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(sorted((p // m + 1) % 3 * m + u * (p % m) % m for p in table))

    def option(tables: list[tuple[int, ...]], inf: int | None) -> list[int] | None:
        points = [p for t in tables for p in t]
        classes = [finite.of[p][q] for t in tables for p, q in combinations(t, 2)]
        if len(set(points)) < len(points) or min(classes) < 0 or len(set(classes)) < len(classes):
            return None
        items = points + [players + c for c in classes]
        if inf is not None:
            items += [top + inf] + [players + finite.count + 3 * inf + p // m for p in points]
        return items

    options: list[list[int]] = []
    bases: list[tuple[list[tuple[int, ...]], int | None]] = []  # the option's tables, its inf
    fixed = [((0, m, 2 * m), 0)]
    fixed += [((a, m + u * a % m, 2 * m + u * u * a % m), 1) for a in range(1, m)]
    for table, inf in fixed:
        found = option([table], inf)
        if found is not None:
            options.append(found)
            bases.append(([table], inf))
    seen: set[tuple[int, ...]] = set()
    for quad in combinations(range(top), 4):
        tables = [quad, sigma(quad), sigma(sigma(quad))]
        if min(tables) in seen:
            continue
        seen.add(min(tables))
        found = option(tables, None)
        if found is not None:
            options.append(found)
            bases.append((tables, None))
    order = list(range(len(options)))
    random.Random(f"{players}:paired:{seed}").shuffle(order)
    chosen = _first_cover([options[i] for i in order], players + finite.count + 6, [], seconds)
    if chosen is None:
        return None
    picked = [bases[order[i]] for i in chosen]
    # stored_rounds seats inf_b at base table b: inf_0's table first, then inf_1's
    with_inf = sorted((inf, list(tables[0])) for tables, inf in picked if inf is not None)
    rest = sorted(list(t) for tables, inf in picked if inf is None for t in tables)
    return {"m": m, "orbits": 3, "base": [table for _, table in with_inf] + rest}


def _has_xcover() -> bool:
    try:
        import xcover  # noqa: F401
    except ImportError:
        print("  exact covers need xcover: .venv/bin/pip install xcover", file=sys.stderr)
        return False
    return True


def _first_cover(
    options: list[list[int]], primary: int, secondary: list[int], seconds: float
) -> list[int] | None:
    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)
    child = context.Process(target=_cover_child, args=(options, primary, secondary, send))
    child.start()
    found = receive.recv() if receive.poll(seconds) else None
    child.terminate()
    child.join()
    return found


def _cover_child(
    options: list[list[int]], primary: int, secondary: list[int], send: Connection
) -> None:
    from xcover import covers

    for solution in covers(options, primary=list(range(primary)), secondary=secondary):
        send.send([int(i) for i in solution])
        return
    send.send(None)


def pair_disjoint(rounds: list[list[list[int]]], players: int) -> bool:
    seen: set[tuple[int, int]] = set()
    for rnd in rounds:
        if sorted(p for t in rnd for p in t) != list(range(players)):
            return False
        for table in rnd:
            if len(table) != 4:
                return False
            for pair in combinations(sorted(table), 2):
                if pair in seen:
                    return False
                seen.add(pair)
    return True


def _first_found(
    players: int, attempts: int, build: Callable[[int], dict | None], what: str
) -> dict | None:
    """The first design `build(attempt)` returns, checked pair-disjoint; a line on stderr for
    each attempt that found none."""
    for attempt in range(attempts):
        entry = build(attempt)
        if entry is not None:
            assert pair_disjoint(stored_rounds(players, entry), players)
            return entry
        print(f"  {players}: {what}, attempt {attempt}: none", file=sys.stderr)
    return None


def find(players: int, rounds: int, attempts: int = ATTEMPTS, steps: int = STEPS) -> dict | None:
    m = (players - 1) // 3
    if players % 12 == 4 and m >= rounds:

        def rotational_entry(attempt: int) -> dict | None:
            blocks = rotational(m, f"{players}:rotational:{attempt}", ROTATIONAL_NODES)
            return None if blocks is None else {"m": m, "blocks": blocks}

        if entry := _first_found(players, attempts, rotational_entry, "rotational"):
            return entry
    t = players // 3 - 1
    if players % 12 == 0 and t >= rounds:

        def triple_entry(attempt: int) -> dict | None:
            base = triple(t, f"{players}:triple:{attempt}", TRIPLE_NODES)
            return None if base is None else {"m": t, "orbits": 3, "base": base}

        if entry := _first_found(players, attempts, triple_entry, "triple"):
            return entry
    if players == 32 and rounds <= 10:
        build = partial(two_orbit_cover, players, seconds=COVER_SECONDS)
        if entry := _first_found(players, COVER_ATTEMPTS, build, "two-orbit cover"):
            return entry
    if players % 12 == 8 and (players - 2) // 3 >= rounds:
        build = partial(paired_triple, players, seconds=COVER_SECONDS)
        if entry := _first_found(players, COVER_ATTEMPTS, build, "paired triple"):
            return entry
    # The most rounds first: each transversal round left out frees six classes.
    for r in range(rounds, players // 4, -1) if players % 4 == 0 else ():
        build = partial(transversal_cover, players, r, seconds=COVER_SECONDS)
        if entry := _first_found(players, COVER_ATTEMPTS, build, f"exact cover for {r} rounds"):
            return entry
        found = developed(players, r, DEVELOPED_SECONDS)
        if found is not None:
            assert pair_disjoint(stored_rounds(players, found), players)
            return found
        print(
            f"  {players}: no base round for {r} rounds in {DEVELOPED_SECONDS} s", file=sys.stderr
        )
    for shape in shapes(players, rounds)[:4]:
        build = partial(_searched, players, *shape, steps)
        if entry := _first_found(players, attempts, build, "m={} k={} f={}".format(*shape)):
            return entry
    return None


def _searched(players: int, m: int, k: int, f: int, steps: int, attempt: int) -> dict | None:
    base = search(players, m, k, f, f"{players}:{m}:{k}:{attempt}", steps)
    return None if base is None else {"m": m, "orbits": k, "base": base}


def main(argv: list[str] | None = None) -> int:

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", help="comma-separated field sizes (default: every gap)")
    parser.add_argument("--check", action="store_true", help="only check the stored designs")
    args = parser.parse_args(argv)
    stored = json.loads(DATA.read_text()) if DATA.exists() else {}
    if args.check:
        for key, entry in stored.items():
            n = int(key)
            ok = pair_disjoint(stored_rounds(n, entry), n)
            print(f"{n}: {round_count(entry)} rounds {'ok' if ok else 'BROKEN'}")
            if not ok:
                return 1
        return 0
    # Default: the fields the shipped file holds (its rebuild); --sizes for any other.
    sizes = (
        [int(s) for s in args.sizes.split(",")] if args.sizes else sorted(int(n) for n in stored)
    )
    for n in sizes:
        found = find(n, wanted(n))
        if found is None:
            print(f"{n}: no base round found for {wanted(n)} rounds", file=sys.stderr)
            continue
        print(f"{n}: {round_count(found)} rounds")
        stored[str(n)] = found
    DATA.write_text(
        "{\n"
        + ",\n".join(
            f'"{n}": {json.dumps(stored[n], separators=(",", ":"))}'
            for n in sorted(stored, key=int)
        )
        + "\n}\n"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
