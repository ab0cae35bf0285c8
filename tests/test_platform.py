"""The platform itself: settings, health endpoint, and a task through a real broker and worker."""

from typing import Any

import pytest
from django.conf import settings
from django.test import Client

from config.celery import ping


@pytest.mark.django_db
def test_health_endpoint_reports_database_ok(client: Client, settings: Any) -> None:
    # Tasks in-process (the default): no worker heartbeat is expected, so all is "ok".
    # With a broker, a missing heartbeat is "degraded" (tests/test_health.py).
    settings.CELERY_BROKER_URL = ""
    response = client.get("/health/")
    assert response.status_code == 200
    # The original contract field; the components are tested in tests/test_health.py.
    assert response.json()["status"] == "ok"
    assert response.json()["components"]["database"]["status"] == "ok"


@pytest.mark.django_db
def test_home_page_renders_with_layout(client: Client) -> None:
    response = client.get("/")
    assert response.status_code == 200
    assert b"Hanchan" in response.content
    assert b'name="viewport"' in response.content


@pytest.mark.django_db
def test_without_broker_tasks_run_in_process() -> None:
    if settings.CELERY_BROKER_URL:
        pytest.skip("a broker is configured; the eager default is tested without one")
    assert settings.CELERY_TASK_ALWAYS_EAGER is True
    result = ping.delay("hello")
    assert result.get(timeout=1)["echo"] == "hello"


@pytest.mark.broker
@pytest.mark.xdist_group("broker")
@pytest.mark.django_db(transaction=True)
def test_task_round_trips_through_redis_to_a_real_worker(celery_worker_process: object) -> None:
    result = ping.delay("through-the-broker")
    payload = result.get(timeout=30)
    assert payload == {"echo": "through-the-broker", "database": "postgresql"}
    assert result.successful()
