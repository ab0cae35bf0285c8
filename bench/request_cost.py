"""Cost of one request, in process: hand entry, standings read and game read.

    DATABASE_URL=postgres://... CELERY_BROKER_URL=redis://127.0.0.1:6379/0 \\
        .venv/bin/python bench/request_cost.py [--hands 120] [--reads 200]

The load test (bench/load.py) says how the whole stack behaves when saturated; this one says
where a single request's time goes, without the noise of other clients. On a scratch
PostgreSQL database (as bench/load.py makes one) it seeds a running tournament of 200 players,
then drives Django's test client through the whole middleware stack with production settings
(token auth, no DEBUG), one request at a time:

- POST /api/v1/games/{id}/hands/ with version and Idempotency-Key (the referee's phone);
- GET  /api/v1/tournaments/{slug}/standings/ (200 rows; a player's phone);
- GET  /api/v1/games/{id}/ (a game of 12 hands);
- GET  /games/{id}/ (the same game's public page, anonymous: the HTML a player opens).

It prints the median and p95 wall time, the median CPU time of this process (the part other
processes on a shared machine do not inflate; the database server's time is not in it) and the
SQL statements per request (BEGIN, COMMIT and savepoints included), beside the figures this
same script measured on main at adeebc5 (session 1, before the request-cost work), and their
ratio. The load average is printed too: wall times on a loaded machine are not comparable
with idle ones. Follow-up tasks go to a private queue of the real broker that no worker reads and
that is deleted at the end, so a hand's cost is the web process's alone.

PostgreSQL only, as production runs. On SQLite (development, the first test pass) the same hand
POST is 11 statements, not 8 (tests/api/test_api_hand_cost.py holds both ceilings): the game's
seats, hands and penalties are three reads of their own there, because the query that brings
them with the locked game builds each row as JSON with PostgreSQL's `to_jsonb(row)` and
`ARRAY(...)` (scoring.records.stored_rows_annotations). SQLite's `json_object` needs every
column named, and its rows come back with booleans as 0/1, naive datetime text and JSON
columns as strings, each to convert by hand before `Model.from_db`: a second copy of Django's
column converters to keep in step with the models, for a database that serves one user at a
time (checked in session 6; not done, as not cheap).
"""

from __future__ import annotations

import argparse
import os
import secrets
import statistics
import sys
import time
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

import load  # noqa: E402  (bench/load.py: scratch database, seeding)

# Measured with this script on main at adeebc5, this machine (2 cores), idle:
# (median ms, p95 ms, SQL statements per request). The game page was added later: its
# baseline is main at 4480224 (session 5's start), load average 8.5 (shared machine).
BASELINE = {
    "POST hand": (36.6, 58.3, 32),
    "GET standings": (30.8, 40.8, 3),
    "GET game": (14.8, 22.2, 5),
    "GET game page": (4.5, 10.6, 3),
}
# Issue 14.7's targets: (median ms, SQL statements).
TARGET = {"POST hand": (8.0, 8), "GET game": (5.0, None), "GET game page": (5.0, None)}


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def measure(call: Any, times: int) -> tuple[list[float], list[float], list[int]]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    walls: list[float] = []
    cpus: list[float] = []
    queries: list[int] = []
    for i in range(times):
        # Every fourth call counts statements; the others are timed without that overhead.
        if i % 4 == 3:
            with CaptureQueriesContext(connection) as captured:
                call()
            queries.append(len(captured))
            continue
        started, cpu = time.perf_counter(), time.process_time()
        call()
        walls.append((time.perf_counter() - started) * 1000)
        cpus.append((time.process_time() - cpu) * 1000)
    return walls, cpus, queries


Result = tuple[float, float, float, int]  # median ms, p95 ms, median CPU ms, SQL statements


def summarize(measured: tuple[list[float], list[float], list[int]]) -> Result:
    walls, cpus, queries = measured
    return (
        statistics.median(walls),
        percentile(walls, 0.95),
        statistics.median(cpus),
        max(queries),
    )


