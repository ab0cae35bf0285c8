"""Load an exported tournament: `manage.py import_tournament FILE`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from core.errors import ValidationFailed
from tournaments.backup import import_tournament


class Command(BaseCommand):
    help = "Import a tournament exported by export_tournament (all or nothing)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            document = json.loads(Path(options["file"]).read_text(encoding="utf-8"))
            tournament = import_tournament(document)
        except (OSError, json.JSONDecodeError) as exc:
            raise CommandError(f"{options['file']}: {exc}") from exc
        except ValidationFailed as exc:
            raise CommandError(f"{options['file']}: {exc}") from exc
        self.stdout.write(f"imported {tournament.slug} (id {tournament.pk})")
