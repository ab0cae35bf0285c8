"""Issue 15: penalty amounts in game records as the EMA 2025 text says: obstruction 8,000 or
12,000, or 12,000 to 48,000 in serious or repeated cases (6.12); score sheet 2,000 per
mistake or unsigned sheet, so multiples of 2,000 (7.5); lateness per started minute (7.2).
A wrong amount is a RecordError naming the penalty's field when a record is imported
(``check_penalty_amounts``); the replay itself stays as permissive as before."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.engine import RecordError, check_penalty_amounts, replay
from tests.factories import non_dealer_rons


def record(ruleset: str = "ema-2025", **extra: Any) -> dict[str, Any]:
    return {
        "format": "riichi-game-record/1",
        "ruleset": ruleset,
        "players": ["A", "B", "C", "D"],
        "hands": non_dealer_rons(8),
        **extra,
    }


@pytest.mark.parametrize(
    ("kind", "points"),
    [("obstruction", 8000), ("obstruction", 12000), ("obstruction", 30000),
     ("obstruction", 48000), ("score_sheet", 2000), ("score_sheet", 4000),
     ("lateness", 3000), ("other", 5000)],
)  # fmt: skip
def test_amounts_the_text_allows(kind: str, points: int) -> None:
    rec = record(penalties=[{"seat": 1, "kind": kind, "points": points}])
    check_penalty_amounts(rec)
    assert replay(rec)["final"]["penalties"][1] == points


@pytest.mark.parametrize(
    ("kind", "points", "section"),
    [("obstruction", 5000, "6.12"), ("obstruction", 9900, "6.12"), ("obstruction", 10000, "6.12"),
     ("obstruction", 50000, "6.12"), ("score_sheet", 3000, "7.5"), ("score_sheet", 1000, "7.5"),
     ("lateness", 2500, "7.2")],
)  # fmt: skip
def test_other_amounts_name_the_field(kind: str, points: int, section: str) -> None:
    with pytest.raises(RecordError) as err:
        check_penalty_amounts(
            record(
                penalties=[
                    {"seat": 0, "kind": "other", "points": 1000},
                    {"seat": 1, "kind": kind, "points": points},
                ]
            )
        )
    assert err.value.as_dict()["field"] == "penalties[1].points"
    assert f"EMA 2025 {section}" in str(err.value)


def test_tournament_penalties_extension_is_checked_too() -> None:
    """EMA 2025 6.12 for the extension ``tournament_penalties`` (issue 20) as well."""
    bad = [{"seat": 2, "kind": "obstruction", "points": 5000}]
    with pytest.raises(RecordError) as err:
        check_penalty_amounts(record(tournament_penalties=bad))
    assert err.value.as_dict()["field"] == "tournament_penalties[0].points"
    check_penalty_amounts(record(tournament_penalties=[{"seat": 2, "kind": "obstruction",
                                                        "points": 12000}]))  # fmt: skip


def test_rulesets_without_these_amounts_take_any() -> None:
    """The club rules (wdmc-2019) say nothing of obstruction amounts: not checked."""
    rec = record("wdmc-2019", penalties=[{"seat": 1, "kind": "obstruction", "points": 5000}])
    check_penalty_amounts(rec)
    assert replay(rec)["final"]["penalties"][1] == 5000


def test_a_score_sheet_penalty_left_without_points_is_the_rules_2000() -> None:
    """EMA 2025 7.5: the default amount is checked as any other (and passes)."""
    rec = record(penalties=[{"seat": 0, "kind": "score_sheet"}])
    check_penalty_amounts(rec)
    assert replay(rec)["final"]["penalties"][0] == 2000
