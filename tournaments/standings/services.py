"""Writing tournament standings (StandingRow): the full rebuild and the one-game update.

The total of a player is the sum of their finished games' results (the engine's ``result``:
after uma, oka and in-game penalties such as chombo, EMA 2025 3.7 and 6.1.4) minus their
active tournament penalties (``tournaments.Penalty``, e.g. lateness, EMA 2025 7.2).

Each row keeps the player's per-game contributions (``per_session``), so a change to one game
replaces that game's contribution in the rows of its players (subtract old, add new), then
re-ranks only the rows whose totals lie within those players' moves (old to new total):
``update_game_standings``. ``recompute_standings`` rebuilds every row from the games. Both run
in one transaction with the tournament row locked, so readers see the old table until commit
and two recomputes of the same tournament never interleave. See docs/standings.md.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import connection, transaction
from django.db.models import Q, Sum
from django.db.models.fields.json import KeyTransform

from scoring.engine import RecordError, load_ruleset
from scoring.models import Game, GameSeat
from scoring.records import game_final
from tournaments.models import Cut, Penalty, Registration, Seat, StandingRow, Tournament

from . import incremental
from .cache import renew
from .cuts import CutRule, PenaltyAt, Placed, penalty_position, rank_with_cuts
from .ranking import (
    Aggregate,
    Entry,
    Rankable,
    Ranked,
    aggregate,
    game_contributions,
    rank_players,
    sort_entries,
    tie_breaks_of,
)

logger = logging.getLogger(__name__)

_ROW_FIELDS = [
    "rank",
    "total",
    "penalties",
    "games",
    "average_placement",
    "per_session",
    "tie_break_values",
    "is_substitute",
    "role",
    "dropped",
    "disqualified",
    "qualified",
    "out_after_session",
]
_JSON_FIELDS = {"per_session", "tie_break_values"}


@dataclass
class _Player:
    player_id: int
    entries: list[Entry]
    penalties: int
    is_substitute: bool
    dropped: bool
    disqualified: bool = False
    role: str = "player"

    @property
    def ranked(self) -> bool:
        """Substitutes are shown, not ranked (EMA 2025 7.3); so are disqualified players
        (EMA 2025 6.12; the text does not say how they rank: docs/standings.md)."""
        return not self.is_substitute and not self.disqualified

    def aggregate(self, players_per_table: int) -> Aggregate:
        return aggregate(
            self.entries, penalties=self.penalties, players_per_table=players_per_table
        )


@dataclass(frozen=True)
class _FinishedGame:
    """What standings need of a finished tournament game."""

    id: int
    table_id: int
    table: int
    session: int
    final: Mapping[str, Any]
    substitutes: Sequence[Mapping[str, Any]]


# --- loading -------------------------------------------------------------------------------


def _registrations(tournament_id: int) -> dict[int, tuple[bool, bool, bool, str]]:
    """player id -> (not ranked as a substitute, dropped, disqualified, role): fill-ins and
    reserves are shown, not ranked (EMA 2025 7.3; issue 31's roles)."""
    return {
        pid: (
            role != Registration.Role.PLAYER,
            dropped_at is not None,
            disqualified_at is not None,
            role,
        )
        for pid, role, dropped_at, disqualified_at in Registration.objects.filter(
            tournament_id=tournament_id
        ).values_list("player_id", "role", "dropped_at", "disqualified_at")
    }


def _penalties(
    tournament_id: int, player_ids: Iterable[int] | None = None, hidden: Q | None = None
) -> dict[int, int]:
    """player id -> sum of active (not cancelled) tournament penalty points (but `hidden`)."""
    qs = Penalty.objects.filter(tournament_id=tournament_id, cancelled_at__isnull=True)
    if hidden is not None:
        qs = qs.exclude(hidden)
    if player_ids is not None:
        qs = qs.filter(player_id__in=list(player_ids))
    return {
        row["player_id"]: int(row["points"] or 0)
        for row in qs.values("player_id").annotate(points=Sum("points"))
    }


def _final_or_none(game: Game) -> Mapping[str, Any] | None:
    try:
        return game_final(game)
    except RecordError as exc:
        # A finished game the engine rejects (e.g. paper scores that do not add up) counts for
        # nothing until corrected; the EMA export validation reports it as blocking.
        logger.warning("standings: game %s skipped: %s", game.pk, exc)
        return None


def _finished_games(
    tournament_id: int, game_id: int | None = None, before_session: int | None = None
) -> list[_FinishedGame]:
    """Finished games with their final results (of the sessions before `before_session`);
    only ``summary.final`` is read from the cache (the whole summary with every hand is ten
    times larger)."""
    qs = Game.objects.filter(
        table__session__tournament_id=tournament_id, status=Game.Status.FINISHED
    )
    if before_session is not None:
        qs = qs.filter(table__session__number__lt=before_session)
    if game_id is not None:
        qs = qs.filter(pk=game_id)
    rows = qs.values(
        "id",
        "table__id",
        "table__number",
        "table__session__number",
        "substitutes",
        final=KeyTransform("final", "summary"),
    )
    out = []
    for row in rows:
        final = row["final"]
        if isinstance(final, str):  # some backends hand the extracted object back as text
            final = json.loads(final)
        if not final:
            final = _final_or_none(Game.objects.get(pk=row["id"]))
        if final is None:
            continue
        out.append(
            _FinishedGame(
                row["id"],
                row["table__id"],
                row["table__number"],
                row["table__session__number"],
                final,
                row["substitutes"] or (),
            )
        )
    return out


def _game_seats(game_ids: Iterable[int] | None, tournament_id: int) -> dict[int, dict[int, int]]:
    qs = GameSeat.objects.all()
    qs = (
        qs.filter(game_id__in=list(game_ids))
        if game_ids is not None
        else qs.filter(game__table__session__tournament_id=tournament_id)
    )
    seats: dict[int, dict[int, int]] = {}
    for gid, seat, pid in qs.values_list("game_id", "seat", "player_id"):
        seats.setdefault(gid, {})[seat] = pid
    return seats


def _contributions(
    games: Sequence[_FinishedGame], seats: Mapping[int, dict[int, int]]
) -> list[dict[int, Entry]]:
    substituted = [g.table_id for g in games if g.substitutes]
    table_seats: dict[int, dict[int, int]] = {}
    if substituted:
        for table_id, wind, pid in Seat.objects.filter(table_id__in=substituted).values_list(
            "table_id", "wind", "player_id"
        ):
            table_seats.setdefault(table_id, {})[wind] = pid
    return [
        game_contributions(
            game_id=g.id,
            session=g.session,
            table=g.table,
            final=g.final,
            seat_players=seats.get(g.id, {}),
            substitutes=g.substitutes,
            table_seat_players=table_seats.get(g.table_id),
        )
        for g in games
    ]


def _players_per_table(tournament: Tournament) -> int:
    return load_ruleset(tournament.ruleset, tournament.rule_overrides or None).players


def _row(
    tournament_id: int,
    player: _Player,
    agg: Aggregate,
    ranked: Ranked,
    placed: Placed | None = None,
) -> StandingRow:
    if placed is not None:  # a tournament with cuts: the values of the player's stage
        agg, ranked = placed.aggregate, placed.ranked
    return StandingRow(
        tournament_id=tournament_id,
        player_id=player.player_id,
        rank=ranked.rank,
        total=agg.total,
        penalties=agg.penalties,
        games=agg.games,
        average_placement=agg.average_placement,
        per_session=sort_entries(player.entries),
        tie_break_values=ranked.tie_break_values,
        is_substitute=player.is_substitute,
        role=player.role,
        dropped=player.dropped,
        disqualified=player.disqualified,
        qualified=placed.qualified if placed else False,
        out_after_session=placed.out_after_session if placed else None,
    )


def cut_rules(tournament_id: int) -> list[CutRule]:
    """The tournament's cuts in session order (issue 32.2)."""
    return [
        CutRule(c.after_session, c.carry_over, frozenset(c.qualified_ids), c.created_at.timestamp())
        for c in Cut.objects.filter(tournament_id=tournament_id).order_by("after_session")
    ]


def _penalties_placed(
    tournament_id: int, cuts: list[CutRule], hidden: Q | None = None
) -> dict[int, list[PenaltyAt]]:
    """player id -> their active tournament penalties (but `hidden`), each placed among the
    sessions."""
    out: dict[int, list[PenaltyAt]] = {}
    given_ones = Penalty.objects.filter(tournament_id=tournament_id, cancelled_at__isnull=True)
    if hidden is not None:
        given_ones = given_ones.exclude(hidden)
    for pid, points, session, given in given_ones.values_list(
        "player_id", "points", "session__number", "created_at"
    ):
        out.setdefault(pid, []).append(
            PenaltyAt(int(points), penalty_position(session, given.timestamp(), cuts))
        )
    return out


# --- full rebuild --------------------------------------------------------------------------


def compute_standings(
    tournament: Tournament,
    *,
    before_session: int | None = None,
    hidden_penalties: Q | None = None,
) -> list[StandingRow]:
    """The standings rows of a tournament, computed from scratch (unsaved). With
    `before_session` (issue 32.3: `selectors.standings_before`), as they stood before that
    session: its games and later ones, the penalties `hidden_penalties` and the cuts made
    after it left out."""
    tie_breaks = tie_breaks_of(tournament.tie_breaks)
    per_table = _players_per_table(tournament)
    registrations = _registrations(tournament.pk)
    penalties = _penalties(tournament.pk, hidden=hidden_penalties)
    games = _finished_games(tournament.pk, before_session=before_session)
    seats = _game_seats(None, tournament.pk)

    players: dict[int, _Player] = {}

    def player(pid: int) -> _Player:
        if pid not in players:
            # A player in a game without a registration is shown like a substitute.
            is_sub, dropped, disqualified, role = registrations.get(
                pid, (True, False, False, Registration.Role.RESERVE)
            )
            players[pid] = _Player(
                pid, [], penalties.get(pid, 0), is_sub, dropped, disqualified, role
            )
        return players[pid]

    for pid in registrations:
        player(pid)
    for pid in penalties:
        player(pid)
    for contribution in _contributions(games, seats):
        for pid, entry in contribution.items():
            player(pid).entries.append(entry)

    aggregates = {pid: p.aggregate(per_table) for pid, p in players.items()}
    cuts = [
        c
        for c in cut_rules(tournament.pk)
        if before_session is None or c.after_session < before_session
    ]
    placed: dict[int, Placed] = {}
    if cuts:
        placed = rank_with_cuts(
            entries={pid: p.entries for pid, p in players.items()},
            penalties=_penalties_placed(tournament.pk, cuts, hidden_penalties),
            ranked=[pid for pid, p in players.items() if p.ranked],
            cuts=cuts,
            tie_breaks=tie_breaks,
            players_per_table=per_table,
        )
    ranks = rank_players(
        [
            Rankable(pid, aggregates[pid].total, aggregates[pid].keys, p.ranked)
            for pid, p in players.items()
        ],
        tie_breaks,
        lambda ids: {pid: players[pid].entries for pid in ids},
    )
    return [
        _row(tournament.pk, p, aggregates[pid], ranks[pid], placed.get(pid))
        for pid, p in sorted(players.items())
    ]


def _replace_rows(tournament_id: int, rows: list[StandingRow]) -> None:
    StandingRow.objects.filter(tournament_id=tournament_id).delete()
    # A plain multi-row INSERT: the ORM's per-value preparation is most of bulk_create's time.
    table = connection.ops.quote_name(StandingRow._meta.db_table)
    json_param = "%s::jsonb" if connection.vendor == "postgresql" else "%s"
    columns = ["tournament_id", "player_id", "computed_at", *_ROW_FIELDS]
    placeholders = ", ".join(json_param if c in _JSON_FIELDS else "%s" for c in columns)
    sql = (
        f"INSERT INTO {table} ({', '.join(connection.ops.quote_name(c) for c in columns)}) "
        f"VALUES ({placeholders})"
    )
    now = StandingRow._meta.get_field("computed_at").pre_save(StandingRow(), add=True)
    params = [
        (
            tournament_id,
            r.player_id,
            connection.ops.adapt_datetimefield_value(now),
            *[
                json.dumps(getattr(r, f)) if f in _JSON_FIELDS else getattr(r, f)
                for f in _ROW_FIELDS
            ],
        )
        for r in rows
    ]
    with connection.cursor() as cursor:
        cursor.executemany(sql, params)


@transaction.atomic
def recompute_standings(*, tournament_id: int) -> None:
    """Rebuild every standings row of the tournament from its finished games (idempotent)."""
    # NO KEY UPDATE (where supported), as in incremental.load_tournament.
    no_key = connection.features.has_select_for_no_key_update
    tournament = Tournament.objects.select_for_update(no_key=no_key).get(pk=tournament_id)
    _replace_rows(tournament_id, compute_standings(tournament))
    renew(tournament_id)


# --- one game changed ----------------------------------------------------------------------


@transaction.atomic
def update_game_standings(*, tournament_id: int, game_id: int) -> None:
    """Replace one game's contribution in its players' rows and re-rank the band of rows that
    moved (tournaments/standings/incremental.py). Falls back to the full rebuild when the
    change is not local: no rows yet, the game left the tournament, or one of its players has
    no row.

    Who sat at the game is read now, so changing who sat at a game that already counts (swap,
    substitution) must enqueue the full recompute: the previous sitters are not known here.
    """
    with connection.cursor() as cursor:
        try:
            _update_game(cursor, tournament_id, game_id)
        except incremental.NotLocal:
            recompute_standings(tournament_id=tournament_id)
            return
    renew(tournament_id)


def _update_game(cursor: Any, tournament_id: int, game_id: int) -> None:
    tie_breaks, ruleset, overrides = incremental.load_tournament(cursor, tournament_id)
    game = incremental.load_game(cursor, tournament_id, game_id)
    new: dict[int, Entry] = {}
    if game["finished"]:
        final = game["final"] or _final_or_none(Game.objects.get(pk=game_id))
        if final is not None:
            new = game_contributions(
                game_id=game_id,
                session=game["session"],
                table=game["table"],
                final=final,
                seat_players=game["sat"],
                substitutes=game["substitutes"],
                table_seat_players=game["seated"],
            )
    rows = incremental.load_rows(
        cursor, tournament_id, [*game["sat"].values(), *game["seated"].values()]
    )
    if not rows or any(pid not in rows for pid in new):
        raise incremental.NotLocal("a player of the game has no standings row yet")

    per_table = load_ruleset(ruleset, overrides or None).players
    touched: dict[int, tuple[list[Entry], bool]] = {}
    aggregates: dict[int, Aggregate] = {}
    for pid, row in rows.items():
        entries = [e for e in row.entries if e["game"] != game_id]
        if pid in new:
            entries.append(new[pid])
        # Not ranked: substitutes (EMA 2025 7.3) and disqualified players (6.12).
        touched[pid] = (sort_entries(entries), row.is_substitute or row.disqualified)
        aggregates[pid] = aggregate(entries, penalties=row.penalties, players_per_table=per_table)
    ranks = incremental.rerank(cursor, tournament_id, tie_breaks, touched, rows, aggregates)
    incremental.write_rows(
        cursor,
        [
            (
                rows[pid].id,
                {
                    "rank": ranks[pid].rank,
                    "total": agg.total,
                    "penalties": agg.penalties,
                    "games": agg.games,
                    "average_placement": agg.average_placement,
                    "per_session": touched[pid][0],
                    "tie_break_values": ranks[pid].tie_break_values,
                },
            )
            for pid, agg in aggregates.items()
        ],
    )
