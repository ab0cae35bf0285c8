"""Game-record extensions for lossless records (issue 20; scoring/engine/README.md)."""

from __future__ import annotations

import pytest
from engine_support import record

from scoring.engine import RecordError, replay


def test_paper_sheet_replays_to_its_final_results() -> None:
    """A record with ``final_scores`` and no hands: EMA 2025 3.7 results, leftover stick to
    first place, penalties after uma (EMA 2025 6.1.4)."""
    rec = record(
        "ema-2025",
        [],
        final_scores={"scores": [41000, 30300, 27700, 20000], "riichi_sticks_left": 1},
        penalties=[{"seat": 3, "points": 5000, "kind": "obstruction"}],
    )
    out = replay(rec)
    assert out["ended_by"] == "final_scores" and out["hands"] == [] and out["next"] is None
    assert out["final"]["scores"] == [42000, 30300, 27700, 20000]
    assert out["final"]["result"] == [27000, 5300, -7300, -30000]


@pytest.mark.parametrize(
    ("extra", "field"),
    [
        ({"final_scores": {"scores": [30000] * 3}}, "final_scores.scores"),
        ({"final_scores": {"scores": [30000] * 4, "riichi_sticks_left": -1}},
         "final_scores.riichi_sticks_left"),
        ({"final_scores": {"scores": [30000] * 4, "x": 1}}, "final_scores.x"),
        ({"final_scores": [1, 2]}, "final_scores"),
        ({"tournament_penalties": [{"seat": 4, "kind": "lateness", "points": 1000}]},
         "tournament_penalties[0].seat"),
        ({"tournament_penalties": [{"seat": 1, "kind": "lateness", "points": 0}]},
         "tournament_penalties[0].points"),
        ({"substitutes": [{"seat": 1, "from": "start", "replaces": 7}]}, "substitutes[0].replaces"),
    ],
)  # fmt: skip
def test_bad_extensions_name_the_field(extra: dict, field: str) -> None:
    with pytest.raises(RecordError) as err:
        replay(record("ema-2025", [], **extra))
    assert err.value.field == field


def test_sheet_and_hands_together_is_an_error() -> None:
    hand = {"outcome": "draw", "riichi": [], "tenpai": []}
    with pytest.raises(RecordError) as err:
        replay(record("ema-2025", [hand], final_scores={"scores": [30000] * 4}))
    assert err.value.field == "final_scores"


def test_tournament_penalties_do_not_change_the_game() -> None:
    """They are deducted from the standings (EMA 2025 6.1.4), not from the game's result."""
    hand = {"outcome": "draw", "riichi": [], "tenpai": [0]}
    plain = replay(record("ema-2025", [hand], end="time"))
    penalised = replay(
        record(
            "ema-2025",
            [hand],
            end="time",
            tournament_penalties=[{"seat": 1, "kind": "lateness", "points": 2000, "minutes": 2}],
            substitutes=[{"seat": 2, "from": "start", "replaces": "Anna Berg [04120017]"}],
        )
    )
    assert penalised["final"]["penalties"] == plain["final"]["penalties"] == [0, 0, 0, 0]
    assert penalised["final"]["result"][1] == plain["final"]["result"][1]
