"""Table seating for riichi tournaments: plain Python, no Django.

Whole-tournament plans (``generate_plan``)
    1. Construct (designs.py). For n = 4m players in four columns of m, transversal rounds
       seat column i's player t + r*x_i at table t of round r, over GF(m) when m is a prime
       power >= 4 (m rounds) or Z_m otherwise (fewer, see below); column-mates never meet in
       them, so when 4 | m the columns are then seated recursively side by side. This gives
       zero repeats by construction: 16 players 5 rounds (the affine plane AG(2,4)), 4^k
       players (4^k-1)/3 rounds (AG(k,4)), 32 players 8 (GF(8)), 64 players 21, 128 players
       41, 1000 players 125 (Z_250). The seed relabels players and picks and orders rounds.
    2. Search (search.py) when the construction has too few rounds or players must be kept
       apart: tabu search over swaps of two players between tables of one round, minimising
       sum over pairs of C(meetings, 2) + penalties for a pair together in consecutive rounds
       and for same-club/country pairs in the first k rounds; it stops at the lower bound
       (zero repeats when 3 * rounds <= players - 1 allows it) or at its budget.
    3. Winds (winds.py): per block of four rounds, a proper 4-edge-colouring of the
       player/table graph (Konig) gives every table all four winds and every player a wind
       spread of 0 when rounds are a multiple of 4, else at most 1. Always achieved.
    4. Table numbers (tables.py): the construction's own (t + c*r) for transversal rounds,
       which revisits no table, then a counted search for the fewest revisits.

Swiss sessions (``swiss_session``, swiss.py; ``swiss_round`` on indices): player ids, so
history may hold players who left and the session players never seated; groups are a hard
rule; a beam sweep in standing order then annealing, both counted in steps; small fields (up
to 20 players) keep a zero-repeat finish possible with a node-bounded exact search. The
objective and the figures against Pantheon are in docs/seating.md.

Deterministic: every search is bounded by counts (iterations, beam states, nodes), never by
the clock. ``time_budget`` of ``generate_plan`` only sets the iteration count.

Tables of 3 (three-player rules, WDMC 2019 5.1): ``table_size=3`` in generate_plan and
swiss_session; designs use three columns, winds are East, South, West.

Re-plans: ``generate_plan(history=...)`` counts earlier sessions' meetings; after a full
round the design continues from it.

Substitutes are players to the algorithm: ``substitutes_needed(n)`` says how many make the
count a multiple of the table size; a common group label keeps them apart.

Known limits
    - No construction for every n: when 4 | n but m = n/4 is neither a prime power nor
      coprime to 6, Z_m gives few rounds (e.g. 40 players: 5, 24 players: 2) and the search
      must do the rest. It finds zero repeats well below the bound but not near it, even
      where designs exist (24x6, 28x8, 36x10 keep a few extra meetings).
    - Past the bound (rounds > (n-1)/3) repeats are unavoidable; the search then reaches the
      least possible count of extra meetings for small fields and avoids consecutive
      repeats where it can, but spends its full iteration budget.
    - Group separation in whole plans is soft (weighted); in Swiss it is hard where possible.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from .core import (
    Plan,
    SeatingError,
    check_player_count,
    substitutes_needed,
    swap_players,
    validate_plan,
)
from .csvplan import parse_plan_csv, plan_to_csv
from .designs import Design, design
from .quality import Quality, quality, session_quality
from .search import greedy_round, improve
from .swiss import swiss_round, swiss_session
from .tables import (
    choose_rounds,
    number_tables,
    raise_shared,
    shared_opponents_aim,
    shared_opponents_most,
    transversal_numberings,
)
from .winds import balance_winds, continue_winds, wind_counts

__all__ = [
    "Plan",
    "Quality",
    "SeatingError",
    "balance_winds",
    "check_player_count",
    "generate_plan",
    "parse_plan_csv",
    "plan_to_csv",
    "quality",
    "session_quality",
    "substitutes_needed",
    "swap_players",
    "swiss_round",
    "swiss_session",
    "validate_plan",
    "wind_counts",
]

# Search steps x players per second, about half what one core of the 2-core bench machine does:
# the iteration cap (which makes results deterministic) then ends the search well inside the
# time budget, and the wall-clock deadline only cuts in on a much slower or busier machine.
_STEPS_PER_SECOND_PLAYER = 16_000


def _group_ids(groups: Sequence[str | None] | None, players: int) -> list[int]:
    if groups is None:
        return [-1] * players
    if len(groups) != players:
        raise SeatingError(f"{len(groups)} group labels for {players} players")
    ids: dict[str, int] = {}
    return [-1 if g is None or g == "" else ids.setdefault(g, len(ids)) for g in groups]


def _labels(
    players: int, column: int, gid: list[int], rng: random.Random, size: int = 4
) -> list[int]:
    """Design point -> player. Groups are packed into columns, whose members never meet in
    transversal rounds; without groups this is a random permutation."""
    members: dict[int, list[int]] = {}
    loose: list[int] = []
    for p, g in enumerate(gid):
        (members.setdefault(g, []) if g >= 0 else loose).append(p)
    columns: list[list[int]] = [[] for _ in range(size)]
    big_first = sorted(members.values(), key=lambda ps: (-len(ps), ps[0]))
    for ps in big_first:
        rng.shuffle(ps)
        for p in ps:
            target = min(columns, key=len) if len(columns[0]) >= column else columns[0]
            target.append(p)
        columns.sort(key=len)  # the next group starts in the emptiest column
    rng.shuffle(loose)
    for c in columns:
        while len(c) < column:
            c.append(loose.pop())
        rng.shuffle(c)
    rng.shuffle(columns)
    return [p for c in columns for p in c]


_RELABEL_STEPS_PER_PLAYER = 400
# The choice of design rounds for indirect meetings (tables.choose_rounds): at most
# _CHOOSE_TRIES exchanges per design, stopping once _CHOOSE_PAIRS pairs were measured (about
# 1 s of CPU on the bench machine); fields up to _CHOOSE_MAX_PLAYERS (past it the design's
# rounds are taken as drawn).
_CHOOSE_TRIES = 1500
_CHOOSE_PAIRS = 4_000_000
# Annealing steps of the table numbers (tables.number_tables), fields of up to 64 tables.
_NUMBER_STEPS = 10_000
_NUMBERED_TABLES = 64
# Tries of the search for the construction's table numbers (tables.transversal_numbers) where
# no product c*r fits (Z_m, m not prime).
_TRANSVERSAL_TRIES = 20_000
# Numberings of the transversal rounds tried as starts (which one leaves room for the others).
_NUMBERINGS = 24
# Exact round repairs of the table numbers (tables._repair) where the starts stop short: at
# most this many, and fewer past 25 tables (each costs O(tables^3)); then tabu steps
# (tables._tabu_numbers), fewer on large plans (each scores rounds x tables^2 x seats).
_REPAIRS = 1000
_REPAIR_WORK = 16_000_000
_TABU_STEPS = 10_000
_TABU_WORK = 200_000_000
_CHOOSE_MAX_PLAYERS = 200
# tables.raise_shared on a plan with no repeat (fields up to _CHOOSE_MAX_PLAYERS, more than 4
# sessions): at most _RAISE_TRIES exchanges, stopping once _RAISE_PAIRS pairs were measured
# (about 1 s of CPU on the bench machine) or after _RAISE_STALL tries without progress.
_RAISE_TRIES = 10_000
_RAISE_PAIRS = 4_000_000
_RAISE_STALL = 2000


def _most_shared(
    built: Design, order: list[int], rounds: int, players: int, size: int, rng: random.Random
) -> tuple[Design, list[int]]:
    """Which design and which of its rounds (`order` first) seat `rounds` rounds with the
    most shared opponents for the pairs who never meet (issue 34; labels do not change that
    count). The design the plan needs is searched first; a larger one (a stored design where
    the construction covers the plan, e.g. 40 players in 5 sessions: Z_10's 5 rounds share
    no opponent between column-mates) is searched only where the first stays short of the
    aim, and replaces it only where it leaves strictly more."""
    enough = _shared_enough(players, rounds, size)
    # The search starts from transversal rounds, which take the construction's table numbers
    # (tables.transversal_numberings), and keeps them where they reach the aim.
    order = sorted(order, key=lambda i: i >= built.transversal)
    candidates = [(built, order)]
    larger = design(players, size)
    if len(larger.rounds) > len(built.rounds):
        other = list(range(len(larger.rounds)))
        rng.shuffle(other)
        candidates.append((larger, other))
    best: tuple[Design, list[int]] | None = None
    best_score = (-1, 0)
    for made, drawn in candidates:
        if enough is not None and best_score[0] >= enough:
            break  # the aim reached: the construction keeps its table numbers and columns
        pool = [made.rounds[i]() for i in drawn]
        picked, (low, ties) = choose_rounds(
            pool,
            rounds,
            players,
            rng,
            _CHOOSE_TRIES,
            _CHOOSE_PAIRS // len(candidates),
            enough=enough,
        )
        if (low, -ties) > best_score:
            best, best_score = (made, [drawn[i] for i in picked]), (low, -ties)
    assert best is not None
    return best


def _shared_enough(players: int, rounds: int, size: int) -> int | None:
    """The fewest shared opponents past which the passes stop (quality's aim, capped by the
    most a plan with no repeat allows); None where every pair can meet."""
    most = shared_opponents_most(players, rounds, size)
    return None if most is None else min(most, shared_opponents_aim(players))


def _separate_groups(
    rounds: list[list[list[int]]], counted: int, gid: list[int], rng: random.Random, steps: int
) -> None:
    """Exchange two players' places in every round (a relabelling: who meets whom twice does
    not change) to seat as few pairs of one group at one table in the first `counted` rounds
    as possible.
    Local search over exchanges of a player in a conflict with any player, sideways moves
    allowed; `steps` exchanges tried at most (a count, never a clock)."""
    n = len(gid)
    where = [[0] * n for _ in rounds]
    for r, rnd in enumerate(rounds):
        for t, table in enumerate(rnd):
            for p in table:
                where[r][p] = t
    # count[r][t][g]: members of group g at table t of round r
    count: list[list[dict[int, int]]] = [[{} for _ in rnd] for rnd in rounds]
    for r, rnd in enumerate(rounds):
        for t, table in enumerate(rnd):
            for p in table:
                if gid[p] >= 0:
                    count[r][t][gid[p]] = count[r][t].get(gid[p], 0) + 1

    def conflicted() -> list[int]:
        return [
            p
            for p in range(n)
            if gid[p] >= 0 and any(count[r][where[r][p]][gid[p]] > 1 for r in range(counted))
        ]

    def delta(x: int, y: int) -> int:
        gx, gy = gid[x], gid[y]
        if gx == gy:
            return 0
        d = 0
        for r in range(counted):
            tx, ty = where[r][x], where[r][y]
            if tx == ty:
                continue
            cx, cy = count[r][tx], count[r][ty]
            if gx >= 0:
                d += cy.get(gx, 0) - (cx[gx] - 1)
            if gy >= 0:
                d += cx.get(gy, 0) - (cy[gy] - 1)
        return d

    def exchange(x: int, y: int) -> None:
        gx, gy = gid[x], gid[y]
        for r, rnd in enumerate(rounds):
            tx, ty = where[r][x], where[r][y]
            if tx == ty:
                continue
            a, b = rnd[tx], rnd[ty]
            a[a.index(x)], b[b.index(y)] = y, x
            where[r][x], where[r][y] = ty, tx
            for g, old, new in ((gx, tx, ty), (gy, ty, tx)):
                if g >= 0:
                    count[r][old][g] -= 1
                    count[r][new][g] = count[r][new].get(g, 0) + 1

    pending: list[int] = []
    for _ in range(steps):
        if not pending:
            pending = conflicted()
            if not pending:
                return
            rng.shuffle(pending)
        x = pending.pop()
        y = rng.randrange(n)
        if y != x and delta(x, y) <= 0:
            exchange(x, y)


def _partition(rnd: Sequence[Sequence[int]], players: int, size: int) -> list[list[int]] | None:
    """The round's tables when it seats exactly players 0..players-1 at tables of `size`."""
    tables = [list(t) for t in rnd]
    if all(len(t) == size for t in tables) and sorted(p for t in tables for p in t) == list(
        range(players)
    ):
        return tables
    return None


