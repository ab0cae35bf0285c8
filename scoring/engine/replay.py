"""Replay a game record (formats/game-record.md) into per-hand scores and final results."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .errors import RecordError
from .flow import START, advance, time_up
from .results import final_results
from .settle import settle
from .validate import Record, parse_record


def _sheet(rec: Record) -> dict[str, Any]:
    """A paper score sheet (extension ``final_scores``): no hands, the results at once."""
    assert rec.final_scores is not None
    scores, sticks = rec.final_scores
    final = final_results(
        scores=scores,
        rules=rec.rules,
        riichi_sticks_left=sticks,
        penalties=rec.penalties,
        substitutes=rec.substitutes,
    )
    return {
        "hands": [],
        "final": final,
        "ended_by": "final_scores",
        "next": None,
        "ruleset": rec.rules.id,
    }


def _run(rec: Record) -> dict[str, Any]:
    if rec.final_scores is not None:
        return _sheet(rec)
    rules = rec.rules
    scores = [rules.start_points] * rules.players
    state = START
    ended_by: str | None = None
    out_hands: list[dict[str, object]] = []
    penalties: list[Mapping[str, object]] = list(rec.penalties)
    signal: int | None = None  # EMA 2025 7.4: the hand in progress at the time signal
    for i, hand in enumerate(rec.hands):
        if ended_by is not None:
            raise RecordError(_over_message(i, ended_by, signal), hand=i, field="outcome")
        if hand.time_signal and rules.time_limit == "ema":
            signal = i
        settled = settle(hand, state.table(), rules)
        scores = [s + d for s, d in zip(scores, settled.deltas, strict=True)]
        out_hands.append(
            {**state.as_dict(), "deltas": list(settled.deltas), "scores": list(scores)}
        )
        if settled.penalty is not None:  # EMA 2025 3.4.6: deducted after uma
            seat, points = settled.penalty
            penalties.append(
                {"seat": seat, "points": points, "kind": "chombo", "note": f"hand {i}"}
            )
        state, ended_by = advance(
            state, settled, scores, rules, more_hands=i + 1 < len(rec.hands), hand=hand
        )
        if ended_by is None and time_up(rules, signal, i):
            # EMA 2025 7.4: the signal hand and one more (a chombo counts) have been played.
            ended_by = "time"
    if ended_by is None and rec.end == "time" and rec.hands:
        ended_by = "time"  # EMA 2025 7.4: the session stopped after the last listed hand
    final: dict[str, Any] | None = None
    if ended_by is not None:
        final = final_results(
            scores=scores,
            rules=rules,
            riichi_sticks_left=state.sticks,
            penalties=penalties,
            substitutes=rec.substitutes,
        )
    return {
        "hands": out_hands,
        "final": final,
        "ended_by": ended_by,
        "next": None if ended_by is not None else state.as_dict(),
        "ruleset": rules.id,
    }


def _over_message(i: int, ended_by: str, signal: int | None) -> str:
    if ended_by == "time" and signal is not None:
        # EMA 2025 7.4: the signal hand and one more hand (a chombo counts) were played.
        return (
            f"the game was over after hand {i - 1} (time: the EMA 2025 7.4 time signal "
            f"sounded during hand {signal}, and one more hand has been played)"
        )
    return f"the game was over after hand {i - 1} ({ended_by})"


def replay(record: Mapping[str, object]) -> dict[str, Any]:
    """The "Replay output" of game-record.md, plus ``next`` (the coming hand's round, honba,
    riichi sticks and dealer; null once the game is over) and ``ruleset``.

    A game still in progress (the rules have not ended it and ``end`` is not "time") has
    ``final`` and ``ended_by`` null. Raises RecordError naming the hand and field.

    EMA 2025 7.4 (engine extension, scoring/engine/README.md): under ``time_limit: "ema"``
    the hand marked ``"time_signal": true`` and one more hand are played, a chombo counting
    as one of them; the game then ends with ``ended_by`` "time" and ``next`` null (unless the
    rules ended it first), and a further hand is a RecordError on its ``outcome``.
    """
    return _run(parse_record(record))


def preview_hand(record: Mapping[str, object], hand: Mapping[str, object]) -> dict[str, Any]:
    """The replay entry of ``hand`` appended to ``record`` (RecordError: hand = len(hands))."""
    hands = record.get("hands", [])
    if not isinstance(hands, list):
        raise RecordError("hands must be a list", field="hands")
    result = replay({**record, "hands": [*hands, hand], "end": "complete"})
    return {
        **result["hands"][-1],
        "final": result["final"],
        "ended_by": result["ended_by"],
        "next": result["next"],
    }
