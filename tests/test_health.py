"""/health/: JSON with each component; "degraded" when one is down, 503 only without a database
(issue 14, item 4). Redis "down" is a closed port on this machine."""

from __future__ import annotations

import socket
import time
from typing import Any
from unittest import mock

import pytest
from django.core.cache import cache
from django.db.utils import OperationalError
from django.test import Client, override_settings

from config import health

pytestmark = pytest.mark.django_db


def closed_port() -> int:
    """A local port nobody listens on (bound once, then released)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def redis_at(port: int) -> dict[str, dict[str, object]]:
    return {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": f"redis://127.0.0.1:{port}/0",
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
    }


def test_without_a_broker_every_component_is_ok_or_not_configured(
    client: Client, settings: Any
) -> None:
    settings.CELERY_BROKER_URL = ""  # CI's second pass configures one for the whole run
    response = client.get("/health/")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["components"]["database"]["status"] == "ok"
    assert body["components"]["cache"]["status"] == "ok"
    # Tasks run in-process: neither a broker nor a worker is expected.
    assert body["components"]["broker"] == {"status": "not_configured"}
    assert body["components"]["worker"] == {"status": "not_configured"}
    assert response["Cache-Control"] == "no-store"


def test_cache_broker_and_worker_down_is_degraded_not_an_error(client: Client) -> None:
    port = closed_port()
    with override_settings(CACHES=redis_at(port), CELERY_BROKER_URL=f"redis://127.0.0.1:{port}/0"):
        response = client.get("/health/")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "degraded"
    components = body["components"]
    assert components["database"]["status"] == "ok"
    assert components["cache"]["status"] == "down" and "Connection" in components["cache"]["error"]
    assert components["broker"]["status"] == "down"
    assert components["worker"]["status"] == "down"


def test_the_worker_heartbeat_is_read_from_the_cache(client: Client) -> None:
    with override_settings(CELERY_BROKER_URL="redis://127.0.0.1:6379/0"):
        cache.delete(health.HEARTBEAT_KEY)
        assert health.check_worker() == {"status": "down", "error": "no worker heartbeat"}
        health.write_heartbeat()
        assert health.check_worker()["status"] == "ok"
        stale = time.time() + health.HEARTBEAT_STALE_SECONDS + 5
        assert health.check_worker(now=stale)["status"] == "down"
    cache.delete(health.HEARTBEAT_KEY)


def test_without_a_database_health_is_503(client: Client) -> None:
    broken = mock.patch.object(
        health.connection, "cursor", side_effect=OperationalError("connection refused")
    )
    with broken:
        response = client.get("/health/")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "down"
    assert body["components"]["database"]["status"] == "down"
    assert "connection refused" in body["components"]["database"]["error"]
