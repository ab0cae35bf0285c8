"""Final results: uma, ties, oka, sticks, rounding, substitutes, penalties (EMA 2025 3.7, 7)."""

from __future__ import annotations

import pytest
from engine_support import draw, record

from scoring.engine import PRESETS, RecordError, check_final_scores, final_results, replay

EMA = PRESETS["ema-2025"]


def test_uma_by_rank() -> None:
    """EMA 2025 3.7.1: +15,000 / +5,000 / -5,000 / -15,000."""
    f = final_results(scores=[20000, 45000, 30000, 25000], rules=EMA)
    assert f["rank"] == [4, 1, 2, 3]
    assert f["uma"] == [-15000, 15000, 5000, -5000]
    assert f["result"] == [-25000, 30000, 5000, -10000]


def test_uma_tie_example_1() -> None:
    """EMA 2025 3.7.1 example 1: two tied first share 15,000 + 5,000: 10,000 each."""
    f = final_results(scores=[40000, 40000, 25000, 15000], rules=EMA)
    assert f["rank"] == [1, 1, 3, 4]
    assert f["uma"] == [10000, 10000, -5000, -15000]


def test_uma_tie_example_2() -> None:
    """EMA 2025 3.7.1 example 2: three tied second share -15,000: -5,000 each."""
    f = final_results(scores=[45000, 25000, 25000, 25000], rules=EMA)
    assert f["rank"] == [1, 2, 2, 2]
    assert f["uma"] == [15000, -5000, -5000, -5000]


def test_tie_by_seat() -> None:
    """game-record.md tie_break "seat": the seat nearer the starting East ranks higher."""
    f = final_results(scores=[20000, 30000, 30000, 20000], rules=PRESETS["ari-ari"])
    assert f["rank"] == [3, 1, 2, 4]
    assert f["oka"] == [0, 20000, 0, 0]


def test_ari_ari_end_of_game_example() -> None:
    """Ari-Ari 9.2: 41,300/24,900/21,800/12,000 -> 61.3/4.9/-18.2/-48.0."""
    f = final_results(scores=[41300, 24900, 21800, 12000], rules=PRESETS["ari-ari"])
    assert f["result"] == [61300, 4900, -18200, -48000]
    assert f["oka"] == [20000, 0, 0, 0]


def test_oka_split_on_tie() -> None:
    """game-record.md tie_break "split": tied players share uma and oka."""
    rules = PRESETS["ari-ari"].__class__(**{**PRESETS["ari-ari"].__dict__, "tie_break": "split"})
    f = final_results(scores=[35000, 35000, 20000, 10000], rules=rules)
    assert f["oka"] == [10000, 10000, 0, 0]
    assert f["uma"] == [20000, 20000, -10000, -30000]


def test_leftover_sticks_to_first_split_rounded_down() -> None:
    """EMA 2025 3.7: sticks left go to the winner, split on a tie, decimals rounded down."""
    f = final_results(scores=[40000, 29000, 26000, 24000], rules=EMA, riichi_sticks_left=1)
    assert f["scores"][0] == 41000 and f["riichi_sticks"] == [1000, 0, 0, 0]
    tie = final_results(scores=[35000, 35000, 29000, 20000], rules=EMA, riichi_sticks_left=1)
    assert tie["riichi_sticks"] == [500, 500, 0, 0]
    three = final_results(scores=[33000, 33000, 33000, 20000], rules=EMA, riichi_sticks_left=1)
    assert three["riichi_sticks"] == [333, 333, 333, 0]


def test_leftover_sticks_lost() -> None:
    """game-record.md leftover_riichi "lost"."""
    rules = EMA.__class__(**{**EMA.__dict__, "leftover_riichi": "lost"})
    f = final_results(scores=[40000, 29000, 26000, 24000], rules=rules, riichi_sticks_left=1)
    assert f["riichi_sticks"] == [0, 0, 0, 0] and f["scores"][0] == 40000


def test_tenhou_rounding() -> None:
    """game-record.md result_rounding (Tenhou): places 2-4 to the nearest 1,000, a remainder
    of 500 or less toward zero; first takes the balance."""
    f = final_results(scores=[35000, 30500, 19400, 15100], rules=PRESETS["tenhou"])
    # raw: 35000-30000+20000+20000=45000; 500+10000=10500; -10600-10000=-20600; -34900
    assert f["result"] == [45000 + 500 + 600 - 100, 10000, -21000, -35000]
    assert sum(f["result"]) == 0


def test_penalties_after_uma_never_change_ranks() -> None:
    """EMA 2025 6.1.4 / 3.7: penalties are deducted after uma and do not change the ranking."""
    penalties = [{"seat": 0, "points": 20000, "kind": "obstruction"}]
    f = final_results(scores=[40000, 35000, 25000, 20000], rules=EMA, penalties=penalties)
    assert f["rank"] == [1, 2, 3, 4] and f["uma"][0] == 15000
    assert f["penalties"] == [20000, 0, 0, 0]
    assert f["result"][0] == 10000 + 15000 - 20000