def generate_plan(
    *,
    players: int,
    rounds: int,
    seed: int = 0,
    groups: Sequence[str | None] | None = None,
    separate_groups_rounds: int = 0,
    progress: Callable[[float], None] | None = None,
    time_budget: float = 8.0,
    table_size: int = 4,
    history: Sequence[Sequence[Sequence[int]]] = (),
    continue_from: Sequence[Sequence[Sequence[int]]] = (),
) -> Plan:
    """Seat a whole tournament: `rounds` rounds for players 0..players-1, each table in seat
    order E, S, W, N (E, S, W at tables of 3). `groups[p]` (club or country, None for none)
    keeps same-group players apart in the first `separate_groups_rounds` rounds. `history`
    holds sessions already played (a re-plan from session k): their meetings count as if in
    the plan; indices outside 0..players-1 are players who have left. `time_budget` sets the
    search's iteration count (no clock: the same arguments give the same plan anywhere).
    `continue_from` (a re-plan after a drop or a late arrival, issue 34): the rounds the plan
    in force had for these sessions, with newcomers already in the seats of those who left;
    rounds that seat exactly players 0..players-1 are kept as the start, so a design's
    remaining rounds stay free of repeats, and the search only repairs what they break."""
    if table_size not in (3, 4):
        raise SeatingError("table_size must be 3 or 4")
    check_player_count(players, table_size)
    if rounds < 1:
        raise SeatingError("at least one round is needed")
    gid = _group_ids(groups, players)
    separate = separate_groups_rounds if any(g >= 0 for g in gid) else 0
    rng = random.Random(seed)
    size = table_size
    past: Plan = [[list(t) for t in rnd] for rnd in history]
    plan: Plan = []
    hints: list[dict[frozenset[int], int]] = []  # table numbers from the construction
    last = _partition(past[-1], players, size) if past else None
    kept = [_partition(rnd, players, size) for rnd in continue_from[:rounds]]
    if kept and all(k is not None for k in kept):
        plan = [k for k in kept if k is not None]
    elif last is not None:
        # A re-plan after a full round: the design continues from it (its round 0 is seated
        # as that round was), so the rounds after it meet none of its pairs.
        built = design(players, size, needed=rounds + 1)
        labels = [0] * players
        for t, table in enumerate(built.rounds[0]()):
            for p, q in zip(table, last[t], strict=True):
                labels[p] = q
        others = list(range(1, len(built.rounds)))
        rng.shuffle(others)
        for i in others[:rounds]:
            plan.append([[labels[p] for p in t] for t in built.rounds[i]()])
    elif not past:
        built = design(players, size, needed=rounds)
        transversal = list(range(built.transversal))
        recursive = list(range(built.transversal, len(built.rounds)))
        rng.shuffle(transversal)
        rng.shuffle(recursive)
        order = transversal + recursive
        if not separate:
            rng.shuffle(order)
            if rounds <= len(order) and players <= _CHOOSE_MAX_PLAYERS:
                built, order = _most_shared(built, order, rounds, players, size, rng)
        labels = _labels(players, built.columns, gid, rng, size)
        for i in order[:rounds]:
            plan.append([[labels[p] for p in t] for t in built.rounds[i]()])
        if separate and plan:
            # Relabelling players keeps the design's rounds pair-disjoint: search the labels
            # for the fewest same-group pairs in the rounds that keep groups apart.
            _separate_groups(plan, separate, gid, rng, _RELABEL_STEPS_PER_PLAYER * players)
        if built.transversal and built.columns <= _NUMBERED_TABLES:
            # Zero revisits by construction for the transversal rounds (tables.py); the
            # numbers follow the tables through the shuffles below.
            picks = [(j, i) for j, i in enumerate(order[:rounds]) if i < built.transversal]
            for numbers in transversal_numberings(
                [built.rounds[i]() for i in range(built.transversal)],
                [i for _, i in picks],
                _TRANSVERSAL_TRIES,
                _NUMBERINGS,
                [built.rounds[i]() for i in order[:rounds] if i >= built.transversal],
            ):
                hint: dict[frozenset[int], int] = {}
                for (j, _), perm in zip(picks, numbers, strict=False):
                    for t, table in enumerate(plan[j]):
                        hint[frozenset(table)] = perm[t]
                hints.append(hint)
        bound = (players - 1) // (size - 1)
        complete = len(plan) == bound  # the design met (nearly) every pair
        while len(plan) < rounds and complete and len(plan) > 1:
            # Past the bound: repeating the design spreads repeats evenly, copies never adjacent.
            plan.append([list(t) for t in plan[len(plan) - bound]])
    while len(plan) < rounds:
        plan.append(greedy_round(players, [*past, *plan], rng, size))
    for rnd in plan:
        rng.shuffle(rnd)
    if progress is not None:
        progress(0.05)
    if players > size:
        plan, cost = improve(
            plan,
            players=players,
            gid=gid,
            separate=separate,
            rng=rng,
            max_iterations=int(time_budget * _STEPS_PER_SECOND_PLAYER / players) + 1,
            progress=None if progress is None else (lambda f: progress(0.05 + 0.9 * f)),
            history=past,
        )
        fresh = not past and not separate and players <= _CHOOSE_MAX_PLAYERS
        if cost == 0 and fresh and len(plan) > 4:
            # No repeat (nor group pair): exchanges that keep it so raise the fewest shared
            # opponents of pairs who never meet (issue 34; tables.raise_shared).
            plan = raise_shared(
                plan,
                players,
                rng,
                _RAISE_TRIES,
                _RAISE_PAIRS,
                _RAISE_STALL,
                _shared_enough(players, len(plan), size),
            )
    plan = continue_winds(plan, past, players)
    # Table numbers last: they change neither meetings nor winds (tables.py).
    tables = len(plan[0])
    small = tables <= _NUMBERED_TABLES
    repairs = min(_REPAIRS, _REPAIR_WORK // tables**3) if small else 0
    tabu = min(_TABU_STEPS, _TABU_WORK // (len(plan) * tables**2 * size)) if small else 0
    plan = number_tables(plan, rng, _NUMBER_STEPS if small else 0, hints, repairs, tabu)
    if progress is not None:
        progress(1.0)
    return plan
