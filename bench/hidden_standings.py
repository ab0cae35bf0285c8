"""Hidden standings and awards benchmark (issue 32.3, 32.4): the first reader of a new table
while the last session is hidden builds the standings before it (`standings_before`, then
cached per standings version); the awards page computes from every hand record
(`compute_awards`, four queries, then cached). Both are timed against the full recompute of
the stored rows, which every finished game is worth already, and printed as ratios.

    HANCHAN_TESTING=1 .venv/bin/python bench/hidden_standings.py [--players 400] [--sessions 8]
"""

from __future__ import annotations

import argparse
import atexit
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=400)
    parser.add_argument("--sessions", type=int, default=8)
    parser.add_argument("--hands", type=int, default=16, help="hands per game (at most)")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    workdir = tempfile.mkdtemp(prefix="hanchan-bench-")
    atexit.register(shutil.rmtree, workdir, ignore_errors=True)
    os.environ["DATABASE_URL"] = f"sqlite:///{workdir}/bench.sqlite3"
    os.environ.setdefault("HANCHAN_TESTING", "1")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from bench.standings import build
    from tournaments.award_selectors import compute_awards
    from tournaments.models import Tournament
    from tournaments.standings.selectors import standings_before
    from tournaments.standings.services import recompute_standings

    call_command("migrate", verbosity=0)
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
    tournament_id = build(args.players, args.sessions, args.hands, args.seed)
    tournament = Tournament.objects.get(pk=tournament_id)

    def timed(run: object) -> float:
        runs = []
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            run()  # type: ignore[operator]
            runs.append(time.perf_counter() - t0)
        return statistics.median(runs)

    full = timed(lambda: recompute_standings(tournament_id=tournament_id))
    before = timed(lambda: standings_before(tournament, args.sessions))
    awards = timed(lambda: compute_awards(tournament))
    with CaptureQueriesContext(connection) as queries:
        compute_awards(tournament)
    games = args.players // 4 * args.sessions
    print(f"{args.players} players x {args.sessions} sessions ({games} games), medians")
    print(f"full recompute (stored rows):      {full * 1000:8.1f} ms")
    print(f"standings before the last session: {before * 1000:8.1f} ms ({before / full:.2f}x)")
    print(
        f"awards from every hand record:     {awards * 1000:8.1f} ms ({awards / full:.2f}x, "
        f"{len(queries.captured_queries)} queries)"
    )


if __name__ == "__main__":
    main()
