"""Seating benchmark against Mahjong Pantheon's figures (/work/shared/ANCHORS.md).

Run: .venv/bin/python bench/seating.py [--seeds 3] [--quick] [--swiss-only] [--sizes 16x5,32x8]
         [--small-fields] [--grid [--grid-players 16,40]] [--groups] [--timing SESSIONS]

Whole-tournament plans: extra meetings, most meetings of a pair, wind spread and time (median
over seeds), beside Pantheon's random seating (median of 3 seeds, default settings, commit
b8609fd8). Swiss: ANCHORS.md's simulation (seeds 1, 2, 3, median of each column), every
session seated by swiss_session; extra meetings, mean rank spread per table over sessions
2..S, back-to-back repeats, wind spread and the slowest session, beside Pantheon's Swiss with
the ratio ours / theirs. Each session is told the event's session count (organisers plan it;
it lets winds end balanced). Small fields (--small-fields, also in a full run): 24x6, 28x8 and
36x10 whole-tournament plans from known designs, with the social golfer bound. The grid
(--grid, issue 34): every field 16-172 x 4-15 sessions, ours beside the best known design.
--groups (issue 34.3): Swiss 32x8 with 8 clubs of 4 kept apart, means over seeds 1-10 beside
Pantheon's means without groups. --timing N: the 1000x12 random plan and the first N Swiss
sessions of 1000x12 (wall and CPU per session) beside Pantheon's 5.3-5.9 s per session.
The search is counted in iterations, so the figures do not depend on the machine's load; the
times do (the load average is printed).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.seating import generate_plan, quality, swiss_session, wind_counts
from tournaments.seating.build_designs import best_known
from tournaments.seating.designs import design
from tournaments.seating.swiss import competition_ranks

# players, sessions -> random seating: extra meetings, most meetings, total time (s)
PANTHEON: dict[tuple[int, int], tuple[int, int, float]] = {
    (16, 5): (24, 3, 3.3),
    (32, 8): (77, 3, 5.8),
    (40, 7): (47, 3, 5.3),
    (64, 10): (131, 3, 9.1),
    (128, 10): (120, 3, 12.0),
    (500, 10): (110, 2, 41.0),
    (1000, 12): (169, 3, 167.0),
}
TARGETS = {(16, 5), (32, 8), (40, 7), (64, 10), (128, 10), (1000, 12)}


def bench_plans(seeds: int) -> None:
    print(f"Whole-tournament plans (ours: median of {seeds} seeds)")
    head = (
        f"{'case':>9} | {'extra':>5} {'max':>3} {'wind':>4} {'time s':>7} | "
        f"{'Pantheon extra':>14} {'max':>3} {'time s':>7} | {'speed-up':>8} | target"
    )
    print(head)
    print("-" * len(head))
    for (n, r), (p_extra, p_max, p_time) in PANTHEON.items():
        rows = []
        for seed in range(seeds):
            start = time.perf_counter()
            plan = generate_plan(players=n, rounds=r, seed=seed)
            elapsed = time.perf_counter() - start
            q = quality(plan)
            rows.append((q.extra_meetings, q.max_meetings, q.wind_spread, elapsed))
        extra = int(statistics.median(x[0] for x in rows))
        most = max(x[1] for x in rows)
        wind = max(x[2] for x in rows)
        took = statistics.median(x[3] for x in rows)
        worst = max(x[3] for x in rows)
        ok = all(x[0] == 0 and x[2] <= 1 for x in rows) and worst < 10
        target = ("met" if ok else "MISSED") if (n, r) in TARGETS else "-"
        print(
            f"{n:>5}x{r:<3} | {extra:>5} {most:>3} {wind:>4} {took:>7.3f} | "
            f"{p_extra:>14} {p_max:>3} {p_time:>7.1f} | {p_time / took:>7.0f}x | {target}"
        )


# ANCHORS.md, Swiss: extra meetings, mean rank spread per table, back-to-back repeats (its wind
# spread with balanced winds is 1-2).
PANTHEON_WIND = "1-2"
PANTHEON_SWISS: dict[tuple[int, int], tuple[int, float, int]] = {
    (16, 5): (0, 8.88, 0),
    (32, 8): (21, 12.95, 3),
    (40, 7): (12, 9.88, 3),
    (64, 10): (30, 10.71, 6),
    (128, 10): (20, 6.28, 5),
    (500, 10): (8, 3.72, 2),
    (1000, 12): (10, 3.44, 1),
}
UMA = (15000, 5000, -5000, -15000)


def simulate_swiss(
    players: int,
    sessions: int,
    seed: int,
    groups: dict[int, str | None] | None = None,
    times: list[tuple[float, float]] | None = None,
    until: int | None = None,
) -> dict[str, float]:
    """ANCHORS.md's simulation: everyone starts at 0; per table 4 distinct raw scores from
    -10000..50000 in steps of 100 in a random finishing order, points += raw - 25000 + uma.
    Every session, the first included, is seated by swiss_session from the standings.
    `groups` (club labels) are kept apart; `times` collects each session's wall and CPU
    time; `until` stops after that many sessions (each still told the event has `sessions`)."""
    rng = random.Random(seed)
    ids = list(range(players))
    points = dict.fromkeys(ids, 0)
    history: list[list[list[int]]] = []
    spreads, slowest = [], 0.0
    for s in range(until or sessions):
        start, cpu = time.perf_counter(), time.process_time()
        tables = swiss_session(
            players=ids, points=points, history=history, seed=seed, sessions=sessions, groups=groups
        )
        took = time.perf_counter() - start
        slowest = max(slowest, took)
        if times is not None:
            times.append((took, time.process_time() - cpu))
        if s:  # everyone is tied before session 1
            rank = dict(zip(ids, competition_ranks(ids, points), strict=True))
            spreads.append(
                statistics.mean(max(rank[p] for p in t) - min(rank[p] for p in t) for t in tables)
            )
        history.append(tables)
        for table in tables:
            raws = sorted(rng.sample(range(-10000, 50001, 100), 4), reverse=True)
            order = list(table)
            rng.shuffle(order)
            for place, (p, raw) in enumerate(zip(order, raws, strict=True)):
                points[p] += raw - 25000 + UMA[place]
    q = quality(history)
    counts = wind_counts(history, players)
    same = sum(
        1
        for rnd in history
        for t in rnd
        for a, b in combinations(t, 2)
        if groups and groups.get(a) and groups.get(a) == groups.get(b)
    )
    return {
        "group_pairs": same,
        "wind2": sum(max(c) - min(c) >= 2 for c in counts),
        "extra": q.extra_meetings,
        "spread": statistics.mean(spreads),
        "b2b": q.consecutive_repeats,
        "wind": q.wind_spread,
        "slowest": slowest,
    }


def ratio(ours: float, theirs: float) -> str:
    if theirs == 0:
        return "  =" if ours == 0 else "  -"
    return f"{ours / theirs:.2f}"


def bench_swiss(seeds: int, sizes: list[tuple[int, int]]) -> None:
    print()
    print(f"Swiss (ANCHORS.md simulation, seeds 1..{seeds}, median of each column)")
    head = (
        f"{'case':>9} | {'extra':>5} {'Panth.':>6} {'ratio':>5} | {'spread':>6} {'Panth.':>6} "
        f"{'ratio':>5} | {'b2b':>3} {'Panth.':>6} | {'wind':>4} {'Panth.':>6} | {'slowest s':>9} "
        "| verdict"
    )
    print(head)
    print("-" * len(head))
    for n, r in sizes:
        p_extra, p_spread, p_b2b = PANTHEON_SWISS[n, r]
        rows = [simulate_swiss(n, r, seed) for seed in range(1, seeds + 1)]

        def med(key: str, rows: list[dict[str, float]] = rows) -> float:
            return statistics.median(x[key] for x in rows)

        extra, spread, b2b = med("extra"), med("spread"), med("b2b")
        wind = max(x["wind"] for x in rows)
        ok = extra <= p_extra and spread <= p_spread and b2b == 0
        print(
            f"{n:>5}x{r:<3} | {extra:>5.0f} {p_extra:>6} {ratio(extra, p_extra):>5} | "
            f"{spread:>6.2f} {p_spread:>6.2f} {ratio(spread, p_spread):>5} | {b2b:>3.0f} "
            f"{p_b2b:>6} | {wind:>4.0f} {PANTHEON_WIND:>6} | "
            f"{max(x['slowest'] for x in rows):>9.2f} | {'at or beyond' if ok else 'BEHIND'}"
            + ("" if wind <= 1 else f" (wind 2: {max(x['wind2'] for x in rows)} players)")
        )
    print(
        "(ratio = ours / Pantheon's, lower is better; rank spread 3 is pure rank order; verdict:"
        " extra meetings and mean spread <= Pantheon's with no back-to-back repeat; wind = worst"
        " player's most-used minus least-used wind over all seeds, and how many players end"
        " with 2 in the worst seed)"
    )


# ANCHORS.md: Pantheon's Swiss over seeds 1-20 (means per seed), without groups.
PANTHEON_32X8_MEANS = (20.70, 12.66)


def bench_groups(seeds: int) -> None:
    """Issue 34.3: 32 players in 8 clubs of 4 (player p in club p mod 8) kept apart in every
    session of an 8-session Swiss event; means over seeds 1..seeds beside Pantheon's means
    over seeds 1-20 without groups, and ours without groups on the same seeds."""
    print()
    print(f"Swiss 32x8 with 8 groups of 4 kept apart (means over seeds 1..{seeds})")
    clubs: dict[int, str | None] = {p: f"club {p % 8}" for p in range(32)}
    head = (
        f"{'case':>16} | {'extra':>6} {'Panth.':>6} {'ratio':>5} | {'spread':>6} {'Panth.':>6}"
        f" {'ratio':>5} | {'b2b':>3} | {'group pairs':>11} | {'wind':>4}"
    )
    print(head)
    print("-" * len(head))
    p_extra, p_spread = PANTHEON_32X8_MEANS
    for name, groups in (("groups of 4", clubs), ("no groups", None)):
        rows = [simulate_swiss(32, 8, seed, groups) for seed in range(1, seeds + 1)]
        extra = statistics.mean(x["extra"] for x in rows)
        spread = statistics.mean(x["spread"] for x in rows)
        print(
            f"{name:>16} | {extra:>6.1f} {p_extra:>6.2f} {ratio(extra, p_extra):>5} | "
            f"{spread:>6.2f} {p_spread:>6.2f} {ratio(spread, p_spread):>5} | "
            f"{max(x['b2b'] for x in rows):>3.0f} | {max(x['group_pairs'] for x in rows):>11.0f} | "
            f"{max(x['wind'] for x in rows):>4.0f}"
        )
    print(
        "(Pantheon: seeds 1-20 without groups; group pairs: same-club pairs at a table, worst seed)"
    )


def bench_timing(sessions: int) -> None:
    """Issue 34: the random plan for 1000 players x 12 sessions (< 10 s) and Swiss sessions
    for 1000 players (Pantheon's own PHP: 5.3-5.9 s per session on this machine), seed 1, the
    first `sessions` sessions of ANCHORS.md's 12-session event; wall and CPU time with the
    load average, since both move with the machine's load."""
    print()
    print("load average before timing: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    wall, cpu = time.perf_counter(), time.process_time()
    q = quality(generate_plan(players=1000, rounds=12, seed=1))
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    print(
        f"random plan 1000x12: {wall:.2f} s wall, {cpu:.2f} s CPU (target < 10 s), "
        f"{q.extra_meetings} extra meetings"
    )
    times: list[tuple[float, float]] = []
    got = simulate_swiss(1000, 12, 1, times=times, until=max(2, min(sessions, 12)))
    walls, cpus = [w for w, _ in times], [c for _, c in times]
    print(
        f"Swiss 1000 players (of 12 sessions), sessions 1-{len(times)}:\n"
        f"  wall {', '.join(f'{t:.2f}' for t in walls)} s (slowest {max(walls):.2f})\n"
        f"  CPU  {', '.join(f'{t:.2f}' for t in cpus)} s (slowest {max(cpus):.2f}, "
        f"mean {statistics.mean(cpus):.2f}); Pantheon 5.3-5.9 s per session"
    )
    print(
        f"  {got['extra']:.0f} extra meetings, mean rank spread {got['spread']:.3f}, "
        f"{got['wind2']:.0f} players at wind spread 2 (sessions 1-{len(times)})"
    )
    print("load average after timing: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))


def wind_end_bound(players: int, sessions: int, seed: int) -> tuple[float, float]:
    """Lower bound on the last session's mean rank spread per table when every player must
    end with a wind spread <= 1 and the session count is a multiple of 4 (1000x12).

    After S - 1 sessions each player then lacks exactly one wind, and the last session must
    seat one player lacking each wind at every table. That wind is fixed by the seats of
    session S - 1, before its results, so it is independent of the order the last session is
    seated in. In any partition of that order into tables of one of each wind, at every cut
    between two different point totals at least ceil(x / 3) tables cross it, x being the
    players above the cut beyond complete sets (sum over winds of count minus the least
    count); a table's spread is at least the number of such cuts it crosses. The simulation
    is ANCHORS.md's with every session in pure rank order (spread 3: the best case for the
    sessions before); session S - 1 gives the four players of each table four different
    missing winds (stratified by standing) or, for comparison, they are shuffled at random.
    Returns the two bounds (stratified, random)."""
    rng = random.Random(seed)
    pts = [0] * players

    def play(table: list[int]) -> None:
        raws = sorted(rng.sample(range(-10000, 50001, 100), 4), reverse=True)
        order = list(table)
        rng.shuffle(order)
        for place, (p, raw) in enumerate(zip(order, raws, strict=True)):
            pts[p] += raw - 25000 + UMA[place]

    for _ in range(sessions - 2):
        order = sorted(range(players), key=lambda i: -pts[i])
        for t in range(0, players, 4):
            play(order[t : t + 4])
    order = sorted(range(players), key=lambda i: -pts[i])
    label = [0] * players
    for t in range(0, players, 4):
        winds = [0, 1, 2, 3]
        rng.shuffle(winds)
        for p, w in zip(order[t : t + 4], winds, strict=True):
            label[p] = w
        play(order[t : t + 4])
    final = sorted(range(players), key=lambda i: -pts[i])

    def bound(labels: list[int]) -> float:
        counts, total = [0, 0, 0, 0], 0
        for r in range(players - 1):
            counts[labels[r]] += 1
            if pts[final[r]] != pts[final[r + 1]]:
                least = min(counts)
                total += max(-(-sum(c - least for c in counts) // 3), int((r + 1) % 4 != 0))
        return total / (players / 4)

    stratified = [label[p] for p in final]
    shuffled = list(stratified)
    rng.shuffle(shuffled)
    return bound(stratified), bound(shuffled)


def bench_wind_end(seeds: int) -> None:
    print()
    print("Winds ending balanced at 1000x12: lower bound on the last session's mean spread")
    for seed in range(1, seeds + 1):
        strat, rand = wind_end_bound(1000, 12, seed)
        print(
            f"  seed {seed}: >= {strat:.1f} ranks per table (missing winds stratified by "
            f"standing), >= {rand:.1f} (at random); with free winds: 3"
        )


# Small fields: players x sessions -> most sessions with no repeat known (social golfer
# problem with groups of 4; the bound floor((n - 1) / 3)).
SMALL_FIELDS = {(24, 6): (7, 7), (28, 8): (9, 9), (36, 10): (10, 11)}


def bench_small_fields(seeds: int) -> None:
    print()
    print(f"Small fields: whole-tournament plans (seeds 0..{seeds - 1}, worst of each column)")
    head = (
        f"{'case':>9} | {'extra':>5} {'max':>3} {'b2b':>3} {'wind':>4} | "
        f"{'no-repeat sessions: ours':>24} {'bound':>5}"
    )
    print(head)
    print("-" * len(head))
    for (n, r), (built, bound) in SMALL_FIELDS.items():
        qs = [quality(generate_plan(players=n, rounds=r, seed=seed)) for seed in range(seeds)]
        print(
            f"{n:>5}x{r:<3} | {max(q.extra_meetings for q in qs):>5} "
            f"{max(q.max_meetings for q in qs):>3} {max(q.consecutive_repeats for q in qs):>3} "
            f"{max(q.wind_spread for q in qs):>4} | {built:>24} {bound:>5}"
        )


def bench_grid(players: list[int], sessions: list[int], seed: int) -> None:
    """Issue 34: every field 16-172 x 4-15 sessions, one plan each (seed 1): ours beside
    what the best known design gives. "design" columns: extra meetings 0 up to the sessions a
    known design has no repeat for (Miller et al.; past them the counting bound), table
    revisits least possible, wind spread least possible, and for the fewest shared opponents
    the aim ceil(sqrt n) capped by the most a repeat-free plan can reach (- when every pair
    meets, or at 4 sessions or fewer)."""
    print()
    print(f"Grid of random plans (seed {seed}): ours / design's")
    head = (
        f"{'case':>8} | {'extra':>9} | {'revisits':>9} | {'wind':>5} | {'shared':>9} | "
        f"{'zero-repeat sessions: ours / known':>34} | {'CPU s':>5}"
    )
    print(head)
    print("-" * len(head))
    totals = {"extra": 0, "rev": 0, "wind": 0, "short": 0, "cases": 0, "ok": 0}
    for n in players:
        built = len(design(n).rounds)
        for r in sessions:
            start = time.process_time()
            q = quality(generate_plan(players=n, rounds=r, seed=seed))
            took = time.process_time() - start
            known = best_known(n)
            design_extra = 0 if r <= known else q.extra_meetings_lower_bound
            aim = q.shared_opponents_aim
            most = q.shared_opponents_most
            target = None if aim is None or most is None else min(aim, most)
            shared = q.min_shared_opponents_unmet
            ok = q.extra_meetings <= design_extra and q.wind_spread <= q.wind_spread_least
            totals["cases"] += 1
            totals["ok"] += ok
            totals["extra"] += q.extra_meetings - design_extra
            totals["rev"] += q.table_revisits - q.table_revisits_least
            if target is not None and shared is not None and shared < target:
                totals["short"] += 1
            print(
                f"{n:>4}x{r:<3} | {q.extra_meetings:>4} / {design_extra:<2} | "
                f"{q.table_revisits:>4} / {q.table_revisits_least:<2} | "
                f"{q.wind_spread:>1} / {q.wind_spread_least:<1} | "
                f"{'-' if shared is None else shared:>4} / "
                f"{'-' if target is None else target:<2} | "
                f"{min(built, 15):>17} / {min(known, 15):<14} | {took:>5.1f}"
            )
    print(
        f"{totals['ok']} of {totals['cases']} plans with the design's extra meetings and winds;"
        f" extra meetings beyond the designs {totals['extra']}; revisits beyond the least"
        f" possible {totals['rev']}; {totals['short']} plans below the shared-opponent aim"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="one seed, plans only")
    parser.add_argument("--swiss-only", action="store_true", help="skip whole-tournament plans")
    parser.add_argument(
        "--sizes", help="Swiss sizes as 16x5,32x8 (default: every size in ANCHORS.md)"
    )
    parser.add_argument("--small-fields", action="store_true", help="only the small fields")
    parser.add_argument(
        "--wind-bound", action="store_true", help="only the balanced-winds bound at 1000x12"
    )
    parser.add_argument(
        "--grid", action="store_true", help="only the 16-172 x 4-15 grid of random plans"
    )
    parser.add_argument("--grid-players", help="grid fields as 16,40 (default 16..172 by 4)")
    parser.add_argument(
        "--groups", action="store_true", help="only Swiss 32x8 with 8 groups of 4 (seeds 1-10)"
    )
    parser.add_argument(
        "--timing",
        type=int,
        metavar="SESSIONS",
        help="only the 1000x12 random plan and the first SESSIONS Swiss sessions of 1000x12",
    )
    args = parser.parse_args()
    print("load average at start: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    if args.groups:
        bench_groups(max(args.seeds, 10))
        return
    if args.timing:
        bench_timing(args.timing)
        return
    if args.small_fields:
        bench_small_fields(args.seeds)
        return
    if args.wind_bound:
        bench_wind_end(args.seeds)
        return
    if args.grid:
        fields = (
            [int(x) for x in args.grid_players.split(",")]
            if args.grid_players
            else list(range(16, 173, 4))
        )
        bench_grid(fields, list(range(4, 16)), 1)
        print("load average at end: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
        return
    seeds = 1 if args.quick else args.seeds
    sizes = list(PANTHEON_SWISS)
    if args.sizes:
        sizes = [(int(a), int(b)) for a, b in (x.split("x") for x in args.sizes.split(","))]
    if not args.swiss_only:
        bench_plans(seeds)
    if not args.quick:
        bench_swiss(seeds, sizes)
        if not args.sizes:
            bench_wind_end(seeds)
            bench_small_fields(seeds)
    print("load average at end: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))


if __name__ == "__main__":
    main()
