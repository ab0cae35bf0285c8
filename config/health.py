"""What /health/ checks: the database, the cache, the broker and the worker's heartbeat.

Each component is "ok", "down", or "not_configured" (no broker: tasks run in-process, so no
worker is expected). The whole answer is "ok" when nothing is down, "degraded" when the cache,
the broker or the worker is down (pages and standings are still served from the database, see
docs/reliability.md), and "down" with HTTP 503 only when the database does not answer.

The worker's heartbeat: every Celery worker writes the time into the cache every
HEARTBEAT_SECONDS (config.heartbeat, written by config.celery's `WorkerHeartbeat` bootstep); older
than HEARTBEAT_STALE_SECONDS counts as down.
"""

from __future__ import annotations

import time
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import connection

from config.heartbeat import (
    HEARTBEAT_KEY,
    HEARTBEAT_SECONDS,
    HEARTBEAT_STALE_SECONDS,
    write_heartbeat,
)

__all__ = ["HEARTBEAT_KEY", "HEARTBEAT_SECONDS", "HEARTBEAT_STALE_SECONDS", "write_heartbeat"]
__all__ += ["check_broker", "check_cache", "check_database", "check_worker", "health_report"]

PROBE_TIMEOUT_SECONDS = 1.0

OK, DOWN, NOT_CONFIGURED = "ok", "down", "not_configured"


def _error(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"[:200]


def check_database() -> dict[str, Any]:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except Exception as exc:  # any failure means "no database"
        return {"status": DOWN, "error": _error(exc)}
    return {"status": OK, "vendor": connection.vendor}


def check_cache() -> dict[str, Any]:
    backend = str(settings.CACHES["default"]["BACKEND"]).rsplit(".", 1)[-1]
    try:
        cache.set("hanchan:health-probe", "1", 10)
        if cache.get("hanchan:health-probe") != "1":
            return {"status": DOWN, "backend": backend, "error": "the value written was not read"}
    except Exception as exc:
        return {"status": DOWN, "backend": backend, "error": _error(exc)}
    return {"status": OK, "backend": backend}


def check_broker() -> dict[str, Any]:
    url = settings.CELERY_BROKER_URL
    if not url:
        return {"status": NOT_CONFIGURED}
    try:
        if url.startswith(("redis://", "rediss://", "unix://")):
            # Only when the cache or broker is Redis (the default setup has neither).
            import redis

            client = redis.Redis.from_url(
                url,
                socket_connect_timeout=PROBE_TIMEOUT_SECONDS,
                socket_timeout=PROBE_TIMEOUT_SECONDS,
            )
            try:
                client.ping()
            finally:
                client.close()
        else:  # another kombu transport: one connection attempt, no retries
            # When needed: loading the Celery app reads the settings.
            from config.celery import app

            with app.connection_for_write() as conn:
                conn.ensure_connection(max_retries=1, timeout=1)
    except Exception as exc:
        return {"status": DOWN, "error": _error(exc)}
    return {"status": OK}


def check_worker(now: float | None = None) -> dict[str, Any]:
    if not settings.CELERY_BROKER_URL:
        return {"status": NOT_CONFIGURED}
    try:
        beat = cache.get(HEARTBEAT_KEY)
    except Exception as exc:
        return {"status": DOWN, "error": f"the heartbeat is kept in the cache: {_error(exc)}"}
    if beat is None:
        return {"status": DOWN, "error": "no worker heartbeat"}
    age = (now or time.time()) - float(beat)
    status = OK if age <= HEARTBEAT_STALE_SECONDS else DOWN
    return {"status": status, "last_heartbeat_seconds_ago": round(age, 1)}


def health_report() -> tuple[dict[str, Any], int]:
    """The /health/ answer and its HTTP status."""
    components = {
        "database": check_database(),
        "cache": check_cache(),
        "broker": check_broker(),
        "worker": check_worker(),
    }
    if components["database"]["status"] == DOWN:
        return {"status": "down", "components": components}, 503
    degraded = any(c["status"] == DOWN for c in components.values())
    return {"status": "degraded" if degraded else "ok", "components": components}, 200
