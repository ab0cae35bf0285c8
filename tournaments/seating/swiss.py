"""Swiss seating: the next session from current standings (docs/seating.md).

``swiss_session`` works on player ids, so the history may hold players who have left and the
session players never seated before. It minimises, over all tables of the session,

    sum of  GROUP        * pairs of one group (club, country, team; substitutes)      hard
          + BACK_TO_BACK * pairs who shared a table in the previous session           hard
          + n + 8        * 1 if its players cannot take winds keeping spreads <= 2     hard
          + END          * 1 if they cannot take winds from which every player's spread
                           can still end <= 1 by the last session (session count known)
          + REPEAT       * earlier meetings of its pairs (14)
          + WIND         * 1 if its players cannot take winds keeping spreads <= 1 now (1)
          + rank spread  (worst minus best competition rank before the session)

"Hard" weights exceed any table's rank spread (< n), so only the impossible keeps them. END is
hard (n + 8) unless that costs more than END_TOLERANCE ranks of spread per table against the
same search with END = WIND_END (then soft): with 1000 players and 12 sessions the last
session would have to give every player one particular wind. The search is a beam sweep in
standing order (players join open tables) followed by simulated annealing over swaps of two
players between tables, with a fixed number of iterations (with groups, the last LATE_SESSIONS
sessions anneal longer and hotter): the same request and seed give the same tables on any
machine under any load (there is no clock in it).

Small fields (up to SMALL_FIELD players) while a zero-repeat event up to the bound
(n - 1) / 3 is still possible: the cheapest round after which it stays possible (a
node-bounded exact search, ``_exact_round``). When the event ends inside that design, the
round is chosen among the AHEAD_ROUNDS cheapest by own cost plus the spread expected over the
sessions left in simulated futures (``_look_ahead``, counted in futures and nodes).
"""

from __future__ import annotations

import contextlib
import math
import random
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from itertools import combinations, permutations
from typing import Any

from .core import SeatingError, check_player_count

Id = Any  # a player id: any hashable (the command passes JSON integers and strings)

REPEAT = 14  # one earlier meeting at a table costs as much as 14 ranks of spread
WIND = 1  # a player's wind spread reaching 2 (soft: winds trade against standing)
# Winds that can no longer end balanced (spread <= 1) by the last session: hard, unless the
# hard rule costs more than END_TOLERANCE ranks of spread per table; then WIND_END.
WIND_END = 1
END_TOLERANCE = 12
# A wind spread of 3 costs n + 8, a back-to-back pair 4k(n + 8), a pair of one group 16k(n + 8):
# each above any table's rank spread (< n), so only the impossible keeps them.
ITERATIONS_PER_PLAYER = 200  # annealing moves per player (at least MIN_ITERATIONS)
MIN_ITERATIONS = 20_000
# The probe (sessions left seated on today's standings) only asks whether a later session
# would give the balanced end up: a quarter of the moves (at least MIN_ITERATIONS), so a
# 1000-player session that probes costs about 4 searches instead of 6.
PROBE_SHARE = 4
SWEEP_BEAM = 24  # states kept per player by the sweep that builds the first tables
MAX_OPEN = 6  # tables open at once in the sweep
LOOK = 1  # sweep: estimated cost of each seat an open table still has to fill
SMALL_FIELD = 20  # up to this many players, look ahead to the end of a zero-repeat event
EXACT_NODES = 300_000  # node budget of that exact search
WIND_PLAN_NODES = 4_000  # node budget of the wind plan of one round and its completions
WIND_PLAN_ROUNDS = 16  # rounds tried at most (then the round is chosen without the plan)
# Small fields ending inside the design: the next round is chosen among the AHEAD_ROUNDS
# cheapest by its own cost plus the mean spread of the sessions left over AHEAD_FUTURES
# simulated futures (``_play``), each later session taking its cheapest possible round.
AHEAD_ROUNDS = 48
AHEAD_FUTURES = 200
AHEAD_NODES = 200_000  # node budget of the completions of all candidates
AHEAD_RAW = 12_000  # result model: raw score = 25000 + AHEAD_RAW x N(0, 1), places by raw
AHEAD_UMA = (15_000, 5_000, -5_000, -15_000)
FOCUS = 0.8  # share of moves that start from a table above the floor cost
T_START = 1.0  # annealing temperature at the start (in ranks of spread)
# Groups, last sessions: where groups shrink the pool of possible opponents, the last
# LATE_SESSIONS sessions (most of the event's repeats) anneal LATE_ITERATIONS moves from
# LATE_T, hot enough to trade one repeat (REPEAT) for another arrangement; fields up to
# LATE_FIELD players (1000 players keep their budget).
LATE_SESSIONS = 3
LATE_ITERATIONS = 300_000
LATE_T = 4.0
LATE_FIELD = 200


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


