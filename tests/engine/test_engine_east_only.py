"""The east-only game (rules key east_only, issue 36; scoring/engine/README.md): East 4 ends
it, or the south round extends it as Tenhou's west round extends a south game."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.engine import RecordError, replay


def ron(winner: int, loser: int, han: int = 1, fu: int = 30) -> dict[str, Any]:
    return {
        "outcome": "ron",
        "loser": loser,
        "riichi": [],
        "wins": [{"winner": winner, "han": han, "fu": fu}],
    }


def record(hands: list[dict[str, Any]], **rules: Any) -> dict[str, Any]:
    return {
        "format": "riichi-game-record/1",
        "ruleset": "tenhou",
        "players": ["A", "B", "C", "D"],
        "rules": {"east_only": True, **rules},
        "hands": hands,
    }


def test_an_east_only_game_ends_after_east_4_when_someone_has_the_return_points():
    # East 1-4: each dealer deals in to the next seat (1 han 30 fu, 1,000): the deal passes.
    hands = [ron(1, 0, 4), ron(2, 1), ron(3, 2), ron(0, 3)]
    out = replay(record(hands, start_points=30000))
    assert [h["round"] for h in out["hands"]] == ["E1", "E2", "E3", "E4"]
    assert out["ended_by"] == "east4" and out["next"] is None
    with pytest.raises(RecordError, match=r"over after hand \d \(east4\)"):
        replay(record([*hands, ron(1, 0)], start_points=30000))


def test_without_the_return_points_the_south_round_extends_it_sudden_death():
    # From 25,000 nobody reaches 30,000 in the east round: South 1 is played, and the game
    # ends as soon as a hand leaves someone at 30,000 (Tenhou's rule for its west round).
    east = [ron(1, 0), ron(2, 1), ron(3, 2), ron(0, 3)]
    out = replay(record(east))
    assert out["ended_by"] is None and out["next"]["round"] == "S1"
    out = replay(record([*east, ron(1, 0, 3, 60)]))  # 7,700: B passes 30,000
    assert out["hands"][-1]["round"] == "S1" and out["ended_by"] == "south"


def test_the_south_game_is_unchanged_by_default():
    out = replay({**record([ron(1, 0), ron(2, 1), ron(3, 2), ron(0, 3)]), "rules": {}})
    assert out["ended_by"] is None and out["next"]["round"] == "S1"
