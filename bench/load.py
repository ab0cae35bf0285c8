"""Load test: referees entering hands and players reading standings, against a live server.

    DATABASE_URL=postgres://... CELERY_BROKER_URL=redis://127.0.0.1:6379/0 \\
        .venv/bin/python bench/load.py [--duration 120] [--referees 50] [--readers 200]

What it does, all on this machine (loopback only):

1. creates a scratch PostgreSQL database next to the one in DATABASE_URL (same server and
   credentials, name + "_load_<random>"), migrates it and seeds one running tournament: a
   first session already played (so the standings have a row per player), then a session per
   game each referee will play, one table per referee in each, an organiser and `--referees`
   referees with API tokens;
2. starts gunicorn (config.wsgi, `--web-workers` sync workers, production settings with a
   throwaway SECRET_KEY) on 127.0.0.1 and a real Celery worker on a private queue of the broker
   in CELERY_BROKER_URL, so every finished game really goes through the standings task; both
   share a Redis cache as in production (docker-compose.yml): CACHE_URL, by default a Redis
   broker's own server and database;
3. runs locust headless (this same file is the locustfile): `--referees` referees, each on its
   own game, POST /api/v1/games/{id}/hands/ with `version` and an Idempotency-Key, and after
   `--hands-per-game` hands (12) POST .../finalize/ and move on to their next table (so every
   finished game goes through the standings and ratings tasks); `--readers` clients
   GET /api/v1/tournaments/{slug}/standings/ (revalidating with the ETag, as a browser does).
   Users start staggered over their wait time, and the figures count from the moment all of
   them run (`--reset-stats`), for `--duration` seconds: the steady state, not the ramp-up;
4. prints p50/p95/p99 latency and errors per request type against the goal (hand entry
   p95 <= 50 ms, 0 errors) and checks that no hand was lost: Hand rows in the database ==
   201 answers the referees received; then waits (up to --drain-timeout) for the worker to
   catch up and checks that the standings and the ratings were recomputed for every game
   finished under load (the standings count 4 player-games per finished game, each finished
   game has its 4 rating changes), printing the counts; `--min-finished N` fails a run in
   which fewer games were finished (a run that finishes none proves nothing of the tasks);
5. says how much CPU the web server, the worker, PostgreSQL and locust used per request in
   the steady state (from /proc, sampled once a second): on a machine shared with other work
   the requests per second are the machine's share, the web server's CPU per request is the
   code's figure;
6. stops everything it started and drops the scratch database (`--keep-db` keeps it).

Exit status: 0 when no hand was lost, no request failed and the standings and ratings caught up
with every finished game (the latency goal is reported, not enforced: the figure depends on the
machine), 1 otherwise.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import os
import random
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PLAN_ENV = "HANCHAN_LOAD_PLAN"
HANDS_PER_GAME = 12
GOAL_P95_MS = 50.0
LOOPBACK = {"127.0.0.1", "localhost", "::1"}


def next_hand(number: int, dealer: int) -> tuple[dict[str, Any], int]:
    """Alternate a non-dealer ron (the deal passes on) and an all-tenpai draw (it stays),
    so a game of HANDS_PER_GAME hands (or fewer) is still running when it is finished on time
    (EMA 2025 7.4: the seeded sessions are past their time signal)."""
    if number % 2 == 0:
        hand = {
            "outcome": "ron",
            "loser": (dealer + 2) % 4,
            "wins": [{"winner": (dealer + 1) % 4, "han": 2, "fu": 30}],
            "riichi": [],
        }
        return hand, (dealer + 1) % 4
    return {"outcome": "draw", "tenpai": [0, 1, 2, 3], "riichi": []}, dealer


# ==== the locust side: only defined when locust loads this file with a plan ==================

if os.environ.get(PLAN_ENV):
    import itertools

    from locust import FastHttpUser, between, events, task

    PLAN: dict[str, Any] = json.loads(Path(os.environ[PLAN_ENV]).read_text())
    _referee_slots = itertools.count()
    # Standings reads by answer: a full table (200) or "unchanged since your ETag" (304).
    _acknowledged = {"hands": 0, "finalized": 0, "standings_200": 0, "standings_304": 0}

    class Referee(FastHttpUser):
        """One table's referee: enters a hand every few seconds, each game its own."""

        fixed_count = PLAN["referees"]
        wait_time = between(*PLAN["referee_wait"])

        def on_start(self) -> None:
            slot = next(_referee_slots) % PLAN["referees"]
            self.games: list[int] = list(PLAN["games"][slot])
            self.headers = {"Authorization": f"Token {PLAN['tokens'][slot]}"}
            self._next_game()
            self.wait()  # tables do not all finish a hand in the same second

        def _next_game(self) -> None:
            self.game = self.games.pop(0) if self.games else None
            self.version = 0
            self.number = 0
            self.dealer = 0

        @task
        def enter_hand(self) -> None:
            if self.game is None:
                return  # every game of this referee is done
            if self.number == PLAN["hands_per_game"]:
                self._finalize()
                return
            hand, dealer = next_hand(self.number, self.dealer)
            with self.client.post(
                f"/api/v1/games/{self.game}/hands/",
                json={"version": self.version, "hand": hand},
                headers={**self.headers, "Idempotency-Key": str(uuid.uuid4())},
                name="POST hand",
                catch_response=True,
            ) as response:
                if response.status_code == 201:
                    _acknowledged["hands"] += 1
                    self.version = response.json()["version"]
                    self.number += 1
                    self.dealer = dealer
                    response.success()
                else:
                    response.failure(f"{response.status_code}: {response.text[:200]}")
                    self._resync()

        def _finalize(self) -> None:
            with self.client.post(
                f"/api/v1/games/{self.game}/finalize/",
                json={"version": self.version, "end": "time"},
                headers={**self.headers, "Idempotency-Key": str(uuid.uuid4())},
                name="POST finalize",
                catch_response=True,
            ) as response:
                if response.status_code == 200:
                    _acknowledged["finalized"] += 1
                    response.success()
                    self._next_game()
                else:
                    response.failure(f"{response.status_code}: {response.text[:200]}")
                    self._resync()

        def _resync(self) -> None:
            """After a failure, read the game as it is (as a phone would) and go on."""
            response = self.client.get(
                f"/api/v1/games/{self.game}/", headers=self.headers, name="GET game (resync)"
            )
            if response.status_code == 200:
                body = response.json()
                self.version = body["version"]
                self.number = len(body.get("hands", []))

    class StandingsReader(FastHttpUser):
        """A player's phone polling the standings: like a browser's cache, it sends back the
        ETag of the table it has, and an unchanged table comes back as a bodyless 304."""

        fixed_count = PLAN["readers"]
        wait_time = between(*PLAN["reader_wait"])

        def on_start(self) -> None:
            self.etag = ""
            self.wait()  # phones are opened over a while, not all in the same second

        @task
        def standings(self) -> None:
            headers = {"If-None-Match": self.etag} if self.etag else {}
            response = self.client.get(
                f"/api/v1/tournaments/{PLAN['slug']}/standings/",
                headers=headers,
                name="GET standings",
            )
            if response.headers is not None:
                self.etag = str(response.headers.get("ETag") or self.etag)
            if response.status_code in (200, 304):
                _acknowledged[f"standings_{response.status_code}"] += 1

    @events.quitting.add_listener
    def _write_acknowledged(environment: Any, **_: Any) -> None:
        Path(PLAN["acknowledged_file"]).write_text(json.dumps(_acknowledged))


