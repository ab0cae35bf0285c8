"""Final results: rank, uma, oka, leftover sticks, substitutes and penalties (EMA 2025 3.7).

Penalties are deducted after uma and never change the ranks (EMA 2025 6.1.4).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from .errors import RecordError, as_int
from .rules import Ruleset
from .validate import MAX_PENALTY_POINTS, parse_substitutes, penalty_points


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
    """The ``final`` object of the replay output (formats/game-record.md), from penalties and
    substitutes as a record writes them (parsed by validate.py's ``penalty_points`` and
    ``parse_substitutes``).

    ``scores`` are the table scores; sticks left on the table go to first place (EMA 2025
    3.7, split on a tie, decimals rounded down) and are included in the returned ``scores``.
    """
    check_final_scores(scores=scores, rules=rules, riichi_sticks_left=riichi_sticks_left)
    substituted = parse_substitutes(substitutes, rules)
    deducted = [penalty_points(p, i, rules) for i, p in enumerate(penalties)]
    return _tally(scores, rules, riichi_sticks_left, deducted, substituted)


def final_results_of_replay(
    *,
    scores: Sequence[int],
    rules: Ruleset,
    riichi_sticks_left: int,
    penalties: Sequence[tuple[int, int]],
    substitutes: Mapping[int, str],
) -> dict[str, Any]:
    """``final_results`` of a replayed record, whose penalties ((seat, points), the chombo
    hands' added) and substitutes (seat -> "start" | "during") validate.py has parsed."""
    check_final_scores(scores=scores, rules=rules, riichi_sticks_left=riichi_sticks_left)
    for i, (_seat, points) in enumerate(penalties):
        if not 0 < points <= MAX_PENALTY_POINTS:
            # A chombo hand's penalty is the rules' chombo.points (EMA 2025 3.4.6), which a
            # ruleset may set outside the bounds that ``penalty_points`` holds a record to.
            raise RecordError(
                f"points must be a whole number from 1 to {MAX_PENALTY_POINTS:,}",
                field=f"penalties[{i}].points",
            )
    return _tally(scores, rules, riichi_sticks_left, penalties, substitutes)


def _tally(
    scores: Sequence[int],
    rules: Ruleset,
    riichi_sticks_left: int,
    penalties: Sequence[tuple[int, int]],
    subs: Mapping[int, str],
) -> dict[str, Any]:
    """Ranks, uma, oka, leftover sticks, substitutes' scores and penalties (EMA 2025 3.7)."""
    n = rules.players
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
    for seat, points in penalties:
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
