"""Import online game logs (Tenhou mjlog XML or tenhou.net/6 JSON, Mahjong Soul JSON) into a
club's league nights, one game per file (issue 20).

`manage.py import_online_logs FILE... --club SLUG [--date YYYY-MM-DD] [--map NAME=PLAYER_ID]...`

Names mapped once (here with --map, or in the web or the API) are remembered for the club.
Each file is imported on its own: a file that fails (broken log, unmapped names, already
imported) is reported and the others go on; the exit status is non-zero if any failed. Every
imported game prints how our engine's replay compared with the points the site paid.
"""

from __future__ import annotations

import datetime
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from club.models import Club
from club.services.online import import_online_log, read_online_log
from core.errors import ServiceError


class Command(BaseCommand):
    help = "Import Tenhou / Mahjong Soul game logs into a club (one game per file)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("files", nargs="+")
        parser.add_argument("--club", required=True, help="club slug")
        parser.add_argument("--date", help="club night date (default today)")
        parser.add_argument(
            "--map",
            action="append",
            default=[],
            metavar="NAME=PLAYER_ID",
            help="map a site name to a club member (remembered for the club)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        club = Club.objects.filter(slug=options["club"]).first()
        if club is None:
            raise CommandError(f"no club {options['club']!r}")
        date = datetime.date.fromisoformat(options["date"]) if options["date"] else None
        mapping: dict[str, str] = {}
        for item in options["map"]:
            name, sep, pk = item.rpartition("=")
            if not sep or not name:
                raise CommandError(f"--map {item!r}: use NAME=PLAYER_ID")
            mapping[name] = pk
        failed = 0
        for name in options["files"]:
            try:
                data = Path(name).read_bytes()
            except OSError as exc:
                self.stderr.write(f"{name}: {exc}")
                failed += 1
                continue
            try:
                names = read_online_log(data).names
                used = {k: v for k, v in mapping.items() if k in names}
                done = import_online_log(actor=None, club=club, data=data, players=used, date=date)
            except ServiceError as exc:
                failed += 1
                errors = getattr(exc, "errors", [])
                names = [e["name"] for e in errors if "name" in e]
                hint = f" (add --map 'NAME=PLAYER_ID' for: {', '.join(names)})" if names else ""
                self.stderr.write(f"{name}: {exc.message}{hint}; not imported")
                continue
            c = done.comparison
            self.stdout.write(
                f"{name}: game {done.game.pk} ({done.game.status}), {c['matching']}/{c['hands']}"
                f" hands match the site{'' if c['ok'] else ', MISMATCHES:'}"
            )
            if c.get("rules"):
                self.stdout.write(f"  rules stated by the log: {c['rules']}")
            for m in c["mismatches"]:
                self.stdout.write(f"  {m}")
        if failed:
            raise CommandError(f"{failed} of {len(options['files'])} logs not imported")
