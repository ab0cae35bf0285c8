"""Import whole game records (files, the API, `manage.py import_games`): validate every record
with the engine, then create all games through scoring.services.games, or none."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction

from core.errors import ValidationFailed
from core.models import Player
from scoring.engine import RecordError, replay
from scoring.models import Game
from scoring.records import _resolve_player
from scoring.summary import GameSummary

from .games import Place, import_game_record


@dataclass(frozen=True)
class ImportTarget:
    """Where imported games belong: one `place` (a tournament table, a club night, as the app
    owning it passes it: scoring.services.games.Place), or `place_of(record, players, index)`
    choosing each record's place (issue 20: the tournament table seated with the record's
    players, `tournaments.services.game_imports.seated_tables`)."""

    place: Place | None = None
    place_of: Callable[[Mapping[str, Any], Sequence[Player], int], Place] | None = None


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
    if target.place is None and target.place_of is None:
        raise ValidationFailed("an imported game needs a table or a club night", field="target")
    if target.place is not None and target.place.one_game and len(records) > 1:
        raise ValidationFailed("a tournament table holds one game", field="records")
    summaries = [_validate(r, i) for i, r in enumerate(records)]
    games = []
    used: set[int] = set()
    for index, (record, summary) in enumerate(zip(records, summaries, strict=True)):
        players = [_resolve_player(label, index) for label in record["players"]]
        if len({p.pk for p in players}) != len(players):
            raise ValidationFailed("a player sits twice at the table", field="players")
        place = target.place
        if target.place_of is not None:
            place = target.place_of(record, players, index)
            if place.pk in used:
                raise ValidationFailed(
                    f"record {index}: two records for the same table", field="records"
                )
            used.add(place.pk)
        games.append(
            import_game_record(
                actor=actor,
                record=dict(record),
                place=place,
                players=players,
                finalize=GameSummary.of(summary).final is not None,
            )
        )
    return games
