"""The EMA 2025 7.4 time signal: the current hand, one more hand, a chombo counts as one.

The record marks the hand in progress at the signal with ``"time_signal": true`` (the
engine's optional extension of the format, scoring/engine/README.md).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from engine_support import draw, record, ron, win
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine import PRESETS, RecordError, load_ruleset, preview_hand, replay
from scoring.engine.randgame import random_record


def _hands(n: int) -> list[dict[str, Any]]:
    """Each hand the seat after the dealer wins 1,000 from the seat after that (E1, E2, ...)."""
    return [ron((i + 2) % 4, win((i + 1) % 4, 1, 30)) for i in range(n)]


def _signal(hand: dict[str, Any]) -> dict[str, Any]:
    return {**hand, "time_signal": True}


def _chombo(offender: int, riichi: list[int] | None = None) -> dict[str, Any]:
    return {"outcome": "chombo", "riichi": riichi or [], "offender": offender}


def _with_signal(hands: list[dict[str, Any]], at: int) -> list[dict[str, Any]]:
    return [_signal(h) if i == at else h for i, h in enumerate(hands)]


def test_signal_then_current_hand_then_one_more_ends_the_game() -> None:
    """EMA 2025 7.4: after the sound the current hand is finished and one more is played."""
    hands = _with_signal(_hands(4), 2)  # the signal sounds during E3
    current = replay(record("ema-2025", hands[:3]))
    assert current["ended_by"] is None and current["final"] is None
    assert current["next"] == {"round": "E4", "honba": 0, "riichi_sticks": 0, "dealer": 3}
    out = replay(record("ema-2025", hands))
    assert out["ended_by"] == "time" and out["next"] is None
    assert [h["round"] for h in out["hands"]] == ["E1", "E2", "E3", "E4"]
    # The same final results as a session stopped by hand after E4 (end: "time").
    assert out["final"] == replay(record("ema-2025", _hands(4), end="time"))["final"]


def test_signal_between_hands_marks_the_next_hand() -> None:
    """EMA 2025 3.1/7.4: a hand begins when the previous one ends, so the marked hand is the
    one in progress; a signal on the first hand ends the game after the second."""
    out = replay(record("ema-2025", _with_signal(_hands(2), 0)))
    assert out["ended_by"] == "time" and out["next"] is None


def test_chombo_after_the_signal_counts_as_the_remaining_hand() -> None:
    """EMA 2025 7.4: a chombo after the time signal is treated as one of the remaining hands;
    the chombo is still paid as EMA 2025 3.4.6 says (20,000 after uma)."""
    hands = [*_with_signal(_hands(3), 2), _chombo(1, riichi=[0])]
    out = replay(record("ema-2025", hands))
    assert out["ended_by"] == "time" and out["next"] is None
    # EMA 2025 3.4.6: the re-deal returns this hand's riichi bet, no counter, no rotation.
    assert out["hands"][-1]["round"] == "E4" and out["hands"][-1]["deltas"] == [0, 0, 0, 0]
    final = out["final"]
    assert final["penalties"] == [0, 20000, 0, 0]
    plain = replay(record("ema-2025", [*_hands(3), _chombo(1, riichi=[0])], end="time"))
    assert final == plain["final"]  # the chombo is applied exactly as without the signal
    assert final["result"][1] == plain["final"]["result"][1]


def test_chombo_paid_at_the_table_also_counts() -> None:
    """EMA 2025 7.4 with a reverse-mangan chombo (EMA 2025 3.4.6 outside tournaments)."""
    rules = {"chombo": {"mode": "reverse_mangan", "points": 8000}}
    hands = [*_with_signal(_hands(3), 2), _chombo(1)]
    out = replay(record("ema-2025", hands, rules=rules))
    assert out["ended_by"] == "time"
    assert out["hands"][-1]["deltas"] == [2000, -8000, 2000, 4000]  # seat 3 deals E4
    assert out["final"]["penalties"] == [0, 0, 0, 0]


def test_chombo_as_the_current_hand_then_one_more() -> None:
    """EMA 2025 7.4: a chombo in the hand in progress at the signal is that hand; one more."""
    hands = [*_hands(2), _signal(_chombo(3)), *_hands(1)]
    assert replay(record("ema-2025", hands[:3]))["ended_by"] is None
    out = replay(record("ema-2025", hands))
    assert out["ended_by"] == "time" and out["final"]["penalties"] == [0, 0, 0, 20000]


@pytest.mark.parametrize("last", [draw([]), _chombo(2)], ids=["draw", "chombo"])
def test_a_hand_after_the_end_by_time_is_refused(last: dict[str, Any]) -> None:
    """EMA 2025 7.4: nothing is played after the signal hand and one more."""
    hands = [*_with_signal(_hands(3), 2), _chombo(1), last]
    with pytest.raises(RecordError) as err:
        replay(record("ema-2025", hands))
    assert (err.value.hand, err.value.field) == (4, "outcome")
    assert "7.4" in err.value.message and "hand 2" in err.value.message
    # The same through hand-by-hand entry: the new hand's index and field.
    rec = record("ema-2025", hands[:4])
    with pytest.raises(RecordError) as err:
        preview_hand(rec, last)
    assert (err.value.hand, err.value.field) == (4, "outcome")


def test_preview_of_the_last_hand_reports_the_end() -> None:
    """EMA 2025 7.4: entering the remaining hand ends the game like any other end."""
    rec = record("ema-2025", _with_signal(_hands(3), 2))
    entry = preview_hand(rec, _chombo(0))
    assert entry["ended_by"] == "time" and entry["next"] is None
    assert entry["final"]["penalties"] == [20000, 0, 0, 0]


def test_without_the_signal_nothing_changes() -> None:
    """The records above without time_signal (or with false) replay as before: the game goes
    on to South 4 (EMA 2025 3.5), a chombo is a re-deal (EMA 2025 3.4.6)."""
    hands = [*_hands(3), _chombo(1, riichi=[0]), draw([]), _chombo(2)]
    out = replay(record("ema-2025", hands))
    assert out["ended_by"] is None and out["final"] is None
    # E4 noten dealer rotates with a counter (EMA 2025 3.4.5); the chombo keeps S1-1.
    assert out["next"] == {"round": "S1", "honba": 1, "riichi_sticks": 0, "dealer": 0}
    unmarked = [{**h, "time_signal": False} for h in hands]
    assert replay(record("ema-2025", unmarked)) == out
    timed = replay(record("ema-2025", hands, end="time"))
    assert timed["ended_by"] == "time" and timed["hands"] == out["hands"]
    assert timed["final"]["penalties"] == [0, 20000, 20000, 0]


def test_the_rules_end_comes_first() -> None:
    """EMA 2025 7.4: "unless a full game is already completed": South 4 still ends it."""
    full = _hands(8)
    assert replay(record("ema-2025", _with_signal(full, 6)))["ended_by"] == "south4"
    assert replay(record("ema-2025", _with_signal(full, 7)))["ended_by"] == "south4"
    with pytest.raises(RecordError) as err:
        replay(record("ema-2025", [*_with_signal(full, 7), draw([])]))
    assert (err.value.hand, err.value.field) == (8, "outcome")
    assert "south4" in err.value.message


@pytest.mark.parametrize("preset", ["wdmc-2019", "ari-ari", "san-diego", "tenhou", "wrc-2025"])
def test_club_presets_ignore_the_signal(preset: str) -> None:
    """Only EMA 2025 7.4 has the rule; other presets replay the marked record unchanged."""
    assert load_ruleset(preset).time_limit == "none"
    hands = [*_hands(3), _chombo(1), *_hands(2)]
    plain = replay(record(preset, hands))
    assert plain["ended_by"] is None
    assert replay(record(preset, _with_signal(hands, 2))) == plain


def test_a_club_game_may_opt_in() -> None:
    """The rules key ``time_limit`` can be overridden (EMA 2025 7.4 in a club game)."""
    hands = [*_with_signal(_hands(3), 2), _chombo(1)]
    out = replay(record("wdmc-2019", hands, rules={"time_limit": "ema"}))
    assert out["ended_by"] == "time" and out["next"] is None
    with pytest.raises(RecordError) as err:
        replay(record("wdmc-2019", hands, rules={"time_limit": "sometimes"}))
    assert err.value.field == "rules.time_limit"


def test_signal_field_is_checked() -> None:
    """EMA 2025 7.4: one signal per session; the mark is true or false."""
    with pytest.raises(RecordError) as err:
        replay(record("ema-2025", [{**_hands(1)[0], "time_signal": "yes"}]))
    assert (err.value.hand, err.value.field) == (0, "time_signal")
    twice = [_signal(h) for h in _hands(2)]
    for preset in ("ema-2025", "wdmc-2019"):
        with pytest.raises(RecordError) as err:
            replay(record(preset, twice))
        assert (err.value.hand, err.value.field) == (1, "time_signal")


def test_presets_cite_the_rule() -> None:
    assert PRESETS["ema-2025"].time_limit == "ema"
    assert [p for p, r in PRESETS.items() if r.time_limit == "ema"] == ["ema-2025"]


@settings(max_examples=500, deadline=None)
@given(st.sampled_from(sorted(PRESETS)), st.sampled_from(["ema", "none"]), st.integers(0, 2**32))
def test_signal_property(preset: str, limit: str, seed: int) -> None:
    """EMA 2025 7.4 over random games: at most one hand after the marked one, and the game
    is over once it is played; with time_limit "none" the mark changes nothing."""
    rng = random.Random(seed)
    game = random_record(rng, preset, overrides={"time_limit": limit}, signal_rate=1.0)
    game.pop("end")  # the rules (or the signal) alone end the game
    out = replay(game)
    hands: list[dict[str, Any]] = game["hands"]  # type: ignore[assignment]
    marked = [i for i, h in enumerate(hands) if h.get("time_signal")]
    stripped = {**game, "hands": [{**h, "time_signal": False} for h in hands]}
    if limit == "none" or not marked:
        assert out == replay(stripped)
        return
    after = len(hands) - 1 - marked[0]
    assert after <= 1
    if after == 1:
        assert out["ended_by"] is not None and out["next"] is None
    else:  # only the marked hand is played: not over by time yet (the rules may end it)
        assert out["ended_by"] != "time"
