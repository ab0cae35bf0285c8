"""Tournament side of importing game records (issue 20): each record to the table of the
tournament seated with its players (`manage.py import_games --tournament`). Scoring's
import_game_records takes the place of each record from `seated_tables(tournament)`."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any

from core.errors import ValidationFailed
from core.models import Player
from scoring.records import resolve_player_label
from scoring.services.imports import ImportTarget
from tournaments.models import Seat, Tournament
from tournaments.places import TablePlace


def seated_tables(tournament: Tournament) -> ImportTarget:
    """Each record goes to the table of `tournament` whose seated players it names (a
    substitute standing for the player named in ``replaces``), filling the seated game."""
    return ImportTarget(place_of=functools.partial(_seated_table, tournament))


def _seated_table(
    tournament: Tournament, record: Mapping[str, Any], players: Sequence[Player], index: int
) -> TablePlace:
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
            return TablePlace(seat.table)
    raise ValidationFailed(
        f"record {index}: no table of this tournament is seated with these players",
        field="players",
        errors=[{"record": index, "field": "players", "message": "no such seated table"}],
    )
