"""Faults of the real parts: the broker (Redis) going away, a worker dying mid-task.

Each test starts its own redis-server on a spare loopback port, its own Celery worker on a
private queue, and (for the HTTP test) its own gunicorn, all sharing the PostgreSQL test
database; the machine's shared Redis is never touched. They need PostgreSQL (a subprocess
cannot see SQLite's in-memory test database) and run only where a broker is configured (CI's
PostgreSQL + Redis run), like the other `broker` tests.
"""

from __future__ import annotations

import json
import os
import signal
import tempfile
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from celery import Celery
from django.conf import settings

from config.celery import app as celery_app
from scoring import services as game_services
from scoring.models import Game, Hand
from tests.reliability.reliability_support import (
    Event,
    RedisServer,
    database_url_for_subprocess,
    full_game_hands,
    make_event,
    process_env,
    start_web,
    start_worker,
    stop_process,
    wait_until,
)
from tournaments.models import StandingRow
from tournaments.standings.services import compute_standings

pytestmark = [
    pytest.mark.broker,
    pytest.mark.xdist_group("reliability"),
    pytest.mark.django_db(transaction=True),
]


@pytest.fixture(autouse=True)
def _needs_broker_and_postgresql() -> Iterator[None]:
    if not settings.CELERY_BROKER_URL:
        pytest.skip("no broker configured: set CELERY_BROKER_URL to run broker tests")
    database_url_for_subprocess()  # skips on SQLite
    # What this process does itself (setting the scene) runs its tasks in-process; only the
    # processes the tests start talk to a broker, their private one.
    previous = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = previous


@pytest.fixture
def logs() -> Path:
    directory = Path(tempfile.mkdtemp(prefix="hanchan-faults-"))
    return directory


def expected_standings(event: Event) -> dict[int, tuple[int, int | None]]:
    event.tournament.refresh_from_db()
    return {row.player_id: (row.total, row.rank) for row in compute_standings(event.tournament)}


def stored_standings(event: Event) -> dict[int, tuple[int, int | None]]:
    return {
        row.player_id: (row.total, row.rank)
        for row in StandingRow.objects.filter(tournament=event.tournament)
    }


def play_in_process(event: Event, game: Game) -> None:
    """A whole finished game through the services (tasks run eagerly in this process)."""
    version = 0
    for hand in full_game_hands():
        game = game_services.enter_hand(
            actor=event.referee, game=game, hand=hand, expected_version=version
        ).game
        version = game.version
    game_services.finalize_game(actor=event.referee, game=game, expected_version=version)


# --- a worker killed mid-task -------------------------------------------------------------


def send_slow_recompute(
    broker_url: str, queue: str, tournament_id: int, markers: Path, hold: float
) -> None:
    # Celery prefers the CELERY_BROKER_URL variable to the app's own setting: point it at the
    # private broker for this send only.
    with mock.patch.dict(os.environ, {"CELERY_BROKER_URL": broker_url}):
        # Not the current app: shared tasks elsewhere in this process must keep using ours.
        producer = Celery("fault-tests", broker=broker_url, set_as_current=False)
        producer.conf.task_serializer = "json"
        producer.send_task(
            "tests.reliability.slow_recompute",
            args=[tournament_id, str(markers), hold],
            queue=queue,
        )
        producer.close()


def test_worker_killed_mid_task_the_task_is_redelivered_to_a_new_worker_and_completes(
    private_redis: RedisServer, logs: Path
) -> None:
    event = make_event(tables=3, slug="killed-worker-open")
    for game in event.games:
        play_in_process(event, game)
    expected = expected_standings(event)
    StandingRow.objects.filter(tournament=event.tournament).delete()
    markers = logs / "markers"
    markers.mkdir()
    queue = f"faults-{uuid.uuid4().hex[:8]}"
    env = process_env(broker_url=private_redis.url, queue=queue)
    include = "tests.reliability.tasks_for_faults"

    first = start_worker(env, logs / "worker-1.log", pool="solo", include=include)
    try:
        send_slow_recompute(private_redis.url, queue, event.tournament.pk, markers, hold=120)
        assert wait_until(lambda: (markers / "started").exists(), timeout=30)
        os.killpg(first.pid, signal.SIGKILL)  # the whole worker, mid-task
        first.wait(timeout=10)
    finally:
        stop_process(first)
    assert not (markers / "done").exists()
    assert not StandingRow.objects.filter(tournament=event.tournament).exists()

    # acks_late: the message was never acknowledged, so Redis still holds it for a worker.
    second = start_worker(env, logs / "worker-2.log", pool="solo", include=include)
    try:
        assert wait_until(lambda: (markers / "done").exists(), timeout=90), (
            logs / "worker-2.log"
        ).read_text()[-3000:]
    finally:
        stop_process(second)

    assert (markers / "attempts").read_text().split() != []
    assert len((markers / "attempts").read_text().split()) == 2
    assert stored_standings(event) == expected
    assert len(expected) == 12