# ==== the orchestrating side ===================================================================


def log(message: str) -> None:
    print(f"[load {time.strftime('%H:%M:%S')}] {message}", flush=True)


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def require_loopback(url: str, what: str) -> urllib.parse.SplitResult:
    parts = urllib.parse.urlsplit(url)
    if parts.hostname not in LOOPBACK:
        sys.exit(f"{what} must point at this machine (127.0.0.1), not {parts.hostname!r}")
    return parts


def scratch_database(database_url: str) -> tuple[str, str]:
    """A new database on the same server: (its URL, its name)."""
    parts = require_loopback(database_url, "DATABASE_URL")
    if parts.scheme not in ("postgres", "postgresql", "pgsql"):
        sys.exit("DATABASE_URL must be PostgreSQL: the load test measures the real stack")
    base = parts.path.lstrip("/") or "hanchan"
    name = f"{base}_load_{secrets.token_hex(4)}"
    return urllib.parse.urlunsplit(parts._replace(path=f"/{name}")), name


def admin_sql(database_url: str, statement: str) -> None:
    import psycopg

    parts = urllib.parse.urlsplit(database_url)
    with psycopg.connect(
        host=parts.hostname,
        port=parts.port or 5432,
        user=urllib.parse.unquote(parts.username or ""),
        password=urllib.parse.unquote(parts.password or ""),
        dbname="postgres",
        autocommit=True,
    ) as connection:
        connection.execute(statement)


