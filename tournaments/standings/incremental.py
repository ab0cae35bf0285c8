"""The one-game standings update: replace a game's contribution, re-rank only what moved.

This runs after every hand a referee enters, so it is written for speed: a handful of plain
SQL statements (the ORM's query building costs more than the queries) against the rows of the
game's players and the band of rows whose place can change. The arithmetic is shared with the
full rebuild (``ranking.py``), and tests/standings checks that both give identical rows.

Which rows can change place: a row whose total lies outside every touched player's move (old
to new total) has the same players ahead of it as before and nobody joined or left its tie,
so it keeps its rank and tie-break values. Only the merged bands of those moves are ranked,
each starting at 1 + the number of ranked players above it.
"""

from __future__ import annotations

import json
from bisect import bisect_right
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.db import connection

from scoring.models import Game, GameSeat
from scoring.summary import GameSummary
from tournaments.models import Cut, Seat, Session, StandingRow, Table, Tournament

from .ranking import Aggregate, Entry, Rankable, Ranked, rank_players, tie_breaks_of


class NotLocal(Exception):
    """The change is not a one-game change (no rows yet, a new player, ...): rebuild."""


def _q(name: str) -> str:
    return connection.ops.quote_name(name)


def _table(model: type[Any]) -> str:
    return _q(model._meta.db_table)


def _json(value: Any) -> Any:
    """JSON columns come back as text from SQLite and decoded from PostgreSQL."""
    return json.loads(value) if isinstance(value, str) else value


def _json_param() -> str:
    return "%s::jsonb" if connection.vendor == "postgresql" else "%s"


def bands(moves: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    """Merged total ranges [low, high] covering each player's move from old to new total."""
    merged: list[tuple[int, int]] = []
    for low, high in sorted((min(a, b), max(a, b)) for a, b in moves):
        if merged and low <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], high))
        else:
            merged.append((low, high))
    return merged


class _Row:
    __slots__ = (
        "disqualified",
        "dropped",
        "entries",
        "id",
        "is_substitute",
        "penalties",
        "player_id",
        "rank",
        "total",
    )

    def __init__(self, values: Sequence[Any]) -> None:
        (
            self.id,
            self.player_id,
            self.rank,
            self.total,
            self.penalties,
            self.is_substitute,
            self.dropped,
            self.disqualified,
            per_session,
        ) = values
        self.entries: list[Entry] = _json(per_session)


def load_tournament(cursor: Any, tournament_id: int) -> tuple[list[str], str, dict[str, Any]]:
    """Lock the tournament row (serializes recomputes) and read its standings settings.

    NO KEY UPDATE where the database has it: it still serializes recomputes, but does not hold
    up the inserts that merely reference the tournament (a hand's audit entry) meanwhile.
    """
    features = connection.features
    lock = (
        " FOR NO KEY UPDATE"
        if features.has_select_for_no_key_update
        else " FOR UPDATE"
        if features.has_select_for_update
        else ""
    )
    cursor.execute(
        f"SELECT tie_breaks, ruleset, rule_overrides, EXISTS (SELECT 1 FROM {_table(Cut)} "
        f"WHERE tournament_id = %s) FROM {_table(Tournament)} WHERE id = %s{lock}",
        [tournament_id, tournament_id],
    )
    found = cursor.fetchone()
    if found is None:
        raise Tournament.DoesNotExist(tournament_id)
    if found[3]:
        # Issue 32.2: after a cut the ranking is by stage, not by total (standings/cuts.py).
        raise NotLocal("the tournament has cuts")
    return list(tie_breaks_of(_json(found[0]))), found[1], _json(found[2]) or {}


def load_game(cursor: Any, tournament_id: int, game_id: int) -> dict[str, Any]:
    """The game's table, session, status, cached summary, substitutes, and who sat where."""

    cursor.execute(
        f"SELECT g.status, g.summary, g.substitutes, t.id, t.number, s.number "
        f"FROM {_table(Game)} g JOIN {_table(Table)} t ON t.game_id = g.id "
        f"JOIN {_table(Session)} s ON s.id = t.session_id "
        f"WHERE g.id = %s AND s.tournament_id = %s",
        [game_id, tournament_id],
    )
    found = cursor.fetchone()
    if found is None:
        raise NotLocal("the game is not in this tournament")
    status, summary, substitutes, table_id, table, session = found
    cursor.execute(
        f"SELECT 0, seat, player_id FROM {_table(GameSeat)} WHERE game_id = %s "
        f"UNION ALL SELECT 1, wind, player_id FROM {_table(Seat)} WHERE table_id = %s",
        [game_id, table_id],
    )
    sat: dict[int, int] = {}
    seated: dict[int, int] = {}
    for kind, seat, player in cursor.fetchall():
        (seated if kind else sat)[seat] = player
    summary = _json(summary)
    return {
        "finished": status == Game.Status.FINISHED,
        "final": GameSummary.of(summary).final,
        "substitutes": _json(substitutes) or [],
        "table_id": table_id,
        "table": table,
        "session": session,
        "sat": sat,
        "seated": seated,
    }


