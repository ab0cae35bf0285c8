"""Generate a whole-tournament seating plan and print it (--json) or its quality report.

The report (and the JSON's "quality") gives extra meetings (zero up to the sessions a known
design allows), table revisits, the wind spread and the fewest shared opponents of players
who never met, each beside the least possible or the aim (issue 34)."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.seating import SeatingError, generate_plan, quality


class Command(BaseCommand):
    help = "Seat N players for R rounds with no repeated opponents where possible."
    requires_system_checks = []  # pure computation: needs no database, URLs or models

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--players", type=int, required=True)
        parser.add_argument("--rounds", type=int, required=True)
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument("--time-budget", type=float, default=8.0)
        parser.add_argument(
            "--json",
            action="store_true",
            help='print {"rounds": [[[E, S, W, N], ...], ...], "quality": {...}}',
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            plan = generate_plan(
                players=options["players"],
                rounds=options["rounds"],
                seed=options["seed"],
                time_budget=options["time_budget"],
            )
        except SeatingError as exc:
            raise CommandError(str(exc)) from exc
        measured = quality(plan)
        if options["json"]:
            self.stdout.write(json.dumps({"rounds": plan, "quality": measured.to_dict()}))
        else:
            self.stdout.write(measured.format())
