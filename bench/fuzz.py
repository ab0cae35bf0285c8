"""Live API fuzzing with schemathesis, reaching past validation (issue 16).

    .venv/bin/python bench/fuzz.py --examples 5         # its own server on a scratch SQLite
    bench/load.py --fuzz-examples 5                     # CI: after the load, on PostgreSQL

Random path parameters meet only 404s, and a request whose object is not there never reaches a
service. So before schemathesis runs:

1. `seed_fuzz_world()` creates what the operations work on: a running tournament with a seated
   session (a game with hands, an empty game, a finished game), registrations, a penalty, a
   seating plan, a club with a night and a league, and an organiser who is also the club's
   admin and a registered player, with an API token;
2. `write_config()` writes a schemathesis.toml that sends that token and gives each operation's
   path parameters those objects' ids and slugs (a `[[operations]]` entry per path);
3. the schema itself carries OpenAPI links (`config/openapi.py`: a created object's id or slug
   to the operations on it), so the stateful phase chains a POST into the reads and writes of
   what it created;
4. schemathesis' CLI runs the examples, coverage, fuzzing and stateful phases with
   `--max-examples` per operation under a time budget (`--max-time`), checking only
   `not_a_server_error` (a 5xx fails the run);
5. `report()` reads the NDJSON event stream and prints, per operation, how many cases ran, how
   many got a 2xx, a 4xx and a 5xx: the 2xx column says how far the generated requests got.

Exit status (standalone): 1 when any answer was a 5xx. Loopback only.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

# The path's resource (the segment before a parameter) -> the seeded object for it.
RESOURCES = {
    "tournaments": "slug",
    "clubs": "club_slug",
    "games": "game",
    "sessions": "session",
    "tables": "table",
    "registrations": "registration",
    "players": "player",
    "penalties": "penalty",
    "seating-plans": "plan",
    "nights": "night",
    "staff": "staff",
    "hands": "hand_number",
    "tokens": "token_id",
}


def seed_fuzz_world() -> dict[str, Any]:
    """The objects the fuzzed operations act on (Django must be set up)."""
    import datetime

    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from club.models import Club, ClubNight, League, Membership
    from core.models import Player
    from core.tokens import issue_token
    from scoring.models import Game, GameSeat, Hand
    from tournaments.models import (
        Penalty,
        Registration,
        Seat,
        SeatingPlan,
        Session,
        StaffRole,
        Table,
        Tournament,
    )

    tag = secrets.token_hex(3)
    user_model = get_user_model()
    organiser = user_model.objects.create_user(
        f"fuzz-organiser-{tag}", password=secrets.token_hex(8)
    )
    referee = user_model.objects.create_user(f"fuzz-referee-{tag}", password=secrets.token_hex(8))
    tournament = Tournament.objects.create(
        name="Fuzz open",
        slug=f"fuzz-{tag}",
        ruleset="ema-2025",
        starts_on=datetime.date(2026, 5, 2),
        ends_on=datetime.date(2026, 5, 3),
        country="DE",
        status=Tournament.Status.RUNNING,
    )
    StaffRole.objects.create(tournament=tournament, user=organiser, role=StaffRole.Role.ORGANISER)
    staff = StaffRole.objects.create(
        tournament=tournament, user=referee, role=StaffRole.Role.REFEREE
    )
    players = [
        Player.objects.create(first_name=f"Fuzz{i}", last_name=f"Player{tag}", country="DE")
        for i in range(16)
    ]
    players[0].user = organiser
    players[0].save(update_fields=["user"])
    registrations = [Registration.objects.create(tournament=tournament, player=p) for p in players]
    # Started 80 minutes ago (of 90): the time signal has sounded (EMA 2025 7.4).
    session = Session.objects.create(
        tournament=tournament,
        number=1,
        status=Session.Status.RUNNING,
        started_at=timezone.now() - datetime.timedelta(minutes=80),
    )
    Session.objects.create(tournament=tournament, number=2, status=Session.Status.PLANNED)
    games = []
    for number in range(4):
        table = Table.objects.create(session=session, number=number + 1)
        seated = players[4 * number : 4 * number + 4]
        Seat.objects.bulk_create(Seat(table=table, wind=w, player=p) for w, p in enumerate(seated))
        game = Game.objects.create(ruleset="ema-2025")
        table.game = game  # the table holds the link (issue 14)
        table.save(update_fields=["game"])
        GameSeat.objects.bulk_create(
            GameSeat(game=game, seat=w, player=p) for w, p in enumerate(seated)
        )
        games.append(game)
    # Game 0 has two hands (to read, correct, confirm, delete); game 1 is empty (hand entry,
    # final scores, import onto it); game 3 is finished (reopen).
    for number, winner in enumerate((1, 2)):
        Hand.objects.create(
            game=games[0],
            number=number,
            data={"outcome": "ron", "wins": [{"winner": winner, "han": 2, "fu": 30}], "loser": 3},
        )
    Game.objects.filter(pk=games[0].pk).update(version=2)
    Game.objects.filter(pk=games[3].pk).update(
        entry=Game.Entry.FINAL_SCORES,
        final_scores={"scores": [50000, 40000, 20000, 10000], "riichi_sticks_left": 0},
        status=Game.Status.FINISHED,
        end="complete",
    )
    penalty = Penalty.objects.create(
        tournament=tournament,
        player=players[1],
        kind=Penalty.Kind.OBSTRUCTION,
        points=8000,
        reason="Fuzz",
    )
    plan = SeatingPlan.objects.create(
        tournament=tournament,
        mode=SeatingPlan.Mode.RANDOM,
        status=SeatingPlan.Status.DONE,
        progress=1.0,
        plan=[[[r.pk for r in registrations[4 * t : 4 * t + 4]] for t in range(4)]],
        options={"from_session": 2},
    )
    club = Club.objects.create(name="Fuzz club", slug=f"fuzz-club-{tag}")
    for index, player in enumerate(players[:8]):
        Membership.objects.create(
            club=club,
            player=player,
            role=Membership.Role.ADMIN if index == 0 else Membership.Role.MEMBER,
        )
    night = ClubNight.objects.create(club=club, date=timezone.localdate())
    League.objects.create(club=club, name="Fuzz league", starts_on=timezone.localdate())
    key = issue_token(organiser, name="fuzz")[1]
    # A second token of the organiser's for DELETE /auth/tokens/{id}/ (not the one in use).
    spare = issue_token(organiser, name="fuzz spare")[0]
    return {
        "token": key,
        "slug": tournament.slug,
        "club_slug": club.slug,
        "game": games[1].pk,  # the empty one: hands, preview, final scores reach the services
        "games": [g.pk for g in games],
        "session": session.pk,
        "table": games[1].table.pk,
        "registration": registrations[-1].pk,
        "player": players[0].pk,
        "penalty": penalty.pk,
        "plan": plan.pk,
        "night": night.pk,
        "staff": staff.pk,
        "hand_number": 0,
        "token_id": spare.pk,
    }


def path_parameters(path: str, world: dict[str, Any]) -> dict[str, Any]:
    """The seeded ids and slugs for a schema path's parameters, by the resource before each."""
    values: dict[str, Any] = {}
    parts = [p for p in path.split("/") if p]
    for index, part in enumerate(parts):
        if part.startswith("{") and part.endswith("}") and index > 0:
            resource = parts[index - 1]
            if resource in RESOURCES:
                value = world[RESOURCES[resource]]
                # The game with hands for the hand-number paths, so the number exists.
                if resource == "hands" or (resource == "games" and "/hands/{" in path):
                    value = world["games"][0] if resource == "games" else value
                values[f"path.{part[1:-1]}"] = value
    return values


