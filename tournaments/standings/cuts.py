"""Standings of a tournament with cuts (issue 32.2, docs/finals.md): pure arithmetic.

A cut after session k to the top N splits the tournament into stages. The players it keeps
(``qualified``) play on; the others keep their place at the cut and rank below everyone the
cut kept, in their order at that cut. With several cuts (32 -> 16 -> 4) the players out at
the last cut rank right below the finalists, those out at the cut before below them, ...

Each stage ranks its players on a window of sessions: its own sessions, and with
``carry_over`` also the window of the stage before (points carried over), else from zero. A
tournament penalty counts in the window of its session; one without a session in the stage
it was given in (``position``). The totals, tie-break values, games and average placement of
a row are those of the window its rank comes from.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .ranking import Aggregate, Entry, Rankable, Ranked, aggregate, rank_players


@dataclass(frozen=True)
class CutRule:
    after_session: int
    carry_over: bool
    qualified: frozenset[int]
    created_at: float  # a timestamp: a penalty without a session given after it is later


@dataclass(frozen=True)
class PenaltyAt:
    points: int
    position: float  # its session's number, or between sessions (see ``penalty_position``)


@dataclass
class Placed:
    aggregate: Aggregate
    ranked: Ranked
    qualified: bool = False
    out_after_session: int | None = None


def penalty_position(session: int | None, given_at: float, cuts: Sequence[CutRule]) -> float:
    """Where a penalty falls among the sessions: its session; without one, just after the
    last cut made before it was given (0.5 before any cut), so it counts in that stage."""
    if session is not None:
        return float(session)
    before = [c.after_session for c in cuts if c.created_at <= given_at]
    return max(before, default=0) + 0.5


def _window(
    entries: Sequence[Entry], penalties: Sequence[PenaltyAt], low: int, high: float
) -> tuple[list[Entry], int]:
    return (
        [e for e in entries if low < int(e["session"]) <= high],
        sum(p.points for p in penalties if low < p.position <= high),
    )


def rank_with_cuts(
    *,
    entries: Mapping[int, Sequence[Entry]],
    penalties: Mapping[int, Sequence[PenaltyAt]],
    ranked: Sequence[int],
    cuts: Sequence[CutRule],
    tie_breaks: Sequence[str],
    players_per_table: int,
) -> dict[int, Placed]:
    """Every ranked player's row values and final place (``ranked``: the players who rank at
    all; substitutes and disqualified players are left to the caller). ``cuts`` in session
    order."""

    def stage(field: list[int], low: int, high: float) -> dict[int, Placed]:
        windows = {
            pid: _window(entries.get(pid, ()), penalties.get(pid, ()), low, high) for pid in field
        }
        aggs = {
            pid: aggregate(w[0], penalties=w[1], players_per_table=players_per_table)
            for pid, w in windows.items()
        }
        ranks = rank_players(
            [Rankable(pid, aggs[pid].total, aggs[pid].keys) for pid in field],
            tie_breaks,
            lambda ids: {pid: windows[pid][0] for pid in ids},
        )
        return {pid: Placed(aggs[pid], ranks[pid]) for pid in field}

    field = list(ranked)
    low = 0
    out_tiers: list[list[int]] = []
    placed: dict[int, Placed] = {}
    for cut in cuts:
        at_cut = stage(field, low, cut.after_session)
        out = [pid for pid in field if pid not in cut.qualified]
        for pid in out:
            placed[pid] = at_cut[pid]
            placed[pid].out_after_session = cut.after_session
        out_tiers.append(sorted(out, key=lambda pid: (at_cut[pid].ranked.rank or 0, pid)))
        field = [pid for pid in field if pid in cut.qualified]
        if not cut.carry_over:
            low = cut.after_session  # the next stage starts again from zero
    final = stage(field, low, float("inf"))
    for placed_row in final.values():
        placed_row.qualified = bool(cuts)
    placed.update(final)

    # Below the qualified: those out at the last cut, then the cut before, ... each group in
    # its order at its cut (players tied there after every tie-break share the place).
    position = len(field) + 1
    for tier in reversed(out_tiers):
        previous: int | None = None
        place = position
        for i, pid in enumerate(tier):
            rank_at_cut = placed[pid].ranked.rank
            if previous is None or rank_at_cut != previous:
                place = position + i
            placed[pid].ranked.rank = place
            previous = rank_at_cut
        position += len(tier)
    return placed
