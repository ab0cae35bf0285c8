"""Pure standings arithmetic: per-game contributions, per-player aggregates, ranking.

No database access here, so the full rebuild and the incremental update share every rule and
produce identical rows (tests/standings compares them).

A contribution is one player's share of one finished game, stored in
``StandingRow.per_session`` in this shape (``game`` first: the incremental update finds the
rows holding a game by that text)::

    {"game": 17, "session": 2, "table": 5, "seat": 1, "place": 2, "score": 34100,
     "result": 9100}

plus ``"penalty": 20000`` when the game deducted points from the seat after uma (a chombo,
EMA 2025 3.4.6): already in ``result``; the standings' penalty column shows it.

plus ``"as_substitute": true`` on the entry of a substitute who sat in for an absent player:
that entry is shown but never counted (the absent player is credited, EMA 2025 7.3).

The substituted player's own entry has ``"substituted": true``, the seat's result (-15,000
and -15,000 uma: -30,000, EMA 2025 7.3: "A player who is substituted will score -15,000
points and -15,000 uma at each session") and ``"place": null, "score": null``: none of the
substitute's table score or place, so it counts in the total (and best/worst game) but not
in the average placement, firsts, lasts, table-score or head-to-head tie-breaks (issue 15).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

# Tie-breaks a tournament may list in Tournament.tie_breaks, applied in order after the total.
# "head_to_head" compares only the players still tied; every other one is a per-player value.
TIE_BREAKS: dict[str, str] = {
    "best_game": "highest single game result",
    "most_firsts": "most first places",
    "fewest_lasts": "fewest last places",
    "average_placement": "lowest average placement",
    "total_table_score": "highest sum of table scores (before uma and oka)",
    "head_to_head": "most places above the other tied players in games they shared",
}
DEFAULT_TIE_BREAKS: tuple[str, ...] = ("best_game", "most_firsts", "head_to_head")
_LOWER_IS_BETTER = {"fewest_lasts", "average_placement"}
_MISSING = float("-inf")

Entry = dict[str, Any]


def tie_breaks_of(configured: Sequence[str] | None) -> tuple[str, ...]:
    """The tournament's tie-breaks, or the default; unknown names are an error."""
    names = tuple(configured or DEFAULT_TIE_BREAKS)
    unknown = [n for n in names if n not in TIE_BREAKS]
    if unknown:
        raise ValueError(f"unknown tie-break {unknown[0]!r} (known: {', '.join(TIE_BREAKS)})")
    return names


def game_contributions(
    *,
    game_id: int,
    session: int,
    table: int,
    final: Mapping[str, Any],
    seat_players: Mapping[int, int],
    substitutes: Sequence[Mapping[str, Any]] = (),
    table_seat_players: Mapping[int, int] | None = None,
) -> dict[int, Entry]:
    """player id -> contribution of one finished game.

    ``seat_players`` are who sat (GameSeat); ``table_seat_players`` who was seated there by the
    tournament (Seat). When a seat was substituted (game-record ``substitutes``) and the two
    differ, the seat's result (-15,000 and -15,000 uma, EMA 2025 7.3) goes to the seated
    registered player and the substitute gets an uncounted entry.
    """
    out: dict[int, Entry] = {}
    substituted = {int(s["seat"]) for s in substitutes}
    for seat, sitter in sorted(seat_players.items()):
        entry: Entry = {
            "game": game_id,
            "session": session,
            "table": table,
            "seat": seat,
            "place": int(final["rank"][seat]),
            "score": int(final["scores"][seat]),
            "result": int(final["result"][seat]),
        }
        deducted = int((final.get("penalties") or [0] * (seat + 1))[seat] or 0)
        if deducted:
            # Already in "result": what the game deducted after uma (a chombo, EMA 2025 3.4.6,
            # entered hand by hand or on the paper sheet; a record's penalties), shown in the
            # standings' penalty column beside the tournament penalties.
            entry["penalty"] = deducted
        if seat not in substituted:
            out[sitter] = entry
            continue
        # EMA 2025 7.3: the substituted player scores the seat's result and nothing else of it.
        credited = {**entry, "place": None, "score": None, "substituted": True}
        absent = (table_seat_players or {}).get(seat)
        if absent is not None and absent != sitter:
            # What the substitute was penalised in the game (a chombo) is the substitute's,
            # shown on their uncounted entry: the absent player scores exactly -15,000 and
            # -15,000 uma (EMA 2025 7.3: "will score -15,000 points and -15,000 uma").
            credited.pop("penalty", None)
            credited["result"] = entry["result"] + deducted
            out[absent] = credited
            out[sitter] = {**entry, "as_substitute": True}
        else:
            out[sitter] = credited  # the record marks the seat; nobody else is known
    return out


def game_penalties(entries: Sequence[Entry]) -> int:
    """The points the player's counted games deducted after uma (chombo, EMA 2025 3.4.6):
    already in the game results, so in the total; shown in the penalty column."""
    return sum(int(e.get("penalty") or 0) for e in entries if not e.get("as_substitute"))


