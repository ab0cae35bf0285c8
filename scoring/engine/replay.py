"""Replay a game record (formats/game-record.md) into per-hand scores and final results.

One pass, one module after the other: ``validate.py`` parses the whole record (its rules,
hands, penalties, substitutes), ``settle.py`` and ``flow.py`` play the hands, ``results.py``
totals them; none of them calls back into one already done.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .errors import RecordError
from .flow import START, advance, time_up
from .results import final_results_of_replay
from .settle import settle
from .validate import parse_record


def _run(record: Mapping[str, object]) -> dict[str, Any]:
    """Parse the record, play its hands (or take a paper sheet's scores), then total them once
    if the game is over."""
    rec = parse_record(record)
    rules = rec.rules
    out_hands: list[dict[str, object]] = []
    penalties = list(rec.penalties)  # (seat, points): the chombo hands' are added below
    ended_by: str | None = None
    coming: dict[str, object] | None = None  # the next hand's state while the game goes on
    if rec.final_scores is not None:
        # A paper score sheet (extension ``final_scores``): no hands, the results at once.
        table_scores, sticks = rec.final_scores
        scores = list(table_scores)
        ended_by = "final_scores"
    else:
        scores = [rules.start_points] * rules.players
        state = START
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
                penalties.append(settled.penalty)
            state, ended_by = advance(
                state, settled, scores, rules, more_hands=i + 1 < len(rec.hands), hand=hand
            )
            if ended_by is None and time_up(rules, signal, i):
                # EMA 2025 7.4: the signal hand and one more (a chombo counts) have been played.
                ended_by = "time"
        if ended_by is None and rec.end == "time" and rec.hands:
            ended_by = "time"  # EMA 2025 7.4: the session stopped after the last listed hand
        sticks = state.sticks
        if ended_by is None:
            coming = state.as_dict()
    final: dict[str, Any] | None = None
    if ended_by is not None:
        final = final_results_of_replay(
            scores=scores,
            rules=rules,
            riichi_sticks_left=sticks,
            penalties=penalties,
            substitutes=rec.substitutes,
        )
    return {
        "hands": out_hands,
        "final": final,
        "ended_by": ended_by,
        "next": coming,
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
    return _run(record)


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
