"""Write the EMA results file:
`manage.py export_ema <tournament> --format csv|xls|xlsx --output F [--sheet NAME]
[--confirm-unknown] [--force]`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from core.errors import ValidationFailed
from tournaments.ema.export import (
    DEFAULT_SHEET,
    ExportBlocked,
    ema_csv,
    ema_xls,
    ema_xlsx,
    validate_for_export,
)

from ._lookup import tournament_named


class Command(BaseCommand):
    help = (
        "Validate a tournament and write its EMA results file (CSV report grid, or the results"
        " workbook: .xls as the EMA's importer reads it, or .xlsx)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("tournament", help="tournament slug or id")
        parser.add_argument("--format", choices=["csv", "xls", "xlsx"], default="csv")
        parser.add_argument("--output", required=True, help="file to write")
        parser.add_argument(
            "--sheet",
            default=None,
            help=f"workbook sheet name (xls default {DEFAULT_SHEET!r}: the EMA names a results"
            " sheet by ruleset and its tournament number, e.g. rcr220; xlsx default 'Results')",
        )
        parser.add_argument(
            "--confirm-unknown",
            action="store_true",
            help="export players without an EMA number (written as 0, the EMA's unknown player)",
        )
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
        flags = {"force": options["force"], "confirm_unknown": options["confirm_unknown"]}
        try:
            if options["format"] == "csv":
                Path(options["output"]).write_text(
                    ema_csv(tournament, **flags), encoding="utf-8", newline=""
                )
            else:
                write = ema_xls if options["format"] == "xls" else ema_xlsx
                data = write(tournament, sheet=options["sheet"], **flags)
                Path(options["output"]).write_bytes(data)
        except ExportBlocked as exc:
            unknown = [p for p in exc.report.blocking if p.code == "no_ema_number"]
            hint = "use --force to export anyway"
            if unknown and len(unknown) == len(exc.report.blocking):
                hint = "use --confirm-unknown to export them with EMA number 0"
            raise CommandError(f"{exc.message} ({hint})") from exc
        except ValidationFailed as exc:
            raise CommandError(f"{exc.field}: {exc.message}") from exc
        mers = report.mers.to_dict() if report.mers else {}
        self.stdout.write(f"wrote {options['output']}; MERS weight {json.dumps(mers)}")
