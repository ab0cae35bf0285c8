"""Write a whole tournament as JSON: `manage.py export_tournament <tournament> --output FILE`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from tournaments.backup import export_tournament

from ._lookup import tournament_named


class Command(BaseCommand):
    help = "Export a tournament with everything that belongs to it as one JSON document."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("tournament", help="tournament slug or id")
        parser.add_argument("--output", required=True, help="file to write ('-' for stdout)")

    def handle(self, *args: Any, **options: Any) -> None:
        document = export_tournament(tournament_named(options["tournament"]))
        text = json.dumps(document, ensure_ascii=False, sort_keys=True, indent=1)
        if options["output"] == "-":
            self.stdout.write(text)
        else:
            Path(options["output"]).write_text(text + "\n", encoding="utf-8")
            self.stdout.write(f"wrote {options['output']}")
