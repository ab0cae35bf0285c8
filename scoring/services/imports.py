"""Import whole game records (files, the API, `manage.py import_games`): validate every record
with the engine, then create all games through scoring.services.games, or none."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction

from club.models import ClubNight
from core.errors import ValidationFailed
from core.models import Player
from scoring.engine import RecordError, replay
from scoring.models import Game
from scoring.records import _resolve_player, resolve_player_label
from scoring.summary import GameSummary
from tournaments.models import Seat, Table

from .games import import_game_record


@dataclass(frozen=True)
class ImportTarget:
    """Where an imported game belongs: a tournament table or a club night."""

    table: Table | None = None
    club_night: ClubNight | None = None
    # Issue 20: each record goes to the table of this tournament whose seated players it names
    # (a substitute standing for the player named in ``replaces``), filling the seated game.
    tournament: Any = None


def _seated_table(
    tournament: Any, record: Mapping[str, Any], players: Sequence[Player], index: int
) -> Table:
    """The tournament table seated with the record's players (seat = starting wind)."""

    expected = [p.pk for p in players]
    for sub in record.get("substitutes") or []:
        replaced = resolve_player_label(str(sub.get("replaces") or ""), create=False)
        if sub.get("replaces") and replaced is not None:
            expected[int(sub["seat"])] = replaced.pk
    candidates = (
        Seat.objects.filter(table__session__tournament=tournament, wind=0, player_id=expected[0])
        .select_related("table")
        .order_by("table__session__number", "table__number")
    )
    for seat in candidates:
        winds = list(
            Seat.objects.filter(table=seat.table)
            .order_by("wind")
            .values_list("player_id", flat=True)
        )
        if winds == expected:
            return seat.table
    raise ValidationFailed(
        f"record {index}: no table of this tournament is seated with these players",
        field="players",
        errors=[{"record": index, "field": "players", "message": "no such seated table"}],
    )


def _validate(record: Mapping[str, Any], index: int) -> dict[str, Any]:
    try:
        summary = replay(record)
    except RecordError as exc:
        where = exc.as_dict()
        raise ValidationFailed(
            f"record {index}: {exc}",
            field=str(where["field"]) or None,
            errors=[{"record": index, **where}],
        ) from exc
    return summary


@transaction.atomic
def import_game_records(
    *,
    actor: Any,
    records: Sequence[Mapping[str, Any]],
    target: ImportTarget,
) -> list[Game]:
    """Validate every record with the engine, then create all games, or none.

    Raises ValidationFailed naming the record, hand and field of the first bad record.
    Each game is written by scoring.services.games.import_game_record (audit, follow-ups).
    """
    if target.table is None and target.club_night is None and target.tournament is None:
        raise ValidationFailed("an imported game needs a table or a club night", field="target")
    if target.table is not None and len(records) > 1:
        raise ValidationFailed("a tournament table holds one game", field="records")
    summaries = [_validate(r, i) for i, r in enumerate(records)]
    games = []
    used: set[int] = set()
    for index, (record, summary) in enumerate(zip(records, summaries, strict=True)):
        players = [_resolve_player(label, index) for label in record["players"]]
        if len({p.pk for p in players}) != len(players):
            raise ValidationFailed("a player sits twice at the table", field="players")
        table = target.table
        if target.tournament is not None:
            table = _seated_table(target.tournament, record, players, index)
            if table.pk in used:
                raise ValidationFailed(
                    f"record {index}: two records for the same table", field="records"
                )
            used.add(table.pk)
        games.append(
            import_game_record(
                actor=actor,
                record=dict(record),
                table=table,
                club_night=target.club_night,
                players=players,
                finalize=GameSummary.of(summary).final is not None,
            )
        )
    return games
