"""Helpers of the reliability tests: a running tournament with token-authenticated staff, and
helpers that start real processes (redis-server, celery worker, gunicorn) on loopback ports.

Nothing here touches the machine's shared Redis: fault tests start their own redis-server on a
spare 127.0.0.1 port and stop it at will.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import pytest
from django.contrib.auth.models import User
from django.db import connections
from rest_framework.test import APIClient

from core.models import Player
from core.tokens import issue_token
from scoring.models import Game
from tests.factories import (
    GameFactory,
    PlayerFactory,
    RegistrationFactory,
    SessionFactory,
    StaffRoleFactory,
    TableFactory,
    TournamentFactory,
    UserFactory,
    non_dealer_rons,
)
from tournaments.models import Session, StaffRole, Tournament

ROOT = Path(__file__).resolve().parents[2]
PYTHON = sys.executable


def on_postgresql() -> bool:
    return connections["default"].vendor == "postgresql"


def database_url_for_subprocess() -> str:
    """The test database as a URL a server or worker process can open (PostgreSQL only)."""
    db = connections["default"].settings_dict
    if db["ENGINE"] != "django.db.backends.postgresql":
        pytest.skip("needs PostgreSQL: a subprocess cannot share SQLite's in-memory test database")
    return "postgres://{USER}:{PASSWORD}@{HOST}:{PORT}/{NAME}".format(
        **{**db, "PORT": db["PORT"] or 5432, "HOST": db["HOST"] or "127.0.0.1"}
    )


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_until(predicate: Any, *, timeout: float, interval: float = 0.2) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(interval)
    return bool(predicate())


def stop_process(process: subprocess.Popen[bytes], *, timeout: float = 20) -> None:
    """Stop a process we started (its own process group): TERM, then KILL."""
    if process.poll() is not None:
        return
    try:
        os.killpg(process.pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=10)


# --- a private redis-server -----------------------------------------------------------------


class RedisServer:
    """A redis-server of our own on a spare loopback port, stopped and restarted at will."""

    def __init__(self, directory: Path) -> None:
        self.port = free_port()
        self.directory = directory
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def ping(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as sock:
                sock.sendall(b"PING\r\n")
                return sock.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def start(self) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            pytest.skip("redis-server is not installed")
        log = open(self.directory / "redis.log", "ab")  # noqa: SIM115
        self.process = subprocess.Popen(
            [
                binary,
                "--bind",
                "127.0.0.1",
                "--port",
                str(self.port),
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.directory),
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        log.close()
        if not wait_until(self.ping, timeout=10):
            raise RuntimeError(f"redis-server did not start on port {self.port}")

    def stop(self) -> None:
        if self.process is not None:
            stop_process(self.process)
            self.process = None
        assert wait_until(lambda: not self.ping(), timeout=5)


# --- worker and web server processes ---------------------------------------------------------


def process_env(*, broker_url: str, queue: str, **extra: str) -> dict[str, str]:
    env = {
        **os.environ,
        "DATABASE_URL": database_url_for_subprocess(),
        "CELERY_BROKER_URL": broker_url,
        "CELERY_RESULT_BACKEND": broker_url,
        "CELERY_QUEUE": queue,
        "HANCHAN_TESTING": "1",
        "PYTHONPATH": str(ROOT),
        "DB_CONN_MAX_AGE": "0",
        # start_worker waits for Celery's "ready." line, logged at INFO: the settings keep
        # library loggers at WARNING unless asked (issue 37).
        "LOG_LIBRARIES": "INFO",
    }
    env.pop("CACHE_URL", None)
    env.update(extra)
    return env


def start_worker(
    env: dict[str, str],
    log_path: Path,
    *,
    pool: str = "solo",
    include: str | None = None,
) -> subprocess.Popen[bytes]:
    args = [PYTHON, "-m", "celery", "-A", "config", "worker", "-Q", env["CELERY_QUEUE"]]
    args += ["--pool", pool, "--concurrency", "1", "--loglevel", "info", "--without-gossip"]
    args += ["--without-mingle", "--without-heartbeat"]
    if include:
        args += ["-I", include]
    log = open(log_path, "ab")  # noqa: SIM115
    process = subprocess.Popen(
        args, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
    )
    log.close()
    if not wait_until(lambda: b"ready." in log_path.read_bytes(), timeout=60):
        stop_process(process)
        raise RuntimeError(f"celery worker did not get ready; see {log_path}")
    return process


def start_web(env: dict[str, str], log_path: Path, *, workers: int = 1) -> tuple[Any, str]:
    port = free_port()
    log = open(log_path, "ab")  # noqa: SIM115
    process = subprocess.Popen(
        [
            PYTHON,
            "-m",
            "gunicorn",
            "config.wsgi",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            str(workers),
            "--timeout",
            "60",
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    log.close()
    base = f"http://127.0.0.1:{port}"

    def healthy() -> bool:
        try:
            with urllib.request.urlopen(f"{base}/health/", timeout=2) as response:
                return bool(response.status == 200)
        except OSError:
            return False

    if not wait_until(healthy, timeout=30):
        stop_process(process)
        raise RuntimeError(f"gunicorn did not answer /health/; see {log_path}")
    return process, base


# --- a running tournament --------------------------------------------------------------------


@dataclass
class Event:
    """One running tournament: `games` on separate tables of session 1, all players
    registered; an organiser and a referee with API tokens."""

    tournament: Tournament
    session: Session
    games: list[Game]
    players: list[Player]
    organiser: User
    referee: User
    tokens: dict[str, str] = field(default_factory=dict)

    def client(self, role: str = "referee") -> APIClient:
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {self.tokens[role]}")
        return client


def make_event(*, tables: int = 1, slug: str = "reliability-open") -> Event:
    # cast: the factories are not generic, so mypy sees the factory type, not the model.
    tournament = cast(Tournament, TournamentFactory(slug=slug, status=Tournament.Status.RUNNING))
    session = cast(
        Session, SessionFactory(tournament=tournament, number=1, status=Session.Status.RUNNING)
    )
    games: list[Game] = []
    players: list[Player] = []
    for number in range(1, tables + 1):
        table = TableFactory(session=session, number=number)
        table_players = [cast(Player, PlayerFactory()) for _ in range(4)]
        for player in table_players:
            RegistrationFactory(tournament=tournament, player=player)
        games.append(cast(Game, GameFactory(table=table, players=table_players)))
        players += table_players
    organiser = cast(User, UserFactory(username=f"{slug}-organiser"))
    referee = cast(User, UserFactory(username=f"{slug}-referee"))
    StaffRoleFactory(tournament=tournament, user=organiser, role=StaffRole.Role.ORGANISER)
    StaffRoleFactory(tournament=tournament, user=referee, role=StaffRole.Role.REFEREE)
    tokens = {
        "organiser": issue_token(organiser)[1],
        "referee": issue_token(referee)[1],
    }
    return Event(tournament, session, games, players, organiser, referee, tokens)


def full_game_hands() -> list[dict[str, Any]]:
    """Eight hands that finish an east-south game (the dealer never wins)."""
    return non_dealer_rons(8)
