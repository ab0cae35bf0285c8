"""Final results: rank, uma, oka, leftover sticks, substitutes and penalties (EMA 2025 3.7).

Penalties are deducted after uma and never change the ranks (EMA 2025 6.1.4).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from .errors import RecordError, as_int
from .rules import Ruleset

PENALTY_KINDS = ("chombo", "lateness", "obstruction", "score_sheet", "all_last_sheet", "other")


def check_final_scores(
    *, scores: Sequence[int], rules: Ruleset, riichi_sticks_left: int = 0
) -> None:
    """Raise RecordError unless the scores plus the sticks left on the table add up."""
    if len(scores) != rules.players or any(as_int(s) is None for s in scores):
        raise RecordError(f"need {rules.players} integer scores", field="scores")
    if as_int(riichi_sticks_left) is None or riichi_sticks_left < 0:
        raise RecordError(
            "riichi sticks left must be a non-negative integer", field="riichi_sticks_left"
        )
    expected = rules.players * rules.start_points
    total = sum(scores) + riichi_sticks_left * rules.riichi_stick
    if total != expected:
        raise RecordError(
            f"scores plus sticks on the table add up to {total}, not {expected}", field="scores"
        )


def _order(scores: Sequence[int], seats: Sequence[int]) -> list[int]:
    """Seats by score, ties by seat nearer the starting East."""
    return sorted(seats, key=lambda s: (-scores[s], s))


def _groups(scores: Sequence[int], seats: Sequence[int], tie_break: str) -> list[list[int]]:
    """Consecutive places: tied seats share one group under ``split`` (EMA 2025 3.7.1)."""
    groups: list[list[int]] = []
    for seat in _order(scores, seats):
        if groups and tie_break == "split" and scores[groups[-1][0]] == scores[seat]:
            groups[-1].append(seat)
        else:
            groups.append([seat])
    return groups


def _share(total: int, seats: list[int], into: list[int]) -> None:
    """Split evenly; the points left by integer division go one each to the first seats."""
    base, extra = divmod(total, len(seats))
    for i, seat in enumerate(sorted(seats)):
        into[seat] += base + (1 if i < extra else 0)


def _place_bonus(
    scores: Sequence[int], seats: Sequence[int], bonus: Sequence[int], rules: Ruleset
) -> tuple[list[int], list[int]]:
    """Per-seat bonus from ``bonus`` by place, and the ranks (1-based, shared when split)."""
    out = [0] * rules.players
    rank = [0] * rules.players
    place = 0
    for group in _groups(scores, seats, rules.tie_break):
        _share(sum(bonus[place : place + len(group)]), group, out)
        for seat in group:
            rank[seat] = place + 1
        place += len(group)
    return out, rank


# Chosen bounds (issue 16.7): a penalty above a million points exists in no rulebook (EMA 2025
# 7.1-7.5 deal in thousands); minutes late beyond a day are a typing error.
MAX_PENALTY_POINTS = 1_000_000
MAX_PENALTY_MINUTES = 24 * 60


# EMA 2025 6.12: obstruction is "8,000 or 12,000 points, or in serious or repeated cases ...
# between 12,000 and 48,000".
OBSTRUCTION_MIN, OBSTRUCTION_SERIOUS, OBSTRUCTION_MAX = 8000, 12000, 48000


def penalty_amount_problem(kind: object, points: int, rules: Ruleset) -> str | None:
    """Why ``points`` is not an amount the rule text allows for a penalty of ``kind``, or
    None. Under EMA rules (ruleset ids ``ema-*``): obstruction 8,000, or 12,000 to 48,000
    (EMA 2025 6.12); score sheet a multiple of 2,000, each player's 2,000 per mistake or
    unsigned sheet (7.5); lateness a multiple of 1,000, per started minute (7.2). Other
    rulesets do not fix these amounts."""
    if not rules.id.startswith("ema"):
        return None
    if (
        kind == "obstruction"
        and points != OBSTRUCTION_MIN
        and not OBSTRUCTION_SERIOUS <= points <= OBSTRUCTION_MAX
    ):
        return (
            f"obstruction is {OBSTRUCTION_MIN:,} or {OBSTRUCTION_SERIOUS:,} points, or between "
            f"{OBSTRUCTION_SERIOUS:,} and {OBSTRUCTION_MAX:,} in serious or repeated cases "
            f"(EMA 2025 6.12), not {points:,}"
        )
    if kind == "score_sheet" and points % rules.score_sheet_penalty:
        return (
            f"a score-sheet penalty is {rules.score_sheet_penalty:,} points per mistake or "
            f"unsigned sheet (EMA 2025 7.5): a multiple of {rules.score_sheet_penalty:,}, "
            f"not {points:,}"
        )
    if kind == "lateness" and points % rules.lateness_per_minute:
        return (
            f"lateness is {rules.lateness_per_minute:,} points per started minute (EMA 2025 "
            f"7.2): a multiple of {rules.lateness_per_minute:,}, not {points:,}"
        )
    return None


def penalty_points(p: Mapping[str, object], i: int, rules: Ruleset) -> tuple[int, int]:
    """(seat, points) of penalty ``i``; the amount from the rules where the kind fixes it."""
    field = f"penalties[{i}]"
    if not isinstance(p, Mapping):
        raise RecordError("a penalty must be an object", field=field)
    seat, kind, points = as_int(p.get("seat")), p.get("kind", "other"), p.get("points")
    if seat is None or not 0 <= seat < rules.players:
        raise RecordError(f"seat must be 0..{rules.players - 1}", field=f"{field}.seat")
    if kind not in PENALTY_KINDS:
        raise RecordError(f"kind must be one of {', '.join(PENALTY_KINDS)}", field=f"{field}.kind")
    cap = rules.lateness_per_minute * rules.lateness_max_minutes
    if kind == "lateness" and points is None:
        minutes = p.get("minutes")
        if (
            not isinstance(minutes, (int, float))
            or isinstance(minutes, bool)
            or not 0 < minutes <= MAX_PENALTY_MINUTES  # also NaN and infinity (issue 16.7)
        ):
            raise RecordError(
                f"lateness needs points or minutes (1 to {MAX_PENALTY_MINUTES})",
                field=f"{field}.minutes",
            )
        points = math.ceil(minutes) * rules.lateness_per_minute  # EMA 2025 7.2: per started minute
    if points is None:
        defaults = {
            "score_sheet": rules.score_sheet_penalty,  # EMA 2025 7.5
            "all_last_sheet": rules.all_last_sheet_penalty,  # EMA 2025 6.10
            # A paper sheet's chombo (EMA 2025 3.4.6), where the rules deduct it after uma.
            "chombo": rules.chombo.points if rules.chombo.mode == "penalty" else None,
        }
        points = defaults.get(str(kind))
    amount = as_int(points)
    if amount is None or not 0 < amount <= MAX_PENALTY_POINTS:
        raise RecordError(
            f"points must be a whole number from 1 to {MAX_PENALTY_POINTS:,}",
            field=f"{field}.points",
        )
    if kind == "lateness" and amount > cap:
        # EMA 2025 7.3: later than 10 minutes means a substitute, not a lateness penalty.
        raise RecordError(
            f"lateness is at most {cap}; a later player is substituted", field=f"{field}.points"
        )
    return seat, amount


def parse_substitutes(subs: Sequence[Mapping[str, object]], rules: Ruleset) -> dict[int, str]:
    """Seat -> "start" | "during" (EMA 2025 7.3)."""
    out: dict[int, str] = {}
    for i, s in enumerate(subs):
        field = f"substitutes[{i}]"
        if rules.substitute_rule == "none":
            raise RecordError("these rules have no substitutes", field=field)
        if not isinstance(s, Mapping):
            raise RecordError("a substitute must be an object", field=field)
        seat, when = as_int(s.get("seat")), s.get("from")
        if seat is None or not 0 <= seat < rules.players:
            raise RecordError(f"seat must be 0..{rules.players - 1}", field=f"{field}.seat")
        if when not in ("start", "during"):
            raise RecordError('from must be "start" or "during"', field=f"{field}.from")
        if seat in out:
            raise RecordError("the same seat is substituted twice", field=f"{field}.seat")
        out[seat] = str(when)
    return out


def _tenhou_round(value: int) -> int:
    """To the nearest 1,000, a remainder of 500 or less toward zero (game-record.md)."""
    q, r = divmod(abs(value), 1000)
    return int(math.copysign((q + (1 if r > 500 else 0)) * 1000, value))


def final_results(
    *,
    scores: Sequence[int],
    rules: Ruleset,
    riichi_sticks_left: int = 0,
    penalties: Sequence[Mapping[str, object]] = (),
    substitutes: Sequence[Mapping[str, object]] = (),
) -> dict[str, Any]:
    """The ``final`` object of the replay output (formats/game-record.md).

    ``scores`` are the table scores; sticks left on the table go to first place (EMA 2025
    3.7, split on a tie, decimals rounded down) and are included in the returned ``scores``.
    """
    check_final_scores(scores=scores, rules=rules, riichi_sticks_left=riichi_sticks_left)
    n = rules.players
    subs = parse_substitutes(substitutes, rules)
    seats = list(range(n))
    # Oka = (return - start) x players, to first place (game-record.md; Ari-Ari 9.2 step 4).
    oka_bonus = [(rules.return_points - rules.start_points) * n] + [0] * (n - 1)
    uma, rank = _place_bonus(scores, seats, rules.uma, rules)
    oka, _ = _place_bonus(scores, seats, oka_bonus, rules)

    # EMA 2025 7.3: a substitute scores -15,000 and -15,000 uma. From the start their score
    # still places the others; during the game the others take the top places among
    # themselves ("the other players will receive 15,000, 5,000 and -5,000 points") and
    # the substituted seat is last. (Chosen: oka follows the same places.)
    during = [s for s, when in subs.items() if when == "during"]
    if during:
        others = [s for s in seats if s not in during]
        uma, rank = _place_bonus(scores, others, rules.uma, rules)
        oka, _ = _place_bonus(scores, others, oka_bonus, rules)
        for i, seat in enumerate(sorted(during)):  # the last place(s), shared on "split"
            rank[seat] = len(others) + 1 + (0 if rules.tie_break == "split" else i)
    for seat in subs:
        uma[seat], oka[seat] = rules.substitute_uma, 0

    sticks = [0] * n
    if rules.leftover_riichi == "first_place" and riichi_sticks_left:
        firsts = [s for s in seats if rank[s] == 1]
        for seat in firsts:  # EMA 2025 3.7: split on a tie, decimals rounded down
            sticks[seat] = riichi_sticks_left * rules.riichi_stick // len(firsts)
    final_scores = [scores[s] + sticks[s] for s in seats]

    raw = [final_scores[s] - rules.return_points + uma[s] + oka[s] for s in seats]
    for seat in subs:
        raw[seat] = rules.substitute_points + rules.substitute_uma
    if rules.result_rounding == "tenhou":
        # Tenhou: the score minus the return points is rounded first, uma added after
        # (a 25,500 second under 25k/30k, uma +10: -4.5 -> -4, +10 = +6; real owari figures
        # in tests/engine/test_engine_tenhou.py); first place takes the balance.
        order = sorted(seats, key=lambda s: (rank[s], s))
        bonus = [uma[s] + oka[s] for s in seats]
        rounded = {s: _tenhou_round(raw[s] - bonus[s]) + bonus[s] for s in order[1:]}
        rounded[order[0]] = sum(raw) - sum(rounded.values())  # first takes the balance
        raw = [rounded[s] for s in seats]

    penalty = [0] * n
    for i, p in enumerate(penalties):
        seat, points = penalty_points(p, i, rules)
        penalty[seat] += points
    return {
        "scores": final_scores,
        "rank": rank,
        "uma": uma,
        "oka": oka,
        "penalties": penalty,
        "result": [raw[s] - penalty[s] for s in seats],
        "riichi_sticks": sticks,
    }