def seed(*, referees: int, games_per_referee: int, readers_players: int) -> dict[str, Any]:
    """One running tournament; referee r plays table r of sessions 1..games_per_referee."""
    import datetime

    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from club.ratings.services import rebuild_ratings
    from core.models import Player
    from core.tokens import issue_token
    from scoring.models import Game, GameSeat
    from scoring.services.games import compute_summary
    from tournaments.models import Registration, Seat, Session, StaffRole, Table, Tournament
    from tournaments.standings.services import recompute_standings

    user_model = get_user_model()
    slug = f"load-{secrets.token_hex(3)}"
    tournament = Tournament.objects.create(
        name="Load test open",
        slug=slug,
        ruleset="ema-2025",
        starts_on=datetime.date(2026, 5, 2),
        ends_on=datetime.date(2026, 5, 3),
        country="DE",
        status=Tournament.Status.RUNNING,
    )
    players = Player.objects.bulk_create(
        Player(first_name=f"Player{i}", last_name=f"Load{i}", country="DE")
        for i in range(max(4 * referees, readers_players))
    )
    Registration.objects.bulk_create(Registration(tournament=tournament, player=p) for p in players)
    # API tokens only: no password (an unusable one), so the seed hashes none; with the
    # production hasher 150 referees took minutes of CPU on a loaded machine.
    organiser = user_model.objects.create_user("load-organiser")
    StaffRole.objects.create(tournament=tournament, user=organiser, role=StaffRole.Role.ORGANISER)
    tokens = []
    for r in range(referees):
        user = user_model.objects.create_user(f"load-referee-{r}")
        StaffRole.objects.create(tournament=tournament, user=user, role=StaffRole.Role.REFEREE)
        tokens.append(issue_token(user)[1])

    def _link(tables: list[Any], games: list[Any]) -> None:
        for table, game in zip(tables, games, strict=True):
            table.game = game  # the table holds the link (issue 14)
        Table.objects.bulk_update(tables, ["game"])

    def sit(order: list[Any], tables: list[Any], games: list[Any]) -> None:
        """Four players of `order` per table, in wind order, at the table and in its game."""
        Seat.objects.bulk_create(
            Seat(table=t, wind=w, player=order[4 * i + w])
            for i, t in enumerate(tables)
            for w in range(4)
        )
        GameSeat.objects.bulk_create(
            GameSeat(game=g, seat=w, player=order[4 * i + w])
            for i, g in enumerate(games)
            for w in range(4)
        )

    rng = random.Random(7)
    # Mid-tournament: a first session already played (paper scores), so the readers get a
    # standings table with a row per player from the first second, as they would.
    played = Session.objects.create(tournament=tournament, number=1, status=Session.Status.CLOSED)
    order = list(players)
    rng.shuffle(order)
    tables = Table.objects.bulk_create(
        Table(session=played, number=n + 1) for n in range(len(order) // 4)
    )
    finished = Game.objects.bulk_create(
        Game(
            ruleset="ema-2025",
            entry=Game.Entry.FINAL_SCORES,
            final_scores=rng.sample([45000, 35000, 25000, 15000], 4),
            status=Game.Status.FINISHED,
            end="complete",
        )
        for _table in tables
    )
    _link(tables, finished)
    sit(order, tables, finished)
    # As finishing them through the services would have left them: summaries cached, finish
    # times set, the ratings and standings computed.
    played_at = timezone.now() - datetime.timedelta(hours=3)
    for game in finished:
        game.summary = compute_summary(game)
        game.finished_at = played_at
    Game.objects.bulk_update(finished, ["summary", "finished_at"])
    rebuild_ratings()
    recompute_standings(tournament_id=tournament.pk)

    games: list[list[int]] = [[] for _ in range(referees)]
    started_at = timezone.now() - datetime.timedelta(minutes=80)
    for number in range(2, games_per_referee + 2):
        # Started 80 minutes ago (of 90): the time signal has sounded (EMA 2025 7.4), so a
        # referee may end a game on time ("end": "time") without an organiser's override.
        session = Session.objects.create(
            tournament=tournament,
            number=number,
            status=Session.Status.RUNNING,
            started_at=started_at,
        )
        tables = Table.objects.bulk_create(
            Table(session=session, number=r + 1) for r in range(referees)
        )
        order = players[: 4 * referees]
        rng.shuffle(order)
        seated = Game.objects.bulk_create(Game(ruleset="ema-2025") for _table in tables)
        _link(tables, seated)
        sit(order, tables, seated)
        for r, game in enumerate(seated):
            games[r].append(game.pk)
    return {
        "slug": slug,
        "tournament_id": tournament.pk,
        "tokens": tokens,
        "organiser_token": issue_token(organiser)[1],
        "games": games,
    }


def count_rows(tournament_id: int) -> dict[str, int]:
    from django.db.models import Sum

    from club.models import RatingChange
    from scoring.models import Game, Hand
    from tournaments.models import StandingRow

    in_tournament = {"game__table__session__tournament_id": tournament_id}
    return {
        "hands": Hand.objects.filter(**in_tournament).count(),
        # Games entered hand by hand: the seeded first session is on paper scores.
        "finished": Game.objects.filter(
            table__session__tournament_id=tournament_id,
            status=Game.Status.FINISHED,
            entry=Game.Entry.HANDS,
        ).count(),
        "standing_rows": StandingRow.objects.filter(tournament_id=tournament_id).count(),
        # Every finished game (the paper first session's too), as the standings count them:
        # one per player and game.
        "all_finished": Game.objects.filter(
            table__session__tournament_id=tournament_id, status=Game.Status.FINISHED
        ).count(),
        "standing_games": StandingRow.objects.filter(tournament_id=tournament_id).aggregate(
            n=Sum("games")
        )["n"]
        or 0,
        # Rating changes of the games entered hand by hand: 4 per game the ratings took in.
        "rating_changes": RatingChange.objects.filter(
            game__table__session__tournament_id=tournament_id, game__entry=Game.Entry.HANDS
        ).count(),
    }


def recomputed(counts: dict[str, int]) -> bool:
    """Whether the standings and ratings have taken in every finished game."""
    return (
        counts["standing_games"] == 4 * counts["all_finished"]
        and counts["rating_changes"] == 4 * counts["finished"]
    )


def wait_recomputed(tournament_id: int, timeout: float) -> tuple[dict[str, int], float]:
    """The counts once the worker has caught up (or at the timeout), and the seconds waited."""
    started = time.monotonic()
    counts = count_rows(tournament_id)
    while not recomputed(counts) and time.monotonic() - started < timeout:
        time.sleep(0.5)
        counts = count_rows(tournament_id)
    return counts, time.monotonic() - started


def start(args: list[str], env: dict[str, str], log_path: Path) -> subprocess.Popen[bytes]:
    handle = open(log_path, "ab")  # noqa: SIM115
    process = subprocess.Popen(
        args, cwd=ROOT, env=env, stdout=handle, stderr=subprocess.STDOUT, start_new_session=True
    )
    handle.close()
    return process


def stop(process: subprocess.Popen[bytes] | None, timeout: float = 20) -> None:
    if process is None or process.poll() is not None:
        return
    os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=10)


