"""Validation: impossible hands and records are rejected with hand and field, nothing applied."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from engine_support import draw, record, ron, tsumo, win

from scoring.engine import RecordError, replay

ROOT = Path(__file__).resolve().parents[2]


def _error(hands: list[dict[str, Any]], ruleset: str = "ema-2025", **top: Any) -> RecordError:
    with pytest.raises(RecordError) as err:
        replay(record(ruleset, hands, **top))
    return err.value


@pytest.mark.parametrize(
    ("hand", "field"),
    [
        (ron(1, win(0, 1, 20)), "wins[0].fu"),  # 20 fu by ron (EMA 2025 4.1.1: +10 concealed ron)
        (tsumo(win(0, 1, 20)), "wins[0].fu"),  # pinfu tsumo is at least 2 han
        (ron(1, win(0, 1, 25)), "wins[0].fu"),  # seven pairs is 2 han (EMA 2025 4.1.1)
        (tsumo(win(0, 2, 25)), "wins[0].fu"),  # seven pairs tsumo is at least 3 han
        (ron(1, win(0, 2, 35)), "wins[0].fu"),  # fu round up to 10 (EMA 2025 4.1)
        (ron(1, win(0, 2, 120)), "wins[0].fu"),  # above 110
        (ron(1, win(0, 0, 30)), "wins[0].han"),  # at least one yaku
        (ron(1, win(0, 3, None)), "wins[0].fu"),  # fu needed below 5 han
        (ron(1, {"winner": 0, "yakuman": 2}), "wins[0].yakuman"),  # EMA 2025 4.2.6
        (ron(1, {"winner": 0, "yakuman": 1, "han": 13}), "wins[0].yakuman"),
        (ron(4, win(0, 2, 30)), "loser"),  # no such seat
        (ron(1, win(-1, 2, 30)), "wins[0].winner"),
        (ron(1, win(1, 2, 30)), "wins[0].winner"),  # the winner is also the loser
        (ron(1, win(0, 2, 30), win(0, 2, 30)), "wins"),
        ({"outcome": "tsumo", "riichi": [], "wins": [win(0, 2, 30), win(1, 2, 30)]}, "wins"),
        (ron(1, win(0, 2, 30), riichi=[2, 2]), "riichi"),  # duplicate riichi
        (draw([0, 0]), "tenpai"),
        ({"outcome": "chombo", "riichi": []}, "offender"),
        ({"outcome": "mahjong", "riichi": []}, "outcome"),
        ({"outcome": "draw", "riichi": [], "tenapi": [1]}, "tenapi"),
        (ron(1, {"winner": 0, "han": True, "fu": 30}), "wins[0].han"),
    ],
)
def test_impossible_hands(hand: dict[str, Any], field: str) -> None:
    err = _error([draw([]), hand])
    assert (err.hand, err.field) == (1, field)
    assert err.as_dict() == {"hand": 1, "field": field, "message": err.message}


def test_valid_edge_pairs_accepted() -> None:
    """EMA 2025 4.1.1: 2 han 20 fu tsumo (pinfu tsumo), 2 han 25 fu ron, 3 han 25 fu tsumo."""
    hands = [
        tsumo(win(1, 2, 20)),
        ron(0, win(1, 2, 25)),
        tsumo(win(2, 3, 25)),
        ron(0, win(1, 1, 110)),
    ]
    assert len(replay(record("ema-2025", hands))["hands"]) == 4


def test_double_yakuman_allowed_where_the_rules_say() -> None:
    """Ari-Ari 10.7: double yakuman."""
    assert replay(record("ari-ari", [ron(1, {"winner": 0, "yakuman": 2})]))["hands"][0][
        "deltas"
    ] == [96000, -96000, 0, 0]


@pytest.mark.parametrize(
    ("top", "field"),
    [
        ({"ruleset": "nope"}, "ruleset"),
        ({"rules": {"umaa": [0, 0, 0, 0]}}, "rules.umaa"),
        ({"rules": {"uma": [1, 2]}}, "rules.uma"),
        ({"rules": {"kiriage": "yes"}}, "rules.kiriage"),
        ({"rules": {"multiple_ron": "some"}}, "rules.multiple_ron"),
        ({"players": ["a", "b", "c"]}, "players"),
        ({"end": "later"}, "end"),
        ({"format": "other/1"}, "format"),
        ({"extra": 1}, "extra"),
        ({"penalties": [{"seat": 9, "points": 1000, "kind": "other"}]}, "penalties[0].seat"),
        ({"penalties": [{"seat": 1, "points": 1000, "kind": "rude"}]}, "penalties[0].kind"),
        ({"substitutes": [{"seat": 1, "from": "later"}]}, "substitutes[0].from"),
    ],
)
def test_bad_top_level(top: dict[str, Any], field: str) -> None:
    err = _error([], **top)
    assert (err.hand, err.field) == (None, field)


def test_error_in_later_hand_applies_nothing() -> None:
    """A bad hand anywhere rejects the whole record (no partial output)."""
    err = _error([ron(1, win(0, 2, 30)), draw([]), ron(3, win(3, 2, 30))])
    assert (err.hand, err.field) == (2, "wins[0].winner")


def _cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "scoring", *args],
        input=stdin,
        text=True,
        capture_output=True,
        cwd=ROOT,
        check=False,
    )


def test_cli_replay_and_error(tmp_path: Path) -> None:
    """game-record.md: `python -m scoring replay FILE` prints JSON; a bad record exits 1."""
    good = tmp_path / "g.json"
    good.write_text(json.dumps(record("ema-2025", [ron(2, win(1, 4, 30))])))
    out = _cli("replay", str(good))
    assert out.returncode == 0
    assert json.loads(out.stdout)["hands"][0]["scores"] == [30000, 38000, 22000, 30000]
    bad = json.dumps(record("ema-2025", [ron(2, win(1, 1, 20))]))
    err = _cli("replay", "-", stdin=bad)
    assert err.returncode == 1
    assert json.loads(err.stdout)["error"]["field"] == "wins[0].fu"


def test_cli_rulesets_lists_every_preset_and_key() -> None:
    out = _cli("rulesets")
    data = json.loads(out.stdout)
    assert set(data) == {
        "ema-2025",
        "wdmc-2019",
        "wdmc-2019-3p",
        "ari-ari",
        "san-diego",
        "wrc-2025",
        "tenhou",
    }
    assert data["ema-2025"]["uma"] == [15000, 5000, -5000, -15000]
    sources = json.loads(_cli("rulesets", "--sources").stdout)
    assert sources["ema-2025"]["uma"]["source"] == "EMA 2025 3.7.1"
