"""Seating benchmark against Mahjong Pantheon's figures (/work/shared/ANCHORS.md).

Run: .venv/bin/python bench/seating.py [--seeds 3] [--quick]

Whole-tournament plans: extra meetings, most meetings of a pair, wind spread and time (median
over seeds), beside Pantheon's random seating (median of 3 seeds, default settings, commit
b8609fd8). Swiss: an event simulated with random results, first round from generate_plan and
every later one from swiss_round; extra meetings, mean rank spread per table, and the slowest
session.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.seating import Plan, generate_plan, quality, swiss_round

# players, sessions -> extra meetings, most meetings, total time (s), Swiss extra, Swiss spread
PANTHEON: dict[tuple[int, int], tuple[int, int, float, str, str]] = {
    (16, 5): (24, 3, 3.3, "0-8", "8.9"),
    (32, 8): (77, 3, 5.8, "20-21", "13.0"),
    (40, 7): (47, 3, 5.3, "12", "~10"),
    (64, 10): (131, 3, 9.1, "29-30", "10.7"),
    (128, 10): (120, 3, 12.0, "13-20", "6.3"),
    (500, 10): (110, 2, 41.0, "8-9", "3.7"),
    (1000, 12): (169, 3, 167.0, "10-11", "3.4"),
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
    for (n, r), (p_extra, p_max, p_time, _, _) in PANTHEON.items():
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


def simulate_swiss(players: int, rounds: int, seed: int) -> tuple[Plan, float, float]:
    """Returns the plan, mean rank spread over Swiss rounds, slowest Swiss session (s)."""
    rng = random.Random(seed)
    plan = generate_plan(players=players, rounds=1, seed=seed)
    score = [0.0] * players
    spreads, slowest = [], 0.0
    for _ in range(rounds - 1):
        for table in plan[-1]:
            points = [45.0, 5.0, -15.0, -35.0]
            rng.shuffle(points)
            for p, x in zip(table, points, strict=True):
                score[p] += x + rng.uniform(-20, 20)
        ranking = sorted(range(players), key=lambda p: -score[p])
        start = time.perf_counter()
        plan.append(swiss_round(ranking=ranking, previous=plan, seed=seed))
        slowest = max(slowest, time.perf_counter() - start)
        spread = quality(plan, ranking=ranking).rank_spread_mean
        spreads.append(spread or 0.0)
    return plan, statistics.mean(spreads), slowest


def bench_swiss(seeds: int) -> None:
    print()
    print(f"Swiss (random results; ours: median of {seeds} seeds)")
    head = (
        f"{'case':>9} | {'extra':>5} {'max':>3} {'wind':>4} {'spread':>6} {'slowest s':>9} | "
        f"{'Pantheon extra':>14} {'spread':>6}"
    )
    print(head)
    print("-" * len(head))
    for (n, r), (_, _, _, p_extra, p_spread) in PANTHEON.items():
        rows = []
        for seed in range(seeds):
            plan, spread, slowest = simulate_swiss(n, r, seed)
            q = quality(plan)
            rows.append((q.extra_meetings, q.max_meetings, q.wind_spread, spread, slowest))
        print(
            f"{n:>5}x{r:<3} | {int(statistics.median(x[0] for x in rows)):>5} "
            f"{max(x[1] for x in rows):>3} {max(x[2] for x in rows):>4} "
            f"{statistics.median(x[3] for x in rows):>6.2f} {max(x[4] for x in rows):>9.3f} | "
            f"{p_extra:>14} {p_spread:>6}"
        )
    print("(pure rank order gives spread 3; target: a 1000-player Swiss session under 2 s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="one seed, plans only")
    args = parser.parse_args()
    seeds = 1 if args.quick else args.seeds
    bench_plans(seeds)
    if not args.quick:
        bench_swiss(seeds)


if __name__ == "__main__":
    main()