def wait_for(predicate: Any, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.3)
    raise RuntimeError(f"timed out waiting for {what}")


def http_ok(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return bool(response.status == 200)
    except OSError:
        return False


def read_stats(csv_prefix: Path) -> list[dict[str, str]]:
    with open(f"{csv_prefix}_stats.csv", newline="") as handle:
        return list(csv.DictReader(handle))


def print_table(rows: list[dict[str, str]], duration: float) -> bool:
    """The per-request-type table; returns whether hand entry met the goal."""
    header = f"{'request':<22}{'count':>8}{'errors':>8}{'req/s':>8}{'p50 ms':>9}{'p95 ms':>9}"
    header += f"{'p99 ms':>9}{'max ms':>9}"
    print()
    print(header)
    print("-" * len(header))
    met = False
    for row in rows:
        name = row["Name"] if row["Name"] != "Aggregated" else "all"
        count = int(row["Request Count"])
        print(
            f"{name:<22}{count:>8}{int(row['Failure Count']):>8}{count / duration:>8.1f}"
            f"{row['50%']:>9}{row['95%']:>9}{row['99%']:>9}{float(row['Max Response Time']):>9.0f}"
        )
        if name == "POST hand":
            p95 = float(row["95%"])
            met = p95 <= GOAL_P95_MS and int(row["Failure Count"]) == 0
            print_goal = (
                f"\ngoal: hand entry p95 <= {GOAL_P95_MS:.0f} ms and 0 errors; "
                f"measured p95 {p95:.0f} ms, {row['Failure Count']} errors -> "
                f"{'MET' if met else 'NOT MET'}"
            )
    print(print_goal if "print_goal" in locals() else "\nno hand entry request was made")
    return met


class CpuSampler(threading.Thread):
    """Once a second, the CPU time (user + system, from /proc) used so far by the processes of
    each group: the web server's and the worker's process groups (each started in a session of
    its own), locust (this process's children), and every PostgreSQL backend on the machine
    (other users' included). Processes that ended keep the time they had used."""

    def __init__(self, web: int, worker: int) -> None:
        super().__init__(daemon=True)
        self.groups = {web: "web", worker: "worker"}
        self.samples: list[tuple[float, dict[str, float]]] = []
        self.used: dict[int, tuple[str, int]] = {}
        self.done = threading.Event()
        self.tick = os.sysconf("SC_CLK_TCK")

    def _group(self, pid: str, stat: list[str]) -> str | None:
        group = self.groups.get(int(stat[2]))  # the process group
        if group is not None:
            return group
        try:
            command = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            return None
        if command.startswith(b"postgres"):
            return "postgres"
        if int(stat[1]) == os.getpid() and b"locust" in command:
            return "locust"
        return None

    def sample(self) -> None:
        for pid in os.listdir("/proc"):
            if not pid.isdigit():
                continue
            try:
                stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            except (OSError, IndexError):
                continue
            group = self._group(pid, stat)
            if group is not None:
                self.used[int(pid)] = (group, int(stat[11]) + int(stat[12]))
        totals: dict[str, float] = {}
        for group, ticks in self.used.values():
            totals[group] = totals.get(group, 0.0) + ticks / self.tick
        self.samples.append((time.time(), totals))

    def run(self) -> None:
        while not self.done.is_set():
            self.sample()
            self.done.wait(1.0)

    def at(self, when: float, group: str) -> float:
        return min(self.samples, key=lambda s: abs(s[0] - when))[1].get(group, 0.0)


def print_cpu(sampler: CpuSampler, csv_prefix: Path) -> None:
    """CPU per request in the steady state: the CPU each group used between the first and the
    last second locust counted after all users ran (its stats history), per request counted."""
    with open(f"{csv_prefix}_stats_history.csv", newline="") as handle:
        rows = [r for r in csv.DictReader(handle) if r["Name"] == "Aggregated"]
    start = 0  # the history restarts at 0 requests when the users are all running
    for i in range(1, len(rows)):
        if int(rows[i]["Total Request Count"]) < int(rows[i - 1]["Total Request Count"]):
            start = i
    if len(rows) - start < 2 or not sampler.samples:
        print("CPU: not enough samples")
        return
    first, last = rows[start], rows[-1]
    t0, t1 = float(first["Timestamp"]), float(last["Timestamp"])
    served = int(last["Total Request Count"]) - int(first["Total Request Count"])
    print(f"\nCPU in the steady state ({t1 - t0:.0f} s, {served} requests, from /proc):")
    for group in ("web", "worker", "postgres", "locust"):
        used = sampler.at(t1, group) - sampler.at(t0, group)
        per_request = 1000 * used / max(served, 1)
        print(f"  {group:<9}{used / (t1 - t0):6.2f} cores  {per_request:6.2f} ms per request")
    print("  (postgres: every backend on the machine, other users' included)")


def fuzz_live(base: str, examples: int, work: Path, max_time: int) -> int:
    """bench/fuzz.py against the running server: it seeds the objects the operations act on
    (in this process's database, the server's), runs schemathesis with links and fixed path
    parameters, prints the 2xx count per operation, and returns the number of 5xx answers."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import fuzz

    world = fuzz.seed_fuzz_world()
    world["pools"] = fuzz.seed_pools(world)  # fresh objects for the generated requests
    return int(fuzz.fuzz_live(base, world, examples, work, max_time=max_time))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--duration", type=int, default=120, help="seconds of load (120)")
    parser.add_argument("--referees", type=int, default=50, help="concurrent referees (50)")
    parser.add_argument("--readers", type=int, default=200, help="standings readers (200)")
    parser.add_argument("--web-workers", type=int, default=4, help="gunicorn workers (4)")
    # The default pace is a tournament's, sped up about twenty times: a hanchan of a 90-minute
    # session (EMA 2025 7.4) has some 8-16 hands, one every 5-10 minutes per table, and the
    # standings page polls every 15 s. `--referee-wait 1,3 --reader-wait 2,5` is the stress
    # pace (hundreds of times a real one) that finds the machine's capacity.
    parser.add_argument(
        "--referee-wait",
        default="10,30",
        help="seconds a referee waits between hands, min,max (10,30; stress: 1,3)",
    )
    parser.add_argument(
        "--reader-wait",
        default="5,15",
        help="seconds between standings reads, min,max (5,15; stress: 2,5)",
    )
    parser.add_argument("--spawn-rate", type=float, default=50, help="users started per second")
    parser.add_argument(
        "--hands-per-game",
        type=int,
        default=HANDS_PER_GAME,
        help=f"hands a referee enters before finalizing on time ({HANDS_PER_GAME}; fewer "
        "finish more games in a short run)",
    )
    parser.add_argument(
        "--min-finished",
        type=int,
        default=0,
        help="fail unless the referees finished at least this many games (0)",
    )
    parser.add_argument(
        "--drain-timeout",
        type=float,
        default=120,
        help="seconds to wait after the load for the standings and ratings to catch up (120)",
    )
    parser.add_argument(
        "--fuzz-examples",
        type=int,
        default=0,
        help="after the load, run schemathesis against the live server with this many examples "
        "per operation, as the organiser, and count server errors (0: skip)",
    )
    parser.add_argument(
        "--fuzz-max-time",
        type=int,
        default=120,
        help="time budget of the schemathesis run in seconds (120)",
    )
    parser.add_argument("--keep-db", action="store_true", help="keep the scratch database")
    parser.add_argument("--logs", default="", help="directory for logs (default: a temp dir)")
    options = parser.parse_args()

    # A TERM (e.g. from `timeout`) still stops the servers and drops the scratch database.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(124))
    database_url = os.environ.get("DATABASE_URL", "")
    broker_url = os.environ.get("CELERY_BROKER_URL", "")
    if not database_url or not broker_url:
        sys.exit("set DATABASE_URL (PostgreSQL) and CELERY_BROKER_URL (Redis) first")
    require_loopback(broker_url, "CELERY_BROKER_URL")
    referee_wait = [float(x) for x in options.referee_wait.split(",")]
    reader_wait = [float(x) for x in options.reader_wait.split(",")]
    # Enough games that no referee runs out: the fastest pace, plus one spare.
    if options.hands_per_game < 1:
        sys.exit("--hands-per-game must be at least 1")
    games_per_referee = math.ceil(options.duration / referee_wait[0] / options.hands_per_game) + 1

    work = Path(options.logs or tempfile.mkdtemp(prefix="hanchan-load-"))
    work.mkdir(parents=True, exist_ok=True)
    scratch_url, scratch_name = scratch_database(database_url)
    queue = f"hanchan-load-{secrets.token_hex(4)}"
    port = free_port()
    env = {
        **{k: v for k, v in os.environ.items() if k not in {"DEBUG", "HANCHAN_TESTING"}},
        "DATABASE_URL": scratch_url,
        "CELERY_BROKER_URL": broker_url,
        "CELERY_RESULT_BACKEND": os.environ.get("CELERY_RESULT_BACKEND", broker_url),
        "CELERY_QUEUE": queue,
        # Shared by the web processes and the worker, as in production (keys are versioned).
        "CACHE_URL": os.environ.get("CACHE_URL")
        or (broker_url if broker_url.startswith("redis") else ""),
        "HANCHAN_ENV": "production",  # strict production settings (config/settings.py)
        "SECRET_KEY": secrets.token_urlsafe(50),  # throwaway, for this run only
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "0",  # plain HTTP on loopback
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "LOG_LEVEL": "WARNING",
        "PYTHONPATH": str(ROOT),
    }
    web = worker = None
    started = time.monotonic()
    try:
        log(f"scratch database {scratch_name}; logs in {work}")
        admin_sql(database_url, f'CREATE DATABASE "{scratch_name}"')
        migrate = subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
        )
        if migrate.returncode != 0:
            raise RuntimeError(f"migrate failed:\n{migrate.stdout}\n{migrate.stderr}")
        os.environ.update(
            {k: env[k] for k in ("DATABASE_URL", "HANCHAN_ENV", "SECRET_KEY", "ALLOWED_HOSTS")}
        )
        os.environ.update(DJANGO_SETTINGS_MODULE="config.settings", CELERY_BROKER_URL=broker_url)
        os.environ.pop("DEBUG", None)
        os.environ.pop("HANCHAN_TESTING", None)
        sys.path.insert(0, str(ROOT))
        world = seed(
            referees=options.referees,
            games_per_referee=games_per_referee,
            readers_players=4 * options.referees,
        )
        log(
            f"seeded tournament {world['slug']}: {options.referees} referees x "
            f"{games_per_referee} games"
        )

        worker = start(
            [
                *(sys.executable, "-m", "celery", "-A", "config", "worker", "-Q", queue),
                *("--concurrency", "1", "--loglevel", "warning"),
                *("--without-gossip", "--without-mingle"),
            ],
            env,
            work / "worker.log",
        )
        web = start(
            [
                *(sys.executable, "-m", "gunicorn", "config.wsgi"),
                *("--bind", f"127.0.0.1:{port}", "--workers", str(options.web_workers)),
                *("--timeout", "60", "--log-level", "warning"),
            ],
            env,
            work / "gunicorn.log",
        )
        base = f"http://127.0.0.1:{port}"
        wait_for(lambda: http_ok(f"{base}/health/"), 60, "gunicorn")
        log(f"gunicorn ({options.web_workers} workers) on {base}, celery worker on {queue}")

        plan_file = work / "plan.json"
        acknowledged_file = work / "acknowledged.json"
        plan_file.write_text(
            json.dumps(
                {
                    **world,
                    "referees": options.referees,
                    "readers": options.readers,
                    "referee_wait": referee_wait,
                    "reader_wait": reader_wait,
                    "hands_per_game": options.hands_per_game,
                    "acknowledged_file": str(acknowledged_file),
                }
            )
        )
        users = options.referees + options.readers
        csv_prefix = work / "locust"
        locust_cmd = [sys.executable, "-m", "locust", "-f", str(Path(__file__).resolve())]
        locust_cmd += ["--headless", "--host", base, "--users", str(users)]
        # The figures are the steady state: counted from the moment every user has started
        # (--reset-stats), for --duration seconds after that.
        ramp_up = math.ceil(users / options.spawn_rate)
        locust_cmd += ["--spawn-rate", str(options.spawn_rate), "--reset-stats", "--run-time"]
        locust_cmd += [f"{options.duration + ramp_up}s", "--csv", str(csv_prefix)]
        locust_cmd += ["--only-summary"]
        # At the end every user finishes the request it has in flight (up to 60 s), so that
        # each hand the server saved was also acknowledged (or failed) on the client side.
        locust_cmd += ["--stop-timeout", "60", "--exit-code-on-error", "0", "--loglevel"]
        locust_cmd += ["WARNING"]
        load_before = os.getloadavg()[0]
        sampler = CpuSampler(web.pid, worker.pid)
        sampler.start()
        log(
            f"locust: {options.referees} referees + {options.readers} readers, {options.duration} s"
        )
        result = subprocess.run(
            locust_cmd,
            cwd=ROOT,
            env={**env, PLAN_ENV: str(plan_file)},
            capture_output=True,
            text=True,
            timeout=options.duration + 180,  # it stops by itself; this is the backstop
        )
        sampler.done.set()
        sampler.join()
        (work / "locust.log").write_text(result.stdout + result.stderr)
        if result.returncode != 0 or not acknowledged_file.exists():
            print(result.stdout[-3000:], result.stderr[-3000:])
            raise RuntimeError(f"locust failed ({result.returncode})")
        acknowledged = json.loads(acknowledged_file.read_text())

        stats = read_stats(csv_prefix)
        met = print_table(stats, float(options.duration))
        # Let the worker drain the standings and ratings updates, then compare.
        counts, waited = wait_recomputed(world["tournament_id"], options.drain_timeout)
        lost = counts["hands"] != acknowledged["hands"]
        print(
            f"\nno lost hand: {counts['hands']} Hand rows in the database, "
            f"{acknowledged['hands']} acknowledged with 201 -> {'FAIL' if lost else 'OK'}"
        )
        print(
            f"games finalized: {acknowledged['finalized']} acknowledged, "
            f"{counts['finished']} finished in the database "
            f"({options.hands_per_game} hands each, at least {options.min_finished} asked); "
            f"standings rows: {counts['standing_rows']}"
        )
        caught_up = recomputed(counts)
        few = counts["finished"] < options.min_finished
        print(
            f"recomputed under load: standings count {counts['standing_games']} player-games "
            f"of {4 * counts['all_finished']} ({counts['all_finished']} finished games, "
            f"{counts['finished']} of them by the referees); ratings: "
            f"{counts['rating_changes']} rating changes of {4 * counts['finished']}; "
            f"{waited:.1f} s after the load -> {'OK' if caught_up and not few else 'FAIL'}"
        )
        print(
            f"standings reads: {acknowledged.get('standings_200', 0)} answered with the table "
            f"(200), {acknowledged.get('standings_304', 0)} unchanged (304), ramp-up included"
        )
        errors = sum(int(r["Failure Count"]) for r in stats if r["Name"] == "Aggregated")
        print(
            f"errors: {errors}; machine: {os.cpu_count()} cores, load average "
            f"{load_before:.1f} before / {os.getloadavg()[0]:.1f} after the run; total wall "
            f"time {time.monotonic() - started:.0f} s"
        )
        if not met:
            print("(the latency goal is reported, not enforced: see docs/reliability.md)")
        print_cpu(sampler, csv_prefix)
        server_errors = 0
        if options.fuzz_examples:
            server_errors = fuzz_live(base, options.fuzz_examples, work, options.fuzz_max_time)
        failed = (
            lost
            or errors
            or server_errors
            or counts["finished"] != acknowledged["finalized"]
            or not caught_up
            or few
        )
        return 1 if failed else 0
    finally:
        stop(web)
        stop(worker)
        try:
            from django.db import connections

            connections.close_all()
        except Exception:  # Django may never have been set up
            pass
        if not options.keep_db:
            try:
                admin_sql(database_url, f'DROP DATABASE IF EXISTS "{scratch_name}" WITH (FORCE)')
            except Exception as error:  # report; don't hide the real outcome
                log(f"could not drop {scratch_name}: {error}")
        if not options.logs:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__" and not os.environ.get(PLAN_ENV):
    sys.exit(main())
