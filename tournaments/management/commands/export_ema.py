"""Write the EMA results file: `manage.py export_ema <tournament> --format csv|xlsx --output F`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.ema.export import ExportBlocked, ema_csv, ema_xlsx, validate_for_export

from ._lookup import tournament_named


class Command(BaseCommand):
    help = "Validate a tournament and write its EMA results file (CSV report grid or XLSX)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("tournament", help="tournament slug or id")
        parser.add_argument("--format", choices=["csv", "xlsx"], default="csv")
        parser.add_argument("--output", required=True, help="file to write")
        parser.add_argument(
            "--force", action="store_true", help="export even with blocking problems"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        tournament = tournament_named(options["tournament"])
        report = validate_for_export(tournament)
        for problem in report.problems:
            kind = "ERROR" if problem.blocking else "note"
            self.stderr.write(f"{kind}: {problem.message}")
        if report.penalties:
            self.stderr.write(
                f"penalties: {len(report.penalties)}, total {report.penalty_total} points"
            )
        try:
            if options["format"] == "csv":
                Path(options["output"]).write_text(
                    ema_csv(tournament, force=options["force"]), encoding="utf-8", newline=""
                )
            else:
                Path(options["output"]).write_bytes(ema_xlsx(tournament, force=options["force"]))
        except ExportBlocked as exc:
            raise CommandError(f"{exc.message} (use --force to export anyway)") from exc
        mers = report.mers.to_dict() if report.mers else {}
        self.stdout.write(f"wrote {options['output']}; MERS weight {json.dumps(mers)}")
