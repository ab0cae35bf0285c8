"""Benchmark: hands per second through ``scoring.tiles.evaluate`` vs the ``mahjong`` package.

    python bench/hands.py [--rounds 200]

Ours: notation string in, Evaluation out (parse, checks, the library, EMA corrections, the
engine's payment). Theirs: the same hands, already converted to the library's 136-format
arrays and melds outside the timing, through ``HandCalculator.estimate_hand_value`` with a
fresh ``HandConfig`` per hand (the library mutates it). The ratio ours/theirs is the
adapter's overhead; ANCHORS.md's figure for the library (about 10,000 hands/s) is printed too.
Times are CPU time of this process (``time.process_time``), best of five, the two sides run
alternately: on a shared machine wall time mostly measures the neighbours.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig
from mahjong.meld import Meld

from scoring.engine.rules import load_ruleset
from scoring.tiles import Situation, evaluate
from scoring.tiles.adapter import library_options
from scoring.tiles.notation import WINDS, indicator_ids, parse_hand, parse_tiles

ANCHOR_HANDS_PER_S = 10_000  # ANCHORS.md: HandCalculator.estimate_hand_value on this machine

# A mix of closed and open hands, seven pairs, yakuman, dora, tsumo and ron (EMA 2025 4.3).
HANDS: list[tuple[str, dict[str, Any]]] = [
    ("12345678s234m55p+9s", {"tsumo": True, "riichi": True, "seat_wind": "S"}),
    ("12345678s234m55p+9s", {"riichi": True}),
    ("45678s234m55p+9s 123s", {"dora_indicators": ("6s",)}),
    ("111m999p222s88s11z+8s", {"tsumo": True}),
    ("222m33m444p666s88s+8s", {"dora_indicators": ("3p",), "seat_wind": "S"}),
    ("225588m3366p77s4s+4s", {"tsumo": True, "riichi": True, "ippatsu": True}),
    ("1199m2288p66s77z4s+4s", {}),
    ("223344m556677p7z+7z", {"tsumo": True}),
    ("111123789s3z+3z 111z", {"dora_indicators": ("6s",)}),
    ("1123456789p333z+7p", {"tsumo": True, "seat_wind": "S"}),
    ("12345m999p789s11z+6m", {"riichi": True}),
    ("123456789m23m55m+1m", {"riichi": True, "tsumo": True, "dora_indicators": ("4m",)}),
    ("111m22555p79999s+8s", {}),
    ("678m5p+5p 2222m 3333p 4444s", {}),
    ("123m45p55566677z+6p", {}),
    ("19m19p19s1234566z+7z", {}),
    ("45678m99m+9m 123m 456m", {}),
    ("555666777z111z2z+2z", {"tsumo": True, "seat_wind": "S"}),
]


def _direct_calls(rules_id: str) -> list[Callable[[], object]]:
    """One closure per hand calling the library with everything already converted."""
    rules = load_ruleset(rules_id)
    options = library_options(rules)
    calls: list[Callable[[], object]] = []
    kinds = {"chi": Meld.CHI, "pon": Meld.PON, "kan": Meld.KAN}
    for notation, situation in HANDS:
        hand = parse_hand(notation)
        melds = [Meld(meld_type=kinds[m.kind], tiles=m.tiles, opened=m.opened) for m in hand.melds]
        dora = indicator_ids(
            [t for d in situation.get("dora_indicators", ()) for t in parse_tiles(d)]
        )
        seat = WINDS[situation.get("seat_wind", "E")]
        flags = {
            "is_tsumo": situation.get("tsumo", False),
            "is_riichi": situation.get("riichi", False),
            "is_ippatsu": situation.get("ippatsu", False),
        }
        tiles, win = hand.all_tiles, hand.win_tile

        def call(tiles=tiles, win=win, melds=melds, dora=dora, seat=seat, flags=flags) -> object:
            config = HandConfig(player_wind=seat, round_wind=WINDS["E"], options=options, **flags)
            return HandCalculator.estimate_hand_value(
                tiles, win, melds=melds, dora_indicators=dora, config=config
            )

        calls.append(call)
    return calls


def _adapter_calls(rules_id: str) -> list[Callable[[], object]]:
    """One closure per hand: notation and situation in, Evaluation out."""
    rules = load_ruleset(rules_id)

    def make(notation: str, situation: Situation) -> Callable[[], object]:
        return lambda: evaluate(notation, rules=rules, situation=situation)

    return [make(notation, Situation(**situation)) for notation, situation in HANDS]


def _seconds(calls: list[Callable[[], object]], rounds: int) -> float:
    start = time.process_time()
    for _ in range(rounds):
        for call in calls:
            call()
    return time.process_time() - start


def _rates(
    ours: list[Callable[[], object]], theirs: list[Callable[[], object]], rounds: int
) -> tuple[float, float]:
    """Best of five for each, run alternately so both see the same machine load."""
    best_ours = best_theirs = float("inf")
    for _ in range(5):
        best_ours = min(best_ours, _seconds(ours, rounds))
        best_theirs = min(best_theirs, _seconds(theirs, rounds))
    hands = rounds * len(ours)
    return hands / best_ours, hands / best_theirs


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--ruleset", default="ema-2025")
    args = parser.parse_args()
    ours, theirs = _rates(_adapter_calls(args.ruleset), _direct_calls(args.ruleset), args.rounds)
    print(f"hands per round:             {len(HANDS)} ({args.rounds} rounds, best of 5)")
    print(f"ours (scoring.tiles):        {ours:,.0f} hands/s")
    print(f"theirs (library directly):   {theirs:,.0f} hands/s")
    print(f"ratio ours/theirs:           {ours / theirs:.2f} (overhead {theirs / ours:.2f}x)")
    print(
        f"ANCHORS.md library baseline: {ANCHOR_HANDS_PER_S:,} hands/s, "
        f"ours/baseline {ours / ANCHOR_HANDS_PER_S:.2f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
