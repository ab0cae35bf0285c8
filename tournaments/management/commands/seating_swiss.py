"""Swiss seating for scripts: JSON requests on stdin, one JSON answer line each on stdout.

The contract is in tournaments/seating/cli.py (issue 17). manage.py runs this command before
loading Django settings, so it works from a fresh clone with nothing set in the environment;
this class only lists it among the management commands and serves the same way.
"""

from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from tournaments.seating.cli import serve


class Command(BaseCommand):
    help = "Seat a Swiss session per JSON request line on stdin; one JSON answer line each."
    requires_system_checks = []  # pure computation: needs no database, URLs or models

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--table-size", type=int, choices=(3, 4), default=4)

    def handle(self, *args: Any, **options: Any) -> None:
        serve(sys.stdin, sys.stdout, table_size=options["table_size"], err=sys.stderr)
