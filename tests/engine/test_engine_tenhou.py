"""The ``tenhou`` preset scores as Tenhou does (issue 20; evidence in scoring/engine/presets.py).

The final results come from the ``owari`` attribute of real Tenhou game logs (mjlog XML:
final scores in hundreds, then the result in thousands, seat by seat).
"""

from __future__ import annotations

from typing import Any

import pytest
from engine_support import draw, last, record, ron, win

from scoring.engine import PRESETS, final_results, preset_sources, replay

TENHOU = PRESETS["tenhou"]


def _owari(attr: str) -> tuple[list[int], list[int]]:
    """Scores and results in points from a real log's owari="s0,r0,s1,r1,..."."""
    parts = attr.split(",")
    scores = [int(parts[i]) * 100 for i in range(0, 8, 2)]
    results = [round(float(parts[i]) * 1000) for i in range(1, 8, 2)]
    return scores, results


@pytest.mark.parametrize(
    "owari",
    [
        # Real Tenhou logs (AGARI ... owari=...), quoted in public parser tests.
        "203,-20.0,344,45.0,192,-31.0,261,6.0",
        "225,-17.0,230,3.0,388,48.0,157,-34.0",  # 22,500: -7.5 -> -7 (500 toward zero)
    ],
)
def test_results_match_real_tenhou_owari(owari: str) -> None:
    """Tenhou: score - 30,000 rounded first, uma +20/+10/-10/-20 after, top takes the rest."""
    scores, results = _owari(owari)
    assert final_results(scores=scores, rules=TENHOU)["result"] == results


def test_second_at_25500_scores_plus_6() -> None:
    """Issue 20: a second place at 25,500 (25k/30k, uma +10) scores +6 on Tenhou, not +5:
    -4.5 rounds to -4 before the uma is added."""
    f = final_results(scores=[40000, 25500, 20000, 14500], rules=TENHOU)
    assert f["result"] == [49000, 6000, -20000, -35000]
    assert sum(f["result"]) == 0


def test_double_ron_counters_and_sticks_to_the_first_winner() -> None:
    """Tenhou double ron: one counter, 8,000 each -> the discarder pays 16,300; only the
    first winner after the discarder takes the 300 and every riichi stick (atamahane)."""
    d = last("tenhou", draw([0]), ron(1, win(2, 5, None), win(3, 5, None), riichi=[3]))
    assert d["honba"] == 1
    assert d["deltas"] == [0, -16300, 8000 + 300 + 1000, -1000 + 8000]


def test_pao_ron_counters_paid_by_the_liable_player() -> None:
    """Tenhou: on a ron shared by the discarder and the liable player, the liable player
    pays the counters (EMA 2025 3.3.7: the discarder does, unchanged for ema-2025)."""
    yakuman: dict[str, Any] = {"winner": 2, "yakuman": 1, "pao": 3}
    th = last("tenhou", draw([0]), ron(1, yakuman))
    assert th["deltas"] == [0, -16000, 32300, -16300]
    ema = last("ema-2025", draw([0]), ron(1, yakuman))
    assert ema["deltas"] == [0, -16300, 32300, -16000]


def test_west_round_tenpai_dealer_not_top_plays_on() -> None:
    """Tenhou west round: a hand ending with someone at 30,000 ends the game, unless the
    dealer is tenpai without being top: then the dealer's next counter hand is played."""
    to_west = [ron(2, win(1, 3, 30))] + [draw([]) for _ in range(7)]  # seat 1: 28,900
    out = replay(record("tenhou", to_west))
    assert out["ended_by"] is None and out["next"]["round"] == "W1"
    on = replay(record("tenhou", [*to_west, draw([0, 1])]))  # seat 1: 30,400
    assert on["ended_by"] is None and on["next"] == {
        **on["next"],
        "round": "W1",
        "honba": 8,  # seven noten draws and this tenpai draw
    }
    ended = replay(record("tenhou", [*to_west, draw([0, 1]), draw([])]))
    assert ended["ended_by"] == "west"
    noten_dealer = replay(record("tenhou", [*to_west, draw([1])]))
    assert noten_dealer["ended_by"] == "west"


def test_every_tenhou_key_names_its_evidence() -> None:
    """Each key says "Tenhou: ..." (the evidence) or "chosen: ..." where Tenhou has no such
    thing (chombo, substitutes, session signal)."""
    sources = preset_sources("tenhou")
    chosen = {k for k, src in sources.items() if not src.startswith("Tenhou:")}
    assert all(sources[k].startswith("chosen:") for k in chosen)
    no_such_thing_online = {"chombo", "substitute_rule", "time_limit", "substitute_points"}
    assert chosen <= no_such_thing_online | {
        "substitute_uma",
        "lateness_per_minute",
        "lateness_max_minutes",
        "score_sheet_penalty",
        "all_last_sheet_penalty",
    }
    for key in ("multi_ron_honba", "multi_ron_riichi", "result_rounding", "west_round"):
        assert sources[key].startswith("Tenhou:"), key
    assert TENHOU.multi_ron_honba == "first" and TENHOU.multi_ron_riichi == "first"
