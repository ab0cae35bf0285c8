"""Quality figures for any seating plan."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from itertools import combinations, pairwise
from typing import Any

from .core import Plan, SeatingError, validate_plan
from .tables import revisits, revisits_least, shared_opponents_aim, shared_opponents_most
from .winds import wind_counts


@dataclass(frozen=True)
class Quality:
    players: int
    rounds: int
    extra_meetings: int  # sum over pairs of (times met - 1)
    extra_meetings_lower_bound: int  # what any plan of this size must have
    max_meetings: int  # the most times one pair meets
    wind_spread: int  # max over players of (most-used wind - least-used wind)
    min_shared_opponents_unmet: int | None  # None when every pair met
    consecutive_repeats: int  # pairs seated together in two consecutive rounds
    rank_spread_mean: float | None  # last round, positions in `ranking`; None without one
    # Pairs of one group (club, country, team; substitutes) at one table in the sessions where
    # groups are kept apart, and the least any seating must have there (a group larger than
    # the tables of a session must share some); None when no groups were given.
    group_pairs: int | None = None
    group_pairs_least: int | None = None
    # Issue 34: the other qualities of a plan. Table revisits: sum over players of (sessions -
    # distinct table numbers), and the least any numbering has (sessions past the table
    # count). Wind spread least: 0 when every player can take each wind equally often (the
    # session count a multiple of the winds), else 1. Shared opponents: the aim (the square
    # root of the field, rounded up) and the most any plan without repeats can reach here.
    table_revisits: int = 0
    table_revisits_least: int = 0
    wind_spread_least: int = 0
    shared_opponents_aim: int | None = None
    shared_opponents_most: int | None = None
    # Issue 31: the players each session seats (players and fill-ins as seated; `players`
    # counts everyone seated once, so a drop and a newcomer make 17 over two sessions of 16),
    # and that count when every session seats the same (None when they differ).
    session_players: tuple[int, ...] = ()
    players_per_session: int | None = None

    def to_dict(self) -> dict[str, int | float | None]:
        return asdict(self)

    def _shared_note(self) -> str:
        if self.min_shared_opponents_unmet is None or self.shared_opponents_aim is None:
            return ""
        most = self.shared_opponents_most
        reach = "" if most is None else f", at most {most} without repeats"
        return f" (aim {self.shared_opponents_aim}{reach})"

    def format(self) -> str:
        unmet = self.min_shared_opponents_unmet
        lines = [
            f"Players x rounds:          {self.players} x {self.rounds}",
            f"Extra meetings:            {self.extra_meetings}"
            f" (least possible {self.extra_meetings_lower_bound})",
            f"Most meetings of a pair:   {self.max_meetings}",
            f"Wind spread:               {self.wind_spread}",
            f"Wind spread least possible: {self.wind_spread_least}",
            "Fewest shared opponents of players who never met: "
            + ("- (everyone met)" if unmet is None else str(unmet))
            + self._shared_note(),
            f"Repeats in consecutive rounds: {self.consecutive_repeats}",
            f"Table revisits:            {self.table_revisits}"
            f" (least possible {self.table_revisits_least})",
        ]
        if self.rank_spread_mean is not None:
            lines.append(f"Mean rank spread per table (last round): {self.rank_spread_mean:.2f}")
        if self.group_pairs is not None:
            lines.append(
                f"Same-group pairs at a table: {self.group_pairs}"
                f" (least possible {self.group_pairs_least})"
            )
        return "\n".join(lines)


def group_pairs(
    sessions: Sequence[Sequence[Sequence[Any]]], groups: Mapping[Any, Any]
) -> tuple[int, int]:
    """(pairs of one group seated at one table, the least possible) over `sessions`. The least
    possible spreads each group as evenly as the session's tables allow: a group of g over T
    tables puts ceil(g / T) at some tables."""
    found = least = 0
    for rnd in sessions:
        tables = len(rnd)
        sizes: dict[Any, int] = {}
        for table in rnd:
            labels = [groups[p] for p in table if groups.get(p) not in (None, "")]
            for a, b in combinations(labels, 2):
                found += a == b
            for label in labels:
                sizes[label] = sizes.get(label, 0) + 1
        for g in sizes.values():
            q, r = divmod(g, max(tables, 1))
            least += r * (q + 1) * q // 2 + (tables - r) * q * (q - 1) // 2
    return found, least


def session_quality(
    sessions: Sequence[Sequence[Sequence[Any]]],
    *,
    ranking: Sequence[Any] | None = None,
    groups: Mapping[Any, Any] | None = None,
    grouped: Sequence[int] | None = None,
) -> Quality:
    """Measure a whole tournament whose sessions may seat different players (drops, late
    arrivals, substitutes): ids are any hashables; `players` counts everyone seated once.
    Wind spread is over each player's own sessions. With `groups` (id -> label), pairs of one
    group at a table are counted in the sessions `grouped` (0-based indices: those a plan seated
    with groups kept apart; all when None)."""
    ids: dict[Any, int] = {}
    for rnd in sessions:
        for table in rnd:
            for p in table:
                ids.setdefault(p, len(ids))
    plan = [[[ids[p] for p in t] for t in rnd] for rnd in sessions]
    order = None
    if ranking is not None:
        seen = set(ranking)
        order = [ids[p] for p in ranking if p in ids] + [i for p, i in ids.items() if p not in seen]
    measured = quality(plan, ranking=order, strict=False)
    if groups is None:
        return measured
    chosen = range(len(sessions)) if grouped is None else grouped
    found, least = group_pairs([sessions[i] for i in chosen if 0 <= i < len(sessions)], groups)
    return replace(measured, group_pairs=found, group_pairs_least=least)


def quality(plan: Plan, *, ranking: Sequence[int] | None = None, strict: bool = True) -> Quality:
    """Measure `plan`. `ranking` (player indices, best first) is the standings the last round
    was seated from; the rank spread of a table is its worst minus best position in it.
    `strict=False` (session_quality) lets rounds seat only some of the players."""
    if strict:
        n = validate_plan(plan)
    else:
        n = 1 + max((p for rnd in plan for t in rnd for p in t), default=-1)
    opponents = [0] * n  # bit q set when the player has met q
    meetings: dict[tuple[int, int], int] = {}
    for rnd in plan:
        for table in rnd:
            for a, b in combinations(sorted(table), 2):
                meetings[a, b] = meetings.get((a, b), 0) + 1
                opponents[a] |= 1 << b
                opponents[b] |= 1 << a
    pairs = n * (n - 1) // 2
    extra = sum(m - 1 for m in meetings.values())
    counts = wind_counts(plan, n)
    consecutive = 0
    for before, after in pairwise(plan):
        where = {p: t for t, table in enumerate(before) for p in table}
        for table in after:
            consecutive += sum(
                where.get(a, -1) == where.get(b, -2) for a, b in combinations(table, 2)
            )
    unmet: int | None = None
    if len(meetings) < pairs:
        for a in range(n):
            mine, unmet_a = opponents[a], ~opponents[a]
            for b in range(a + 1, n):
                if unmet_a >> b & 1:
                    shared = (mine & opponents[b]).bit_count()
                    if unmet is None or shared < unmet:
                        unmet = shared
            if unmet == 0:
                break
    spread: float | None = None
    if ranking is not None:
        if sorted(ranking) != list(range(n)):
            raise SeatingError(f"the ranking must list each player 0..{n - 1} exactly once")
        position = {p: i for i, p in enumerate(ranking)}
        last = plan[-1]
        spreads = [max(position[p] for p in t) - min(position[p] for p in t) for t in last if t]
        spread = sum(spreads) / len(spreads)
    sizes = [len(t) for rnd in plan for t in rnd if t]
    size = max(sizes, default=4)
    seated = tuple(len({p for t in rnd for p in t}) for rnd in plan)
    return Quality(
        session_players=seated,
        players_per_session=seated[0] if seated and len(set(seated)) == 1 else None,
        table_revisits=revisits(plan),
        table_revisits_least=revisits_least(plan),
        wind_spread_least=0 if len(plan) % size == 0 else 1,
        # More than 4 sessions (issue 34): with 4 or fewer each player meets too few.
        shared_opponents_aim=shared_opponents_aim(n) if len(plan) > 4 else None,
        shared_opponents_most=shared_opponents_most(n, len(plan), size),
        players=n,
        rounds=len(plan),
        extra_meetings=extra,
        extra_meetings_lower_bound=max(
            0, sum(len(t) * (len(t) - 1) // 2 for rnd in plan for t in rnd) - pairs
        ),
        max_meetings=max(meetings.values(), default=0),
        wind_spread=max((max(c) - min(c) for c in counts if sum(c)), default=0),
        min_shared_opponents_unmet=unmet,
        consecutive_repeats=consecutive,
        rank_spread_mean=spread,
    )
