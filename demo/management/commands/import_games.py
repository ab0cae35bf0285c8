"""Import game records into a club night or a tournament table.

`manage.py import_games FILE... (--club SLUG [--date D] | --club-night ID | --table ID |
--tournament SLUG)`. With --tournament each record fills the empty game of the table seated
with its players (a substitute stands for the player its `replaces` names), issue 20.

Each file holds one record or a list of records. Every record is checked by the engine first;
one bad record (named with its file, hand and field) imports nothing.

It lives in the top layer (with `seed_demo`) because it reaches both a club night and a
tournament table: neither club nor tournaments imports the other (issue 14).
"""

from __future__ import annotations

import datetime
import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from club.models import Club, ClubNight
from club.places import NightPlace
from core.errors import ValidationFailed
from scoring.services.imports import ImportTarget, import_game_records
from tournaments.management.commands._lookup import tournament_named
from tournaments.models import Table
from tournaments.places import TablePlace
from tournaments.services.game_imports import seated_tables


class Command(BaseCommand):
    help = "Import riichi-game-record/1 files into a club night or a tournament table."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("files", nargs="+")
        where = parser.add_mutually_exclusive_group(required=True)
        where.add_argument("--club", help="club slug: the games go to a club night")
        where.add_argument("--club-night", type=int, help="club night id")
        where.add_argument("--table", type=int, help="tournament table id (one game)")
        where.add_argument(
            "--tournament",
            help="tournament slug or id: each record fills the seated table of its players",
        )
        parser.add_argument("--date", help="club night date with --club (default today)")

    def handle(self, *args: Any, **options: Any) -> None:
        records: list[dict[str, Any]] = []
        sources: list[str] = []
        for name in options["files"]:
            try:
                data = json.loads(Path(name).read_text(encoding="utf-8"))
            except (OSError, json.JSONDecodeError) as exc:
                raise CommandError(f"{name}: {exc}") from exc
            batch = data if isinstance(data, list) else [data]
            records.extend(batch)
            sources.extend(
                f"{name}[{i}]" if isinstance(data, list) else name for i in range(len(batch))
            )
        target = self._target(options)
        try:
            games = import_game_records(actor=None, records=records, target=target)
        except ValidationFailed as exc:
            where = exc.errors[0] if exc.errors else {}
            index = where.get("record")
            source = sources[index] if isinstance(index, int) else ""
            raise CommandError(
                f"{source}: hand {where.get('hand')}, field {where.get('field')!r}: "
                f"{where.get('message', exc.message)}; nothing imported"
            ) from exc
        self.stdout.write(f"imported {len(games)} games")

    def _target(self, options: dict[str, Any]) -> ImportTarget:
        if options.get("tournament"):
            return seated_tables(tournament_named(options["tournament"]))
        if options["table"]:
            table = Table.objects.filter(pk=options["table"]).first()
            if table is None:
                raise CommandError(f"no table {options['table']}")
            return ImportTarget(place=TablePlace(table))
        if options["club_night"]:
            night = ClubNight.objects.filter(pk=options["club_night"]).first()
            if night is None:
                raise CommandError(f"no club night {options['club_night']}")
            return ImportTarget(place=NightPlace(night))
        club = Club.objects.filter(slug=options["club"]).first()
        if club is None:
            raise CommandError(f"no club {options['club']!r}")
        date = (
            datetime.date.fromisoformat(options["date"])
            if options["date"]
            else datetime.date.today()
        )
        # Two nights may share a date: the first one (as the online import picks it).
        night = ClubNight.objects.filter(club=club, date=date).order_by("pk").first()
        if night is None:
            night = ClubNight.objects.create(club=club, date=date)
        return ImportTarget(place=NightPlace(night))