def write_config(schema: dict[str, Any], world: dict[str, Any], path: Path) -> None:
    """schemathesis.toml: the organiser's token, and each path's parameters."""
    lines = [
        "# Written by bench/fuzz.py for one run.",
        f'headers = {{ Authorization = "Token {world["token"]}" }}',
        "",
    ]
    for api_path in sorted(schema["paths"]):
        fixed = path_parameters(api_path, world)
        if not fixed:
            continue
        pairs = ", ".join(f'"{k}" = {json.dumps(v)}' for k, v in sorted(fixed.items()))
        lines += ["[[operations]]", f"include-path = {json.dumps(api_path)}"]
        lines += [f"parameters = {{ {pairs} }}", ""]
    path.write_text("\n".join(lines))


def tally(report: Path) -> dict[str, Counter[str]]:
    """Per operation: the cases sent and their answers by class (2xx, 3xx, 4xx, 5xx), read from
    schemathesis' NDJSON events (each finished scenario records its cases and interactions)."""
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    seen: set[str] = set()
    for line in report.read_text().splitlines():
        try:
            event = json.loads(line)
        except ValueError:
            continue
        recorder = (event.get("ScenarioFinished") or {}).get("recorder") or {}
        interactions = recorder.get("interactions") or {}
        for case_id, case in (recorder.get("cases") or {}).items():
            interaction = interactions.get(case_id)
            if case_id in seen or not interaction or not interaction.get("response"):
                continue
            seen.add(case_id)
            value = case.get("value") or {}
            operation = f"{str(value.get('method', '')).upper()} {value.get('path', '')}"
            status = int(interaction["response"]["status_code"])
            counts[operation]["cases"] += 1
            counts[operation][f"{status // 100}xx"] += 1
    return counts


def _operations(schema: dict[str, Any]) -> list[str]:
    methods = {"get", "post", "put", "patch", "delete"}
    return sorted(
        f"{method.upper()} {path}"
        for path, item in schema["paths"].items()
        for method in item
        if method in methods
    )


def print_report(counts: dict[str, Counter[str]], schema: dict[str, Any]) -> None:
    operations = _operations(schema)
    print(f"\n{'operation':<64}{'cases':>7}{'2xx':>6}{'4xx':>6}{'5xx':>6}")
    print("-" * 89)
    reached = 0
    for operation in operations:
        c = counts.get(operation, Counter())
        reached += c["2xx"] > 0
        print(f"{operation:<64}{c['cases']:>7}{c['2xx']:>6}{c['4xx']:>6}{c['5xx']:>6}")
    total = Counter[str]()
    for c in counts.values():
        total.update(c)
    print("-" * 89)
    print(f"{'all':<64}{total['cases']:>7}{total['2xx']:>6}{total['4xx']:>6}{total['5xx']:>6}")
    print(f"operations with at least one 2xx: {reached} of {len(operations)}")