def test_pool_process_killed_mid_task_the_task_runs_again_and_completes(
    private_redis: RedisServer, logs: Path
) -> None:
    """reject_on_worker_lost: the worker sees its child die and puts the message back."""
    event = make_event(tables=2, slug="killed-child-open")
    for game in event.games:
        play_in_process(event, game)
    expected = expected_standings(event)
    StandingRow.objects.filter(tournament=event.tournament).delete()
    markers = logs / "markers"
    markers.mkdir()
    queue = f"faults-{uuid.uuid4().hex[:8]}"
    env = process_env(broker_url=private_redis.url, queue=queue)

    worker = start_worker(
        env, logs / "worker.log", pool="prefork", include="tests.reliability.tasks_for_faults"
    )
    try:
        send_slow_recompute(private_redis.url, queue, event.tournament.pk, markers, hold=120)
        assert wait_until(lambda: (markers / "started").exists(), timeout=30)
        child = int((markers / "started").read_text())
        assert child != worker.pid
        os.kill(child, signal.SIGKILL)
        assert wait_until(lambda: (markers / "done").exists(), timeout=60), (
            logs / "worker.log"
        ).read_text()[-3000:]
    finally:
        stop_process(worker)

    assert len((markers / "attempts").read_text().split()) == 2
    assert stored_standings(event) == expected


# --- Redis stopped while referees enter hands -------------------------------------------------


class Api:
    """A token-authenticated JSON client of the live server."""

    def __init__(self, base: str, token: str) -> None:
        self.base = base
        self.token = token

    def call(
        self, method: str, path: str, body: Any = None, timeout: float = 30
    ) -> tuple[int, Any, float]:
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(
            self.base + path,
            data=data,
            method=method,
            headers={
                "Authorization": f"Token {self.token}",
                "Content-Type": "application/json",
                "Idempotency-Key": str(uuid.uuid4()),
            },
        )
        started = time.monotonic()
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                status, raw = response.status, response.read()
        except urllib.error.HTTPError as error:
            status, raw = error.code, error.read()
        return status, json.loads(raw or b"null"), time.monotonic() - started

    def play(self, game: Game, timeout: float = 30) -> list[float]:
        """Enter a whole game hand by hand and finish it; returns each request's seconds."""
        timings = []
        version = 0
        for hand in full_game_hands():
            status, body, seconds = self.call(
                "POST",
                f"/api/v1/games/{game.pk}/hands/",
                {"version": version, "hand": hand},
                timeout=timeout,
            )
            assert status == 201, body
            version = body["version"]
            timings.append(seconds)
        status, body, seconds = self.call(
            "POST", f"/api/v1/games/{game.pk}/finalize/", {"version": version}, timeout=timeout
        )
        assert status == 200, body
        timings.append(seconds)
        return timings


def test_with_redis_stopped_hand_entry_still_succeeds_and_standings_catch_up(
    private_redis: RedisServer, logs: Path
) -> None:
    event = make_event(tables=3, slug="redis-down-open")
    game_a, game_b, game_c = event.games
    queue = f"faults-{uuid.uuid4().hex[:8]}"
    env = process_env(broker_url=private_redis.url, queue=queue)
    worker = start_worker(env, logs / "worker.log", pool="solo")
    web, base = start_web(env, logs / "web.log")
    api = Api(base, event.tokens["referee"])
    try:
        # Broker up: the finished game reaches the standings through the worker.
        api.play(game_a)
        assert wait_until(lambda: stored_standings(event) == expected_standings(event), timeout=30)

        # Broker down: every hand and the finish are still saved, promptly.
        private_redis.stop()
        timings = api.play(game_b, timeout=5)  # a referee's phone gives up after 5 s
        assert Hand.objects.filter(game=game_b).count() == 8
        assert Game.objects.get(pk=game_b.pk).status == Game.Status.FINISHED
        assert max(timings) < 5.0, timings

        # Broker back: the standings catch up, game B included, without anyone's help
        # beyond the next entry of the tournament.
        private_redis.start()
        api.play(game_c)
        caught_up = wait_until(
            lambda: stored_standings(event) == expected_standings(event), timeout=60
        )
        players_b = {s.player_id for s in game_b.seats.all()}
        missing = {
            pid: row
            for pid, row in stored_standings(event).items()
            if pid in players_b and row != expected_standings(event)[pid]
        }
        assert caught_up, f"standings of game B's players never caught up: {missing}"
    finally:
        stop_process(web)
        stop_process(worker)
