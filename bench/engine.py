"""Benchmark: hands settled per second, replaying 10,000 random valid games.

    python bench/engine.py [--games 10000] [--seed 1]

The records are generated first (not timed); then every game is replayed through
``scoring.engine.replay`` (parse, validate, settle, flow, final results). ANCHORS.md has no
figure for record replay; the nearest one, the ``mahjong`` package's tile-level evaluation at
about 10,000 hands/s, is printed as a reference for scale only (a different, heavier task).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scoring.engine import replay
from scoring.engine.randgame import random_record

REFERENCE_HANDS_PER_S = 10_000  # ANCHORS.md: mahjong HandCalculator.estimate_hand_value


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    games = [random_record(rng) for _ in range(args.games)]
    hands = sum(len(g["hands"]) for g in games if isinstance(g["hands"], list))
    best = float("inf")
    for _ in range(3):  # best of three: the least disturbed run
        start = time.perf_counter()
        for game in games:
            replay(game)
        best = min(best, time.perf_counter() - start)
    rate = hands / best
    print(f"games replayed:        {args.games}")
    print(f"hands settled:         {hands}")
    print(f"best of 3:             {best:.3f} s")
    print(f"hands per second:      {rate:,.0f}")
    print(f"games per second:      {args.games / best:,.0f}")
    ratio = rate / REFERENCE_HANDS_PER_S
    print(
        f"reference (tile eval): {REFERENCE_HANDS_PER_S:,} hands/s, ratio {ratio:.1f}x"
        " (ANCHORS.md; a different task, for scale only)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