EXCEPTION_LINE = re.compile(r"[A-Za-z_][\w.]*(Error|Exception|DoesNotExist)\b")


def print_server_errors(server_log: Path, limit: int = 10) -> None:
    """The failing path and the final exception of each 5xx in the server's log: the logs
    folder is a temporary one in CI, so this is all that is left to debug a failure from."""
    if not server_log.exists():
        return
    failures: list[list[str]] = []
    for line in server_log.read_text(errors="replace").splitlines():
        if line.startswith("Internal Server Error:"):
            failures.append([line, ""])
        elif failures and EXCEPTION_LINE.match(line):
            failures[-1][1] = line  # the last exception of a chain is the one raised
    for path, error in failures[:limit]:
        print(f"  {path}\n    {error}")


def fuzz_live(
    base: str, world: dict[str, Any], examples: int, work: Path, *, max_time: int = 150
) -> int:
    """schemathesis' CLI against the running server; returns the number of 5xx answers."""
    with urllib.request.urlopen(f"{base}/api/schema/?format=json", timeout=30) as response:
        schema = json.loads(response.read())
    config = work / "schemathesis.toml"
    write_config(schema, world, config)
    report = work / "schemathesis.ndjson"
    print(f"\nschemathesis: {examples} examples per operation against {base}/api/schema/")
    command = [sys.executable, "-m", "schemathesis.cli", "--config-file", str(config), "run"]
    command += [f"{base}/api/schema/?format=json", "--checks", "not_a_server_error"]
    command += ["--max-examples", str(examples), "--max-time", str(max_time), "--seed", "1"]
    command += ["--phases", "examples,coverage,fuzzing,stateful", "--no-shrink"]
    command += ["--report", "ndjson", "--report-ndjson-path", str(report), "--no-color"]
    command += ["--suppress-health-check", "all", "--workers", "1"]
    started = time.monotonic()
    result = subprocess.run(
        command, cwd=work, capture_output=True, text=True, timeout=max_time + 180
    )
    (work / "schemathesis.log").write_text(result.stdout + result.stderr)
    counts = tally(report) if report.exists() else {}
    print_report(counts, schema)
    server_errors = sum(c["5xx"] for c in counts.values())
    # schemathesis closes with a pytest-style "=== ... ===" banner; CI reads such banners as a
    # test runner's verdict, so they are left out of what we print.
    lines = [line for line in result.stdout.strip().splitlines() if not line.startswith("==")]
    tail = "\n".join(lines[-14:])
    print(f"\nschemathesis ({time.monotonic() - started:.0f} s):\n{tail}")
    if result.returncode not in (0, 1):
        raise RuntimeError(f"schemathesis could not run ({result.returncode}):\n{tail}")
    if result.returncode == 1 and not server_errors:
        server_errors = max(1, result.stdout.count("Server error"))  # count it, don't hide it
    print(f"server errors (5xx) found: {server_errors} -> {'OK' if not server_errors else 'FAIL'}")
    if server_errors:
        print_server_errors(work / "gunicorn.log")
    return server_errors


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--examples", type=int, default=5, help="examples per operation (5)")
    parser.add_argument("--max-time", type=int, default=150, help="time budget in seconds")
    parser.add_argument("--keep", action="store_true", help="keep the work folder and database")
    options = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="hanchan-fuzz-"))
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{work / 'fuzz.sqlite3'}",
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "0",  # plain HTTP on loopback
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "PYTHONPATH": str(ROOT),
    }
    env.pop("HANCHAN_TESTING", None)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=ROOT,
        env=env,
        check=True,
    )
    os.environ.update(
        {k: env[k] for k in ("DATABASE_URL", "ALLOWED_HOSTS", "DJANGO_SETTINGS_MODULE")}
    )
    os.environ.pop("HANCHAN_TESTING", None)
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    world = seed_fuzz_world()
    port = _free_port()
    server = subprocess.Popen(
        [
            *(sys.executable, "-m", "gunicorn", "config.wsgi", "--bind", f"127.0.0.1:{port}"),
            *("--workers", "2", "--timeout", "60", "--log-level", "warning"),
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=(work / "gunicorn.log").open("w"),
    )
    try:
        base = f"http://127.0.0.1:{port}"
        for _ in range(100):
            try:
                urllib.request.urlopen(f"{base}/health/", timeout=2)
                break
            except OSError:
                time.sleep(0.2)
        return 1 if fuzz_live(base, world, options.examples, work, max_time=options.max_time) else 0
    finally:
        server.terminate()
        server.wait(timeout=30)
        if not options.keep:
            shutil.rmtree(work, ignore_errors=True)
        else:
            print(f"kept {work}")


if __name__ == "__main__":
    sys.exit(main())