def test_lateness_per_started_minute() -> None:
    """EMA 2025 7.2: 1,000 per minute late, rounded up (9 min 30 s = 10,000)."""
    f = final_results(
        scores=[30000] * 4, rules=EMA, penalties=[{"seat": 1, "kind": "lateness", "minutes": 9.5}]
    )
    assert f["penalties"] == [0, 10000, 0, 0]


def test_lateness_over_ten_minutes_is_a_substitute() -> None:
    """EMA 2025 7.3: later than 10 minutes means a substitute, not a penalty."""
    with pytest.raises(RecordError) as err:
        final_results(
            scores=[30000] * 4,
            rules=EMA,
            penalties=[{"seat": 1, "kind": "lateness", "minutes": 11}],
        )
    assert err.value.field == "penalties[0].points"


def test_score_sheet_and_all_last_sheet_defaults() -> None:
    """EMA 2025 7.5: 2,000 each for a misfilled score sheet; 6.10: 8,000 for the all-last sheet."""
    penalties = [{"seat": s, "kind": "score_sheet"} for s in range(4)]
    penalties.append({"seat": 2, "kind": "all_last_sheet"})
    f = final_results(scores=[30000] * 4, rules=EMA, penalties=penalties)
    assert f["penalties"] == [2000, 2000, 10000, 2000]


def test_substitute_from_start_places_the_others() -> None:
    """EMA 2025 7.3: a substitute who wins gets -15,000 uma; the others get 5/-5/-15."""
    subs = [{"seat": 0, "from": "start"}]
    f = final_results(scores=[45000, 30000, 25000, 20000], rules=EMA, substitutes=subs)
    assert f["uma"] == [-15000, 5000, -5000, -15000]
    assert f["result"][0] == -30000


def test_substitute_during_game_ignored_for_uma() -> None:
    """EMA 2025 7.3: after the start the substitute always gets -15,000; others 15/5/-5."""
    subs = [{"seat": 0, "from": "during"}]
    f = final_results(scores=[45000, 30000, 25000, 20000], rules=EMA, substitutes=subs)
    assert f["uma"] == [-15000, 15000, 5000, -5000]
    assert f["result"] == [-30000, 15000, 0, -15000]
    # Issue 15: the places follow the uma: the others are 1st, 2nd, 3rd; the seat is last.
    assert f["rank"] == [4, 1, 2, 3]


def test_substitute_from_the_start_keeps_the_places_of_the_scores() -> None:
    """EMA 2025 7.3: from the start "the score of the substitute player is relevant for
    determining the opponents' uma": the others are placed 2nd to 4th behind the winner."""
    subs = [{"seat": 0, "from": "start"}]
    f = final_results(scores=[45000, 30000, 25000, 20000], rules=EMA, substitutes=subs)
    assert f["rank"] == [1, 2, 3, 4]
    assert f["result"] == [-30000, 5000, -10000, -25000]


def test_check_final_scores() -> None:
    """A paper sheet's final scores must add up with the sticks left on the table."""
    check_final_scores(scores=[40000, 30000, 29000, 20000], rules=EMA, riichi_sticks_left=1)
    with pytest.raises(RecordError) as err:
        check_final_scores(scores=[40000, 30000, 30000, 20000], rules=EMA, riichi_sticks_left=1)
    assert err.value.field == "scores"


def test_replayed_penalties_and_sticks() -> None:
    """Record penalties and a chombo hand both end up in final.penalties."""
    hands = [draw([0], riichi=[0]), {"outcome": "chombo", "riichi": [], "offender": 2}]
    rec = record(
        "ema-2025", hands, end="time", penalties=[{"seat": 1, "points": 3000, "kind": "lateness"}]
    )
    final = replay(rec)["final"]
    assert final["penalties"] == [0, 3000, 20000, 0]
    assert final["riichi_sticks"] == [1000, 0, 0, 0]
    assert sum(final["result"]) == -23000


def test_chombo_penalty_entries_are_not_repeated() -> None:
    """game-record.md: chombo penalties come from chombo hands, not the penalties list."""
    rec = record("ema-2025", [], penalties=[{"seat": 1, "points": 20000, "kind": "chombo"}])
    with pytest.raises(RecordError) as err:
        replay(rec)
    assert err.value.field == "penalties[0].kind"


def test_obstruction_needs_points() -> None:
    """EMA 2025 6.12: obstruction points are at the referee's discretion, so they are given."""
    with pytest.raises(RecordError) as err:
        final_results(scores=[30000] * 4, rules=EMA, penalties=[{"seat": 0, "kind": "obstruction"}])
    assert err.value.field == "penalties[0].points"


def test_no_substitutes_online() -> None:
    """Tenhou preset: no substitute rule."""
    with pytest.raises(RecordError) as err:
        final_results(
            scores=[25000] * 4, rules=PRESETS["tenhou"], substitutes=[{"seat": 0, "from": "start"}]
        )
    assert err.value.field == "substitutes[0]"
