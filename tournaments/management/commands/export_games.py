"""Write a tournament's games as game records (formats/game-record.md).

`manage.py export_games <tournament> --output DIR-or-FILE`: a directory gets one file per game
(`s01-t001.json`), any other path one JSON list of records. Every game is written: a
paper-sheet game as its `final_scores`, substitutes with whom they replaced, and the players'
tournament penalties (extensions of the format, scoring/engine/README.md, issue 20).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from scoring.models import Game
from scoring.records import game_record
from tournaments.roles import table_of

from ._lookup import tournament_named


class Command(BaseCommand):
    help = "Export a tournament's games as riichi-game-record/1 JSON."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("tournament", help="tournament slug or id")
        parser.add_argument("--output", required=True, help="directory or file")

    def handle(self, *args: Any, **options: Any) -> None:
        tournament = tournament_named(options["tournament"])
        games = (
            Game.objects.filter(table__session__tournament=tournament)
            .select_related("table__session")
            .order_by("table__session__number", "table__number")
        )
        records: list[tuple[str, dict[str, Any]]] = []
        for game in games:
            table = table_of(game)
            assert table is not None  # the tournament's games are played at its tables
            name = f"s{table.session.number:02d}-t{table.number:03d}"
            records.append((name, game_record(game)))
        output = Path(options["output"])
        if options["output"].endswith(("/", os.sep)):
            # `--output games/` names a directory even before it exists (README).
            output.mkdir(parents=True, exist_ok=True)
        if output.is_dir():
            for name, record in records:
                (output / f"{name}.json").write_text(
                    json.dumps(record, ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
                )
        else:
            output.write_text(
                json.dumps([r for _, r in records], ensure_ascii=False, indent=1) + "\n",
                encoding="utf-8",
            )
        self.stdout.write(f"wrote {len(records)} game records to {output}")
