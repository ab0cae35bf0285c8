"""Rebuild a tournament's standings from its games: `manage.py rebuild_standings <slug-or-id>`."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from tournaments.models import StandingRow
from tournaments.standings.services import recompute_standings

from ._lookup import tournament_named


class Command(BaseCommand):
    help = "Recompute every standings row of a tournament (same result as the live updates)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("tournament", help="tournament slug or id")

    def handle(self, *args: Any, **options: Any) -> None:
        tournament = tournament_named(options["tournament"])
        started = time.perf_counter()
        recompute_standings(tournament_id=tournament.pk)
        rows = StandingRow.objects.filter(tournament=tournament).count()
        self.stdout.write(
            f"{tournament.slug}: {rows} rows in {time.perf_counter() - started:.2f} s"
        )
