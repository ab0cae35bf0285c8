"""Constructive designs: rounds in which no two players meet twice.

For n = 4m players split into four columns of m (player i*m + j is column i, row j), a
*transversal* round r seats at table t the players (i, t + r*x_i) for the four columns i,
with x_0..x_3 = 0, 1, 2, 3 in a ring R of order m. Two columns i, j meet at a table in
rounds r and r' only if (r - r') * (x_j - x_i) = 0 in R, so rounds are pair-disjoint when
every such product is nonzero:

- m a prime power q >= 4: R = GF(q), every nonzero product is nonzero: m rounds.
- otherwise R = Z_m: rounds 0..e-1 where e is the smallest e with m | d*e, d in {1, 2, 3}.

Players in one column never meet in transversal rounds, so when 4 | m each column is then
seated by the same construction recursively (all four columns in parallel). For n = 4^k this
is exactly the affine geometry AG(k, 4) with its (4^k - 1) / 3 parallel classes (16 players:
the affine plane of order 4, 5 rounds), and for n = 4q it is a resolvable transversal design.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from .core import Round

RoundBuilder = Callable[[], Round]


def _prime_power(m: int) -> tuple[int, int] | None:
    """(p, k) with m = p**k, or None."""
    if m < 2:
        return None
    p = next(d for d in range(2, m + 1) if m % d == 0)
    k = 0
    while m % p == 0:
        m //= p
        k += 1
    return (p, k) if m == 1 else None


class _Field:
    """GF(p**k) with elements encoded as integers whose base-p digits are coefficients."""

    def __init__(self, p: int, k: int) -> None:
        self.p, self.k, self.q = p, k, p**k
        self.modulus = self._irreducible()

    def _digits(self, a: int) -> list[int]:
        out = []
        for _ in range(self.k):
            a, d = divmod(a, self.p)
            out.append(d)
        return out

    def _number(self, digits: list[int]) -> int:
        return sum(d * self.p**i for i, d in enumerate(digits))

    def add(self, a: int, b: int) -> int:
        if self.p == 2:
            return a ^ b
        da, db = self._digits(a), self._digits(b)
        return self._number([(x + y) % self.p for x, y in zip(da, db, strict=True)])

    def _polymod(self, coeffs: list[int], modulus: list[int]) -> list[int]:
        """Remainder of a polynomial (low degree first) modulo a monic polynomial."""
        c = list(coeffs)
        deg = len(modulus) - 1
        for top in range(len(c) - 1, deg - 1, -1):
            f = c[top] % self.p
            if f:
                for i, m in enumerate(modulus):
                    c[top - deg + i] = (c[top - deg + i] - f * m) % self.p
        return [x % self.p for x in c[:deg]] + [0] * max(0, deg - len(c))

    def _irreducible(self) -> list[int]:
        """The first monic degree-k polynomial with no monic factor of degree 1..k/2."""
        p, k = self.p, self.k
        if k == 1:
            return [0, 1]
        for low in range(p**k):
            f = [(low // p**i) % p for i in range(k)] + [1]
            if all(
                any(self._polymod(f, [(g // p**i) % p for i in range(d)] + [1]))
                for d in range(1, k // 2 + 1)
                for g in range(p**d)
            ):
                return f
        raise AssertionError("an irreducible polynomial always exists")

    def mul(self, a: int, b: int) -> int:
        da, db = self._digits(a), self._digits(b)
        prod = [0] * (2 * self.k - 1)
        for i, x in enumerate(da):
            if x:
                for j, y in enumerate(db):
                    prod[i + j] += x * y
        return self._number(self._polymod(prod, self.modulus))


@dataclass
class Design:
    """Pair-disjoint rounds for `players`; the first `transversal` never pair column-mates."""

    players: int
    columns: int  # players per column (m); column i holds i*m .. i*m + m - 1
    rounds: list[RoundBuilder]
    transversal: int


def _transversal_rounds(m: int, size: int = 4) -> list[RoundBuilder]:
    pp = _prime_power(m)
    if pp is not None and m >= size and pp[1] > 1:
        field = _Field(*pp)
        add, mul, count = field.add, field.mul, m
    else:

        def add(a: int, b: int) -> int:
            return (a + b) % m

        def mul(a: int, b: int) -> int:
            return a * b % m

        count = min(m // _gcd(m, d) for d in range(1, size))

    def build(r: int) -> RoundBuilder:
        def make() -> Round:
            shifts = [mul(r, x) for x in range(size)]
            return [[i * m + add(t, shifts[i]) for i in range(size)] for t in range(m)]

        return make

    return [build(r) for r in range(count)]


def _gcd(a: int, b: int) -> int:
    while b:
        a, b = b, a % b
    return a


def _column_rounds(m: int, sub: RoundBuilder, size: int = 4) -> RoundBuilder:
    """Seat the columns side by side, each with the same sub-design round."""

    def make() -> Round:
        inner = sub()
        return [[i * m + p for p in table] for i in range(size) for table in inner]

    return make


# Small fields where the transversal construction falls short of the social golfer bound
# floor((n - 1) / 3): a *base round* over Z_m (points (x, i) of `orbits` orbits of m, plus
# fixed points inf_0, inf_1, ...) whose translates by 0..m-1 are m pair-disjoint rounds. The
# base round partitions the points; inf_b sits at base table b with one point of each orbit
# (so it meets every orbit point exactly once), and every difference x - y of two points at
# one table, per ordered pair of orbits, occurs at most once (so no pair meets twice). Found
# once by a depth-first search for such difference families and checked by the tests:
#   24 players: Z_7, 3 orbits + 3 fixed points -> 7 rounds (the bound for 24: 6-4-7);
#   28 players: Z_9, 3 orbits + 1 fixed point  -> 9 rounds, a resolvable 2-(28,4,1) design
#               (every pair meets exactly once; 1-rotational, as for Kirkman-type designs);
# (36 players: the shipped 4-RGDD of type 3^12 below, 11 rounds, replaced Z_10 + 6 fixed.)
Point = tuple[int, int]  # (x in Z_m, orbit)
CYCLIC: dict[int, tuple[int, int, tuple[tuple[Point, ...], ...]]] = {
    # players: (m, orbits, base tables; the first `fixed` tables also hold inf_0, inf_1, ...)
    24: (
        7,
        3,
        (
            ((4, 0), (5, 1), (3, 2)),
            ((5, 0), (0, 1), (0, 2)),
            ((2, 0), (1, 1), (2, 2)),
            ((6, 0), (3, 1), (4, 1), (6, 1)),
            ((0, 0), (1, 0), (3, 0), (4, 2)),
            ((2, 1), (1, 2), (5, 2), (6, 2)),
        ),
    ),
    28: (
        9,
        3,
        (
            ((1, 0), (2, 1), (3, 2)),
            ((5, 0), (6, 0), (1, 1), (3, 1)),
            ((3, 0), (8, 0), (2, 2), (4, 2)),
            ((0, 0), (2, 0), (0, 2), (6, 2)),
            ((4, 0), (7, 0), (6, 1), (7, 1)),
            ((5, 1), (8, 1), (1, 2), (5, 2)),
            ((0, 1), (4, 1), (7, 2), (8, 2)),
        ),
    ),
}


def _cyclic_rounds(players: int) -> list[RoundBuilder]:
    m, orbits, base = CYCLIC[players]
    fixed = players - m * orbits

    def build(g: int) -> RoundBuilder:
        def make() -> Round:
            out = []
            for b, table in enumerate(base):
                seats = [i * m + (x + g) % m for x, i in table]
                if b < fixed:
                    seats.append(orbits * m + b)
                out.append(seats)
            return out

        return make

    return [build(g) for g in range(m)]


# Base rounds found offline by ``build_designs.py`` (``python -m tournaments.seating.build_designs``
# rebuilds the file; the tests check every stored design pair-disjoint):
#   "orbits": k orbits of Z_m plus fixed points, as CYCLIC above ({"m", "orbits", "base"}:
#             base tables of orbit points i*m + x; the first ones also hold fixed point b);
#             With three orbits and three fixed points (n = 12k) ``build_designs.triple``
#             finds them invariant under (x, i) -> (x, i + 1): a 4-RGDD of type 3^(n/3),
#             (n - 3) / 3 rounds in which only the groups {(x,0),(x,1),(x,2)} and the fixed
#             points never meet (36: 11, 48: 15, 60: 19 rounds);
#   "rotational": a 1-rotational resolvable 2-(3m+1, 4, 1) design over Z_3m + {inf}
#             ({"m", "blocks"}: round g holds {inf, g, g+m, g+2m} and B + j*m + g for each
#             block B and j = 0, 1, 2); every pair meets exactly once over its m rounds.
#   "extra":  with "orbits" and no fixed points, whole rounds after the m translates, each
#             fixed by every translate (table {(x, 0), (x + a, 1), ..} for every x, say): they
#             cover whole difference classes, which the base round then leaves out, so m rounds
#             are not the limit (32 players: Z_8, 8 + 2 rounds; 44: Z_11, 11 + 3; 56: Z_14,
#             14 + 1).
DATA = Path(__file__).with_name("designs.json")


@cache
def stored() -> dict[int, dict]:
    return {int(n): entry for n, entry in json.loads(DATA.read_text()).items()}


def stored_rounds(players: int, entry: dict) -> list[Round]:
    if "rounds" in entry:  # listed whole: a design not developed from one base round
        return [[list(t) for t in rnd] for rnd in entry["rounds"]]
    m = entry["m"]
    out: list[Round] = []
    if "blocks" in entry:
        big = 3 * m
        for g in range(m):
            rnd = [[big, g, g + m, g + 2 * m]]
            for block in entry["blocks"]:
                for j in range(3):
                    rnd.append([(x + j * m + g) % big for x in block])
            out.append(rnd)
        return out
    k = entry["orbits"]
    fixed = players - k * m
    for g in range(m):
        rnd = []
        for b, table in enumerate(entry["base"]):
            seats = [(p // m) * m + (p % m + g) % m for p in table]
            if b < fixed:
                seats.append(k * m + b)
            rnd.append(seats)
        out.append(rnd)
    out.extend([list(t) for t in rnd] for rnd in entry.get("extra", ()))
    return out


def round_count(entry: dict) -> int:
    if "rounds" in entry:
        return len(entry["rounds"])
    return entry["m"] + len(entry.get("extra", ()))


def _stored_builders(players: int) -> list[RoundBuilder]:
    def builder(rnd: Round) -> RoundBuilder:
        return lambda: [list(t) for t in rnd]

    return [builder(rnd) for rnd in stored_rounds(players, stored()[players])]


def design(
    players: int, size: int = 4, *, use_data: bool = True, needed: int | None = None
) -> Design:
    """The largest pair-disjoint set of rounds this module can build for `players` at tables
    of `size` (4, or 3 under three-player rules; size | players). Tables of three use three
    columns and shifts 0, 1, 2 (m rounds for odd m, m/2 for even m over Z_m). Given the
    rounds a plan `needed`, a stored design replaces the construction only past its rounds:
    the construction's columns keep groups apart, and at 44x6-11 it revisits fewer tables
    (grid: 100 against 202 revisits) with as many shared opponents."""
    m = players // size
    rounds = _transversal_rounds(m, size)
    transversal = len(rounds)
    if m % size == 0 and m >= size:
        rounds += [_column_rounds(m, sub, size) for sub in design(m, size).rounds]
    best = Design(players=players, columns=m, rounds=rounds, transversal=transversal)
    # No column structure in the others: groups are kept apart by the search (generate_plan).
    if size == 4 and players in CYCLIC and CYCLIC[players][0] > len(best.rounds):
        best = Design(players, m, _cyclic_rounds(players), transversal=0)
    if (
        size == 4
        and use_data
        and players in stored()
        and round_count(stored()[players]) > len(best.rounds)
        and (needed is None or needed > len(best.rounds))
    ):
        best = Design(players, m, _stored_builders(players), transversal=0)
    return best