def _need(counts: Sequence[int]) -> int:
    """Sessions a player needs at least before their wind spread can be <= 1: each wind below
    (most used - 1) must catch up."""
    top = max(counts) - 1
    return sum(max(0, top - c) for c in counts)


def _reachable(counts: Sequence[int], horizon: int | None) -> int:
    """Winds (bit w) after which `horizon` more sessions can still bring the player's wind
    spread to <= 1 (all winds when the session count is unknown); when none can, those that
    come closest."""
    k = len(counts)
    if horizon is None:
        return (1 << k) - 1
    needs = []
    for w in range(k):
        after = list(counts)
        after[w] += 1
        needs.append(_need(after))
    limit = max(horizon, min(needs))
    return sum(1 << w for w in range(k) if needs[w] <= limit)


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


def seat_order(
    table: Sequence[Id], counts: Mapping[Id, Sequence[int]], horizon: int | None = None
) -> list[Id]:
    """Seat order (East first) for one table given each player's wind counts so far: no wind
    spread above 2 where possible, then fewest players who could no longer reach a spread
    <= 1 in the `horizon` sessions after this one (when the session count is known), then
    least total excess spread, then the least-used winds, then the given order."""
    k = len(table)
    best: tuple[tuple[int, int, int, int], list[Id]] | None = None
    zero = [0] * k
    for perm in permutations(range(k)):  # perm[i] = wind of table[i]
        wide = late = spread = used = 0
        for p, w in zip(table, perm, strict=True):
            c = list(counts.get(p, zero))
            c[w] += 1
            wide += max(0, max(c) - min(c) - 2)
            if horizon is not None:
                late += _need(c) > horizon
            spread += max(0, max(c) - min(c) - 1)
            used += c[w] * c[w]
        key = (wide, late, spread, used)
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
        end: list[int],
        wind: int,
        wind2: int,
        wind_end: int,
    ) -> None:
        self.n, self.k, self.pos, self.weight, self.wind = n, k, pos, weight, wind
        self.masks, self.loose, self.end = masks, loose, end
        self.wind2, self.wind_end = wind2, wind_end

    def _wind(self, t: Sequence[int]) -> int:
        """Wind penalty of a table whose players cannot take distinct winds from `masks`."""
        lo, end = self.loose, self.end
        top = 0 if self.k == 4 else 1 << 16
        loose_key = end_key = top
        for i, q in enumerate(t):
            loose_key |= lo[q] << (4 * i)
            end_key |= end[q] << (4 * i)
        x = self.wind
        if not _feasible_key(end_key):
            x += self.wind_end
        if not _feasible_key(loose_key):
            x += self.wind2
        return x

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
                x += self._wind(t)
            return x
        a, b, c = t
        x = w[a][b] + w[a][c] + w[b][c]
        pa, pb, pc = pos[a], pos[b], pos[c]
        x += max(pa, pb, pc) - min(pa, pb, pc)
        key = masks[a] | masks[b] << 4 | masks[c] << 8 | 1 << 16
        if self.wind and not _feasible_key(key):
            x += self._wind(t)
        return x