def load_rows(cursor: Any, tournament_id: int, players: Iterable[int]) -> dict[int, _Row]:
    ids = sorted(set(players))
    if not ids:
        return {}
    marks = ", ".join(["%s"] * len(ids))
    cursor.execute(
        f"SELECT id, player_id, {_q('rank')}, total, penalties, is_substitute, dropped, "
        f"disqualified, per_session "
        f"FROM {_table(StandingRow)} WHERE tournament_id = %s AND player_id IN ({marks})",
        [tournament_id, *ids],
    )
    return {row.player_id: row for row in map(_Row, cursor.fetchall())}


def rerank(
    cursor: Any,
    tournament_id: int,
    tie_breaks: Sequence[str],
    touched: Mapping[int, tuple[list[Entry], bool]],
    rows: Mapping[int, _Row],
    aggregates: Mapping[int, Aggregate],
) -> dict[int, Ranked]:
    """New ranks of the touched players; shifted ranks and tie-break values of the other rows
    in the moved bands are written here."""
    rankable = {
        pid: Rankable(pid, aggregates[pid].total, aggregates[pid].keys, not unranked)
        for pid, (_entries, unranked) in touched.items()
    }
    ranks = rank_players([r for r in rankable.values() if not r.ranked], tie_breaks, lambda ids: {})
    moving = [pid for pid, r in rankable.items() if r.ranked]
    if not moving:
        return ranks
    moved_bands = bands((rows[pid].total, aggregates[pid].total) for pid in moving)
    table = _table(StandingRow)
    # Counted and filtered in the database on the row's leading columns; the touched players
    # are taken out here (by their stored, old totals).
    counts = ", ".join("COUNT(CASE WHEN total > %s THEN 1 END)" for _ in moved_bands)
    ranges = " OR ".join("total BETWEEN %s AND %s" for _ in moved_bands)
    cursor.execute(
        f"SELECT {counts} FROM {table} WHERE tournament_id = %s AND {_q('rank')} IS NOT NULL",
        [*[high for _low, high in moved_bands], tournament_id],
    )
    above = list(cursor.fetchone())
    for i, (_low, high) in enumerate(moved_bands):
        above[i] -= sum(
            1 for pid in touched if rows[pid].rank is not None and rows[pid].total > high
        )
    cursor.execute(
        f"SELECT id, player_id, total, {_q('rank')}, tie_break_values FROM {table} "
        f"WHERE tournament_id = %s AND {_q('rank')} IS NOT NULL AND ({ranges})",
        [tournament_id, *[v for band in moved_bands for v in band]],
    )
    in_band = [(i, p, t, r, _json(v)) for i, p, t, r, v in cursor.fetchall() if p not in touched]
    static_index = [(i, n) for i, n in enumerate(tie_breaks) if n != "head_to_head"]

    def entries_of(ids: list[int]) -> dict[int, list[Entry]]:
        out = {pid: touched[pid][0] for pid in ids if pid in touched}
        rest = [pid for pid in ids if pid not in touched]
        out.update(
            {pid: row.entries for pid, row in load_rows(cursor, tournament_id, rest).items()}
        )
        return out

    new_totals = sorted(aggregates[pid].total for pid in moving)
    shifted: list[tuple[int | None, int]] = []
    retied: list[tuple[str, int]] = []
    for i, (low, high) in enumerate(moved_bands):
        start = above[i] + len(new_totals) - bisect_right(new_totals, high) + 1
        members = [m for m in in_band if low <= m[2] <= high]
        players = [rankable[pid] for pid in moving if low <= aggregates[pid].total <= high]
        for _id, pid, total, _rank, tbv in members:
            keys = {n: tbv[i] if i < len(tbv) else None for i, n in static_index}
            players.append(Rankable(pid, total, keys, True))
        band_ranks = rank_players(players, tie_breaks, entries_of, start=start)
        for row_id, pid, _total, rank, tbv in members:
            r = band_ranks[pid]
            if r.rank != rank:
                shifted.append((r.rank, row_id))
            if r.tie_break_values != tbv:
                retied.append((json.dumps(r.tie_break_values), row_id))
        ranks.update({pid: band_ranks[pid] for pid in moving if pid in band_ranks})
    if shifted:
        cursor.executemany(f"UPDATE {table} SET {_q('rank')} = %s WHERE id = %s", shifted)
    if retied:
        cursor.executemany(
            f"UPDATE {table} SET tie_break_values = {_json_param()} WHERE id = %s", retied
        )
    return ranks


def write_rows(cursor: Any, values: Sequence[tuple[int, dict[str, Any]]]) -> None:
    """Update whole rows: (row id, {field: value})."""
    if not values:
        return
    fields = list(values[0][1])
    json_fields = {"per_session", "tie_break_values"}
    assignments = ", ".join(
        f"{_q(f)} = {_json_param() if f in json_fields else '%s'}" for f in fields
    )
    cursor.executemany(
        f"UPDATE {_table(StandingRow)} SET {assignments} WHERE id = %s",
        [
            (*[json.dumps(v[f]) if f in json_fields else v[f] for f in fields], row_id)
            for row_id, v in values
        ],
    )
