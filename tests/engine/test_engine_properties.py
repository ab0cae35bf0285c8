"""Property tests over thousands of random valid games (hypothesis).

Conservation: after every hand the points on the table plus the riichi sticks in the middle
equal the starting total (EMA 2025 3.3.10, 3.4.2-3.4.4: every payment is between players).
Results: they sum to minus the penalties (and minus sticks lost by rounding or the rules).
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.engine import PRESETS, final_results, load_ruleset, replay
from scoring.engine.randgame import random_record

OVERRIDES = st.fixed_dictionaries(
    {},
    optional={
        "multi_ron_riichi": st.sampled_from(["own_back", "first"]),
        "multi_ron_honba": st.sampled_from(["each", "first"]),
        "chombo": st.sampled_from(
            [{"mode": "penalty", "points": 20000}, {"mode": "reverse_mangan", "points": 8000}]
        ),
        "bust": st.booleans(),
        "west_round": st.booleans(),
        "leftover_riichi": st.sampled_from(["first_place", "lost"]),
        "tie_break": st.sampled_from(["split", "seat"]),
        "result_rounding": st.sampled_from(["none", "tenhou"]),
        "kiriage": st.booleans(),
        "time_limit": st.sampled_from(["none", "ema"]),  # EMA 2025 7.4
    },
)


@st.composite
def games(draw: st.DrawFn) -> dict[str, Any]:
    preset = draw(st.sampled_from(sorted(PRESETS)))
    overrides = draw(OVERRIDES)
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    # EMA 2025 7.4: some games carry the time signal (and may end by it).
    signal_rate = draw(st.sampled_from([0.0, 0.5]))
    return random_record(rng, preset, overrides=overrides, signal_rate=signal_rate)


def _sticks_after(hand: dict[str, Any], sticks: int) -> int:
    """An independent model of the riichi sticks in the middle after a hand."""
    if hand["outcome"] in ("ron", "tsumo"):
        return 0
    if hand["outcome"] == "chombo":
        return sticks  # EMA 2025 3.4.6: this hand's bets are returned
    return sticks + len(hand["riichi"])


@settings(max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games())
def test_points_and_sticks_conserved_after_every_hand(game: dict[str, Any]) -> None:
    rules = load_ruleset(game["ruleset"], game.get("rules"))
    total = rules.players * rules.start_points
    out = replay(game)
    sticks = 0
    for hand, entry in zip(game["hands"], out["hands"], strict=True):
        assert entry["riichi_sticks"] == sticks
        sticks = _sticks_after(hand, sticks)
        assert sum(entry["scores"]) + sticks * rules.riichi_stick == total
    final = out["final"]
    if final is None:
        assert out["next"]["riichi_sticks"] == sticks
        return
    lost = sticks * rules.riichi_stick - sum(final["riichi_sticks"])
    assert sum(final["result"]) == -sum(final["penalties"]) - lost


@settings(max_examples=1000, deadline=None)
@given(st.sampled_from(sorted(PRESETS)), st.data())
def test_results_sum_and_ranks_ignore_penalties(preset: str, data: st.DataObject) -> None:
    """EMA 2025 6.1.4: penalties come after uma and never change the ranks."""
    rules = PRESETS[preset]
    n = rules.players
    cuts = data.draw(st.lists(st.integers(-200, 800), min_size=n - 1, max_size=n - 1))
    scores = [c * 100 for c in cuts]
    scores.append(n * rules.start_points - sum(scores))
    drawn = data.draw(
        st.lists(
            st.tuples(
                st.integers(0, n - 1),
                st.integers(1, 50),
                st.sampled_from(["obstruction", "other", "score_sheet"]),
            ),
            max_size=3,
        )
    )
    penalties = [{"seat": seat, "points": k * 1000, "kind": kind} for seat, k, kind in drawn]
    plain = final_results(scores=scores, rules=rules)
    fined = final_results(scores=scores, rules=rules, penalties=penalties)
    assert fined["rank"] == plain["rank"] and fined["uma"] == plain["uma"]
    assert sum(plain["result"]) == 0
    assert sum(fined["result"]) == -sum(k * 1000 for _, k, _ in drawn)
    for a in range(n):
        for b in range(n):
            if scores[a] > scores[b]:
                assert plain["rank"][a] < plain["rank"][b]