def run(hands: int, reads: int) -> dict[str, Result]:
    from django.test import Client

    world = load.seed(referees=50, games_per_referee=3, readers_players=200)
    token = world["tokens"][0]
    client = Client(HTTP_AUTHORIZATION=f"Token {token}")
    games = [g for per_referee in world["games"] for g in per_referee]
    state = {"game": 0, "version": 0, "number": 0, "dealer": 0}
    token_of_game = {g: world["tokens"][r] for r, gs in enumerate(world["games"]) for g in gs}

    def post_hand() -> None:
        if state["number"] == load.HANDS_PER_GAME:
            state.update(game=state["game"] + 1, version=0, number=0, dealer=0)
        game = games[state["game"]]
        hand, dealer = load.next_hand(state["number"], state["dealer"])
        response = client.post(
            f"/api/v1/games/{game}/hands/",
            {"version": state["version"], "hand": hand},
            content_type="application/json",
            HTTP_AUTHORIZATION=f"Token {token_of_game[game]}",
            HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
        )
        if response.status_code != 201:
            raise RuntimeError(f"POST hand: {response.status_code} {response.content[:300]!r}")
        state.update(version=response.json()["version"], number=state["number"] + 1)
        state["dealer"] = dealer

    def get(url: str, reader: Any = client) -> None:
        response = reader.get(url)
        if response.status_code != 200:
            raise RuntimeError(f"GET {url}: {response.status_code}")

    results = {}
    results["POST hand"] = summarize(measure(post_hand, hands))
    standings = f"/api/v1/tournaments/{world['slug']}/standings/"
    results["GET standings"] = summarize(measure(lambda: get(standings), reads))
    results["GET game"] = summarize(measure(lambda: get(f"/api/v1/games/{games[0]}/"), reads))
    anonymous = Client()
    results["GET game page"] = summarize(
        measure(lambda: get(f"/games/{games[0]}/", anonymous), reads)
    )
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=120, help="hands to enter (120)")
    parser.add_argument("--reads", type=int, default=200, help="reads of each kind (200)")
    options = parser.parse_args()
    database_url = os.environ.get("DATABASE_URL", "")
    broker_url = os.environ.get("CELERY_BROKER_URL", "")
    if not database_url.startswith("postgres") or not broker_url:
        sys.exit("set DATABASE_URL (PostgreSQL) and CELERY_BROKER_URL (Redis) first")
    load.require_loopback(broker_url, "CELERY_BROKER_URL")
    scratch_url, scratch_name = load.scratch_database(database_url)
    queue = f"hanchan-bench-{secrets.token_hex(4)}"
    os.environ.update(
        DATABASE_URL=scratch_url,
        CELERY_QUEUE=queue,
        HANCHAN_ENV="production",
        SECRET_KEY=secrets.token_urlsafe(50),  # throwaway, production settings
        ALLOWED_HOSTS="testserver",
        SECURE_SSL_REDIRECT="0",
        DJANGO_SETTINGS_MODULE="config.settings",
        LOG_LEVEL="WARNING",
    )
    os.environ.pop("DEBUG", None)
    os.environ.pop("HANCHAN_TESTING", None)
    load.admin_sql(database_url, f'CREATE DATABASE "{scratch_name}"')
    load_before = os.getloadavg()
    try:
        import django
        from django.core.management import call_command

        django.setup()
        call_command("migrate", verbosity=0)
        # The game page links its CSS through the production manifest (as a deployment has).
        call_command("collectstatic", interactive=False, verbosity=0)
        results = run(options.hands, options.reads)
    finally:
        from django.db import connections

        connections.close_all()
        load.admin_sql(database_url, f'DROP DATABASE IF EXISTS "{scratch_name}" WITH (FORCE)')
        from config.celery import app

        with app.connection_for_write() as connection:
            connection.default_channel.queue_delete(queue)  # type: ignore[attr-defined]

    load_after = os.getloadavg()
    print(f"\nrequest cost, one at a time ({options.hands} hands, {options.reads} reads each)")
    print(
        f"{'request':<16}{'median ms':>10}{'p95 ms':>9}{'CPU ms':>8}{'SQL':>5}   "
        f"baseline (adeebc5)        target"
    )
    for name, (median, p95, cpu, queries) in results.items():
        base = BASELINE[name]
        ratio = f"speed-up {base[0] / median:>4.1f}x" if base[0] else "(no baseline)  "
        goal_ms, goal_sql = TARGET.get(name, (None, None))
        goal = ""
        if goal_ms is not None:
            met = median <= goal_ms and (goal_sql is None or queries <= goal_sql)
            sql = f", <= {goal_sql} SQL" if goal_sql is not None else ""
            goal = f"<= {goal_ms:.0f} ms{sql}: {'met' if met else 'NOT met'}"
        print(
            f"{name:<16}{median:>10.1f}{p95:>9.1f}{cpu:>8.1f}{queries:>5}   "
            f"{base[0]:>6.1f} / {base[1]:>6.1f} / {base[2]:>3}   {ratio}   {goal}"
        )
    print(
        "(PostgreSQL; on SQLite the hand POST is 11 statements: its seats, hands and penalties "
        "are 3 reads of their own there, see this file's docstring)"
    )
    print(
        f"load average {load_before[0]:.1f} before / {load_after[0]:.1f} after "
        f"({os.cpu_count()} cores): wall times are only comparable at a similar load"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