def _anneal(
    s: _Session,
    tables: list[list[int]],
    rng: random.Random,
    iterations: int,
    t_start: float = T_START,
) -> None:
    """Simulated annealing over swaps between tables near each other in standing order,
    from temperature `t_start` (ranks of spread) down to 0.05."""
    m, k = len(tables), s.k
    if m < 2:
        return
    costs = [s.cost(t) for t in tables]
    total = best_total = sum(costs)
    best = [list(t) for t in tables]
    t0, t1 = t_start, 0.05
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
    sessions: int | None = None,
    _end_kept: list[bool] | None = None,
) -> list[list[Id]]:
    """Seat the next session: tables (seat order East, South, West[, North]) of `players`,
    leaders' table first. `points` are totals before this session (missing: 0);
    `history` lists earlier sessions' tables of ids (any ids; dropped players are ignored);
    players in one `groups` label are kept apart where possible (a hard rule: the search
    gives up any amount of standing and repeats first). `sessions`, the event's session count
    when known, makes a wind spread <= 1 at the end a hard rule (see docs/seating.md)."""
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
    # Winds each player may take: `loose` (hard) keeps the wind spread <= 2 and, when the
    # session count is known, a spread <= 1 reachable by the last session; `masks` (soft, WIND
    # per table) also keeps it <= 1 now.
    horizon = None if sessions is None else max(0, sessions - len(history) - 1)
    loose, end, masks = [], [], []
    for p in players:
        c = counts.get(p, zero)
        spread2 = _allowed(c, 2)
        finish = _reachable(c, horizon) & spread2 or spread2
        loose.append(spread2)
        end.append(finish)
        masks.append(_allowed(c) & finish or finish)
    pos = competition_ranks(players, points)
    rng = random.Random(seed)
    tiebreak = list(range(n))
    rng.shuffle(tiebreak)
    order = sorted(range(n), key=lambda i: (pos[i], tiebreak[i]))
    # The end of the event binds once some player's winds are limited by it: the session is
    # then searched with a balanced end as a hard rule and with it soft, and the hard one is
    # kept unless it costs more than END_TOLERANCE ranks of spread per table.
    binding = any(e != lo for e, lo in zip(end, loose, strict=True))

    def session(wind_end: int) -> _Session:
        return _Session(
            n=n,
            k=k,
            pos=pos,
            weight=weight,
            masks=masks,
            loose=loose,
            end=end,
            wind=WIND,
            wind2=n + 8,
            wind_end=wind_end,
        )

    s = session(n + 8 if binding else 0)
    tables: list[list[int]] | None = None
    bound = (n - 1) // (k - 1)  # rounds in which nobody need meet anyone twice
    if n <= SMALL_FIELD and len(history) < bound:
        # Small fields: only a round after which the rest of a zero-repeat event (up to the
        # bound) stays possible; the exact search is bounded by a node count.
        unmet = [sum(1 << q for q in range(n) if q != p and not weight[p][q]) for p in range(n)]
        ahead = bound - len(history) - 1
        plan = None
        if sessions is not None and sessions <= bound and len(history) < sessions - 1:
            # The event ends inside the design: the round is taken only if it and some
            # zero-repeat completion to the last session can seat everyone so that every
            # wind spread ends <= 1 (the completions are few: 16 players, 12 after session 2).
            plan = _WindPlan(
                k=k,
                counts=[list(counts.get(p, zero)) for p in players],
                left=sessions - len(history) - 1,
            )
            tables = _exact_round(s, order, unmet, ahead, EXACT_NODES, plan)
            if tables is not None and AHEAD_ROUNDS:
                # Sessions left after this one: of the cheapest rounds, the one with the
                # least spread expected over the rest of the event (None: keep this one).
                plan.tries = WIND_PLAN_ROUNDS
                tables = (
                    _look_ahead(
                        s,
                        order,
                        unmet,
                        ahead,
                        left=sessions - len(history) - 1,
                        points=[float(points.get(p, 0.0)) for p in players],
                        rng=random.Random(f"{seed}:ahead:{len(history)}"),
                        plan=plan,
                    )
                    or tables
                )
            if tables is not None:
                planned = {tuple(sorted(t)): t for t in plan.seats}
                tables = [list(planned[tuple(sorted(t))]) for t in tables]
                return _seated(tables, players, counts, horizon, pos, tiebreak, fixed=True)
        if plan is None or plan.tries < WIND_PLAN_ROUNDS:
            # (a search that never asked the plan finds no zero-repeat round without it either)
            tables = _exact_round(s, order, unmet, ahead, EXACT_NODES)
    if tables is None:
        budget = max(MIN_ITERATIONS, ITERATIONS_PER_PLAYER * n)
        hot = T_START
        if iterations is not None:
            budget = iterations
        elif (
            by_group
            and n <= LATE_FIELD
            and horizon is not None
            and horizon < LATE_SESSIONS
            and any(len(members) > 1 for members in by_group.values())
        ):
            # Groups shrink everyone's pool of opponents: the last sessions hold most of the
            # repeats, and a longer, hotter search trades them (docs/seating.md, "Groups").
            budget = max(budget, LATE_ITERATIONS)
            hot = LATE_T
        tables = _sweep(s, order, SWEEP_BEAM)
        _anneal(s, tables, rng, budget, hot)
        if binding:
            soft = session(WIND_END)
            other = _sweep(soft, order, SWEEP_BEAM)
            _anneal(soft, other, random.Random(f"{seed}:soft"), budget, hot)
            hard_cost = sum(soft.cost(t) for t in tables)
            soft_cost = sum(soft.cost(t) for t in other)
            keep = hard_cost <= soft_cost + END_TOLERANCE * len(tables)
            if keep and horizon:
                # Balanced winds pay off only if the last session keeps the rule too: seat the
                # sessions left on today's standings (a probe) and give the rule up now if a
                # later session would.
                probe_round = _seated(tables, players, counts, horizon, pos, tiebreak)
                verdict: list[bool] = []
                swiss_session(
                    players=players,
                    points=points,
                    history=[*history, probe_round],
                    seed=seed,
                    groups=groups,
                    table_size=table_size,
                    iterations=max(MIN_ITERATIONS, budget // PROBE_SHARE),
                    sessions=sessions,
                    _end_kept=verdict,
                )
                keep = all(verdict)
            if _end_kept is not None:
                _end_kept.append(keep)
            if not keep:
                tables = other
    return _seated(tables, players, counts, horizon, pos, tiebreak)


def _seated(
    tables: list[list[int]],
    players: Sequence[Id],
    counts: Mapping[Id, Sequence[int]],
    horizon: int | None,
    pos: list[int],
    tiebreak: list[int],
    fixed: bool = False,
) -> list[list[Id]]:
    """Tables of indices as ids in seat order, leaders' table first (`fixed`: the tables are
    already in seat order)."""
    tables = sorted(tables, key=lambda t: (min(pos[p] for p in t), min(tiebreak[p] for p in t)))
    if fixed:
        return [[players[i] for i in t] for t in tables]
    zero = [0] * len(tables[0])
    by_id = {players[i]: counts.get(players[i], zero) for t in tables for i in t}
    return [seat_order([players[i] for i in t], by_id, horizon) for t in tables]


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
    """Sets of `size` players from bitmask `cands` who may all still meet each other (lowest
    first, each set in increasing order)."""
    out: list[list[int]] = []
    if size == 3:  # tables of four: the hot path of the exact searches, as loops
        pa = cands
        while pa:
            low = pa & -pa
            pa ^= low
            a = low.bit_length() - 1
            pb = pa & unmet[a]
            while pb:
                low = pb & -pb
                pb ^= low
                b = low.bit_length() - 1
                pc = pb & unmet[b]
                while pc:
                    low = pc & -pc
                    pc ^= low
                    out.append([a, b, low.bit_length() - 1])
        return out

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
    meeting twice, given `unmet[p]` (bitmask of those p has not met): the first of
    `_completions`, found in the same order and with the same `budget[0]` of nodes (raises
    _Budget)."""
    return next(_completions(n, k, unmet, rounds, budget), None) is not None


def _exact_round(
    s: _Session,
    order: list[int],
    unmet: list[int],
    ahead: int,
    nodes: int,
    plan: _WindPlan | None = None,
) -> list[list[int]] | None:
    """The cheapest round with no repeat after which `ahead` more rounds without repeats
    remain possible (branch and bound over tables in standing order), or None. With `plan`,
    only a round that `plan.feasible` accepts (its seats are then in `plan.seats`). Past
    `nodes`, the cheapest found so far."""
    found: list[tuple[int, list[list[int]]]] = []
    accept = None if plan is None else (lambda tables: plan.feasible(tables, unmet))
    with contextlib.suppress(_Budget):
        _cheapest_rounds(s, order, unmet, ahead, nodes, 1, found, accept)
    return found[0][1] if found else None


def _cheapest_rounds(
    s: _Session,
    order: list[int],
    unmet: list[int],
    ahead: int,
    nodes: int,
    count: int,
    found: list[tuple[int, list[list[int]]]],
    accept: Callable[[list[list[int]]], bool] | None = None,
) -> None:
    """Fill `found` with the `count` cheapest rounds with no repeat after which `ahead` more
    rounds without repeats remain possible (and that `accept` takes), cheapest first, with
    their costs: branch and bound over tables in standing order. Raises _Budget past `nodes`,
    `found` then holding the best so far."""
    n, k = s.n, s.k
    budget = [nodes]
    rank_of = {p: i for i, p in enumerate(order)}

    def worst() -> float:
        return found[-1][0] if len(found) >= count else math.inf

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
            if extendable(n, k, after, ahead, budget) and (accept is None or accept(tables)):
                found.append((cost, [list(t) for t in tables]))
                found.sort(key=lambda x: x[0])  # stable: the first found first among equals
                del found[count:]
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
            if cost + c + (tables_left - 1) * (k - 1) >= worst():
                break
            mask = sum(1 << q for q in table)
            tables.append(table)
            place(free & ~mask, tables, cost + c)
            tables.pop()

    place((1 << n) - 1, [], 0)


def _completions(n: int, k: int, unmet: list[int], rounds: int, budget: list[int]) -> Any:
    """Every sequence of `rounds` rounds with no pair meeting twice (a generator, lowest free
    player first; `budget[0]` nodes at most, raises _Budget)."""
    if rounds <= 0:
        yield []
        return
    full = (1 << n) - 1

    def fill(free: int, left: list[int], tables: list[list[int]]) -> Any:
        budget[0] -= 1
        if budget[0] < 0:
            raise _Budget
        if not free:
            for rest in _completions(n, k, left, rounds - 1, budget):
                yield [[list(t) for t in tables], *rest]
            return
        low = free & -free
        p = low.bit_length() - 1
        for others in _cliques(left[p] & free & ~low, k - 1, left):
            table = [p, *others]
            mask = low
            for q in others:
                mask |= 1 << q
            keep = ~mask
            after = list(left)
            for q in table:
                after[q] &= keep
            tables.append(table)
            yield from fill(free & ~mask, after, tables)
            tables.pop()

    yield from fill(full, unmet, [])


class _WindPlan:
    """Seat winds over a round and the rounds left to the last session so that every
    player's wind spread (most minus least used) ends <= 1 and never exceeds 2 on the way.

    `counts[i]`: player i's winds so far; `left`: sessions after this one. ``feasible``
    looks for a zero-repeat completion of the round whose tables can all take seat orders
    meeting that (depth-first over tables, each player only taking winds from which the
    sessions left can still balance them); the round's seat orders are kept in `seats`.
    Bounded by counts, no clock: WIND_PLAN_NODES per round, WIND_PLAN_ROUNDS rounds."""

    def __init__(self, *, k: int, counts: list[list[int]], left: int) -> None:
        self.k, self.counts, self.left = k, counts, left
        self.seats: list[list[int]] = []
        self.tries = WIND_PLAN_ROUNDS

    def feasible(self, tables: list[list[int]], unmet: list[int]) -> bool:
        n, k = len(self.counts), self.k
        after = list(unmet)
        for t in tables:
            mask = sum(1 << q for q in t)
            for q in t:
                after[q] &= ~mask
        self.tries -= 1
        if self.tries < 0:
            raise _Budget  # ends the exact search: the round is then chosen without a plan
        budget = [WIND_PLAN_NODES]
        try:
            for rest in _completions(n, k, after, self.left, budget):
                seats = self._assign([tables, *rest], budget)
                if seats is not None:
                    self.seats = seats[: len(tables)]
                    return True
        except _Budget:
            return False
        return False

    def _assign(self, rounds: list[list[list[int]]], budget: list[int]) -> list[list[int]] | None:
        """Seat orders (players by wind) for every table of `rounds`, or None. A player ends
        with spread <= 1 only if no wind passes ceil(total / k); after each table, every
        later table of its players must still be able to take distinct such winds."""
        k = self.k
        counts = [list(c) for c in self.counts]
        flat = [(r, t) for r, rnd in enumerate(rounds) for t in rnd]
        total = len(rounds) - 1  # sessions after the first of `rounds`
        hi = [-(-(sum(c) + len(rounds)) // k) for c in counts]
        later: dict[int, list[int]] = {}
        for i, (_, table) in enumerate(flat):
            for q in table:
                later.setdefault(q, []).append(i)
        seats: list[list[int]] = []

        def allowed(q: int, left: int) -> int:
            c = counts[q]
            out = 0
            for w in range(k):
                if c[w] >= hi[q]:
                    continue
                c[w] += 1
                if max(c) - min(c) <= 2 and _need(c) <= left:
                    out |= 1 << w
                c[w] -= 1
            return out

        def open_(q: int) -> int:
            return sum(1 << w for w in range(k) if counts[q][w] < hi[q])

        def go(i: int) -> bool:
            budget[0] -= 1
            if budget[0] < 0:
                raise _Budget
            if i == len(flat):
                return True
            r, table = flat[i]
            left = total - r  # sessions after round r
            masks = tuple(allowed(q, left) for q in table)
            options = sorted(
                _perms_for(masks),
                key=lambda perm: sum(counts[q][w] for q, w in zip(table, perm, strict=True)),
            )
            for perm in options:
                for q, w in zip(table, perm, strict=True):
                    counts[q][w] += 1
                ahead = {j for q in table for j in later[q] if j > i}
                if all(_feasible(tuple(open_(q) for q in flat[j][1])) for j in ahead):
                    order = [0] * len(table)
                    for q, w in zip(table, perm, strict=True):
                        order[w] = q
                    seats.append(order)
                    if go(i + 1):
                        return True
                    seats.pop()
                for q, w in zip(table, perm, strict=True):
                    counts[q][w] -= 1
            return False

        return seats if go(0) else None


@lru_cache(maxsize=1 << 16)
def _perms_for(masks: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Wind orders (perm[i] = wind of player i) giving each player a wind from its mask."""
    return tuple(
        perm
        for perm in permutations(range(len(masks)))
        if all(m >> w & 1 for m, w in zip(masks, perm, strict=True))
    )


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
        x = wind
        if not _partial(k, tuple(sorted(s.end[q] for q in t))):
            x += s.wind_end
        if not _partial(k, tuple(sorted(s.loose[q] for q in t))):
            x += s.wind2
        return x

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


def _best_rounds(
    s: _Session, order: list[int], unmet: list[int], ahead: int, nodes: int, count: int
) -> list[tuple[int, list[list[int]]]]:
    """The `count` cheapest rounds with no repeat after which `ahead` more rounds without
    repeats remain possible, cheapest first, with their costs (raises _Budget past `nodes`)."""
    found: list[tuple[int, list[list[int]]]] = []
    _cheapest_rounds(s, order, unmet, ahead, nodes, count, found)
    return found


def _tree(finishes: Any) -> list[tuple[list[list[int]], Any]]:
    """Completions (sequences of rounds) as a tree: the distinct first rounds, in the order
    found, each with the tree of what can follow it."""
    firsts: dict[frozenset[frozenset[int]], tuple[list[list[int]], list[Any]]] = {}
    for seq in finishes:
        if not seq:
            continue
        key = frozenset(frozenset(t) for t in seq[0])
        firsts.setdefault(key, (seq[0], []))[1].append(seq[1:])
    return [(rnd, _tree(rest)) for rnd, rest in firsts.values()]


def _spread(tables: Sequence[Sequence[int]], rank: list[int]) -> int:
    """Sum over tables of worst minus best rank: the figure the look-ahead minimises."""
    return sum(max(rank[q] for q in t) - min(rank[q] for q in t) for t in tables)


def _ranks(points: list[float]) -> list[int]:
    """0-based competition ranks of player indices by points (ties share the best)."""
    order = sorted(range(len(points)), key=lambda i: -points[i])
    rank = [0] * len(points)
    for place, i in enumerate(order):
        if place and points[order[place - 1]] == points[i]:
            rank[i] = rank[order[place - 1]]
        else:
            rank[i] = place
    return rank


def _play(tables: Sequence[Sequence[int]], points: list[float], draw: list[float]) -> None:
    """The look-ahead's result model (generic, not the benchmark's): each player's raw score
    is 25000 + AHEAD_RAW x draw, the table finishes in raw order and uma is paid by place."""
    for t in tables:
        for place, q in enumerate(sorted(t, key=lambda q: -draw[q])):
            points[q] += AHEAD_RAW * draw[q] + AHEAD_UMA[min(place, len(AHEAD_UMA) - 1)]


def _look_ahead(
    s: _Session,
    order: list[int],
    unmet: list[int],
    ahead: int,
    *,
    left: int,
    points: list[float],
    rng: random.Random,
    plan: _WindPlan | None,
) -> list[list[int]] | None:
    """Of the AHEAD_ROUNDS cheapest rounds (``_best_rounds``), the one with the least own cost
    plus mean future spread: for each, every zero-repeat completion of the `left` sessions
    after it is listed; in each of AHEAD_FUTURES simulated futures (the same draws for every
    candidate) each later session takes, of the rounds some remaining completion starts
    with, the one with the least spread at the simulated standings. With `plan`, the best
    round the wind plan accepts. None when a budget runs out or no candidate fits (the
    caller then takes ``_exact_round``). Counted in nodes and futures, no clock."""
    n, k = s.n, s.k
    try:
        candidates = _best_rounds(s, order, unmet, ahead, AHEAD_NODES, AHEAD_ROUNDS)
    except _Budget:
        return None
    if not candidates:
        return None
    budget = [AHEAD_NODES]
    futures = [
        [[rng.gauss(0.0, 1.0) for _ in range(n)] for _ in range(left + 1)]
        for _ in range(AHEAD_FUTURES)
    ]
    scored = []
    for index, (cost, tables) in enumerate(candidates):
        after = list(unmet)
        for t in tables:
            mask = sum(1 << q for q in t)
            for q in t:
                after[q] &= ~mask
        try:
            tree = _tree(_completions(n, k, after, left, budget))
        except _Budget:
            return None
        if not tree:
            continue
        total = 0
        for draws in futures:
            pts = list(points)
            _play(tables, pts, draws[0])
            level = tree
            for j in range(left):
                rank = _ranks(pts)
                spread, _, rnd, level = min(
                    (_spread(rnd, rank), i, rnd, sub) for i, (rnd, sub) in enumerate(level)
                )
                total += spread
                _play(rnd, pts, draws[j + 1])
        scored.append((cost + total / AHEAD_FUTURES, index, tables))
    scored.sort(key=lambda x: (x[0], x[1]))
    if plan is None:
        return scored[0][2] if scored else None
    try:
        for _, _, tables in scored:
            if plan.feasible(tables, unmet):
                return tables
    except _Budget:
        return None
    return None