def sort_entries(entries: list[Entry]) -> list[Entry]:
    return sorted(entries, key=lambda e: (e["session"], e["game"]))


@dataclass
class Aggregate:
    """A player's totals from their contributions and tournament penalties."""

    games: int
    game_total: int
    penalties: int
    average_placement: float | None
    keys: dict[str, float | int | None]

    @property
    def total(self) -> int:
        return self.game_total - self.penalties


def aggregate(entries: Sequence[Entry], *, penalties: int, players_per_table: int = 4) -> Aggregate:
    counted = [e for e in entries if not e.get("as_substitute")]
    # A substituted session has no place and no table score (EMA 2025 7.3, issue 15).
    places = [int(e["place"]) for e in counted if e.get("place") is not None]
    results = [int(e["result"]) for e in counted]
    average = round(sum(places) / len(places), 6) if places else None
    return Aggregate(
        games=len(counted),
        game_total=sum(results),
        penalties=penalties,
        average_placement=average,
        keys={
            "best_game": max(results) if results else None,
            "most_firsts": sum(1 for p in places if p == 1),
            "fewest_lasts": sum(1 for p in places if p == players_per_table),
            "average_placement": average,
            "total_table_score": sum(
                int(e["score"]) for e in counted if e.get("score") is not None
            ),
        },
    )


@dataclass
class Rankable:
    player_id: int
    total: int
    keys: Mapping[str, float | int | None]  # the per-player tie-break values
    ranked: bool = True


@dataclass
class Ranked:
    rank: int | None
    tie_break_values: list[float | int | None] = field(default_factory=list)


def _sort_value(name: str, value: float | int | None) -> float:
    """Bigger is better; a missing value (no games) sorts last."""
    if value is None:
        return _MISSING
    return -float(value) if name in _LOWER_IS_BETTER else float(value)


def head_to_head(group: Sequence[int], entries: Mapping[int, Sequence[Entry]]) -> dict[int, int]:
    """Per player: times placed above minus times placed below another group member at the
    same table (shared games only)."""
    members = set(group)
    by_game: dict[int, list[tuple[int, int]]] = {}
    for pid in group:
        for e in entries.get(pid, ()):
            if not e.get("as_substitute") and e.get("place") is not None:
                by_game.setdefault(int(e["game"]), []).append((pid, int(e["place"])))
    score = dict.fromkeys(group, 0)
    for seated in by_game.values():
        for a, place_a in seated:
            for b, place_b in seated:
                if a != b and a in members and b in members:
                    score[a] += (place_a < place_b) - (place_a > place_b)
    return score


def rank_players(
    players: Sequence[Rankable],
    tie_breaks: Sequence[str],
    entries_of: Callable[[list[int]], Mapping[int, Sequence[Entry]]],
    *,
    start: int = 1,
) -> dict[int, Ranked]:
    """Rank by total, then each tie-break in order; players still tied share the rank.

    ``entries_of(player_ids)`` supplies contributions, asked only for groups that are still
    tied when ``head_to_head`` is reached. Unranked players (substitutes) get rank None.
    ``start`` is the place of the best of ``players`` (when ranking a band of the table).
    """
    out: dict[int, Ranked] = {}
    for p in players:
        values = [None if n == "head_to_head" else p.keys.get(n) for n in tie_breaks]
        if "head_to_head" in tie_breaks:
            values[tie_breaks.index("head_to_head")] = 0
        out[p.player_id] = Ranked(rank=None, tie_break_values=values)

    by_id = {p.player_id: p for p in players}
    ranked = sorted(
        (p.player_id for p in players if p.ranked), key=lambda i: by_id[i].total, reverse=True
    )

    def split(group: list[int], level: int) -> list[list[int]]:
        if len(group) == 1 or level == len(tie_breaks):
            return [sorted(group)]
        name = tie_breaks[level]
        if name == "head_to_head":
            h2h = head_to_head(group, entries_of(group))
            for pid in group:
                out[pid].tie_break_values[level] = h2h[pid]
            value: dict[int, float] = {pid: float(h2h[pid]) for pid in group}
        else:
            value = {pid: _sort_value(name, by_id[pid].keys.get(name)) for pid in group}
        result: list[list[int]] = []
        for sub in _runs(sorted(group, key=lambda i: -value[i]), value):
            result.extend(split(sub, level + 1))
        return result

    position = start
    totals = {pid: float(by_id[pid].total) for pid in ranked}
    for tied in _runs(ranked, totals):
        for group in split(tied, 0):
            for pid in group:
                out[pid].rank = position
            position += len(group)
    return out


def _runs(ordered: list[int], value: Mapping[int, float]) -> list[list[int]]:
    """Consecutive runs of equal value in an already sorted list."""
    runs: list[list[int]] = []
    for pid in ordered:
        if runs and value[runs[-1][0]] == value[pid]:
            runs[-1].append(pid)
        else:
            runs.append([pid])
    return runs
