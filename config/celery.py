"""The Celery app. Tasks live beside the services they wrap: `core/tasks.py` (found as
`<app>.tasks`), `tournaments/services/tasks.py` (seating plans), `tournaments/standings/tasks.py`
and `club/ratings/tasks.py` (the sub-packages listed below)."""

import os
from typing import Any

from celery import Celery, bootsteps

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("hanchan")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
# Task modules inside sub-packages (services, standings, ratings) beside their services.
app.autodiscover_tasks(["tournaments.services", "tournaments.standings", "club.ratings"])


class WorkerHeartbeat(bootsteps.StartStopStep):
    """Every worker writes a heartbeat into the cache on its timer; /health/ reads it
    (config.heartbeat; config.health's "worker" component)."""

    requires = ("celery.worker.components:Timer",)

    def __init__(self, worker: Any, **kwargs: Any) -> None:
        super().__init__(worker, **kwargs)
        self.tref: Any = None

    def start(self, worker: Any) -> None:
        # In the worker only: the heartbeat is written to the cache, which needs Django set up.
        from config.heartbeat import HEARTBEAT_SECONDS, write_heartbeat

        write_heartbeat()
        self.tref = worker.timer.call_repeatedly(HEARTBEAT_SECONDS, write_heartbeat)

    def stop(self, worker: Any) -> None:
        if self.tref is not None:
            self.tref.cancel()
            self.tref = None


app.steps["worker"].add(WorkerHeartbeat)


@app.task(name="hanchan.ping", ignore_result=False)
def ping(payload: str = "pong") -> dict[str, str]:
    """Round-trip check used by health monitoring and the broker integration test."""
    # When the task runs: the Celery app itself loads before Django is set up.
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return {"echo": payload, "database": connection.vendor}
