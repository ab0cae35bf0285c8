"""The Celery app; tasks live beside the services they wrap (`<app>/tasks.py`)."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("hanchan")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
# Task modules inside sub-packages (standings, ratings) beside their services.
app.autodiscover_tasks(["tournaments.standings", "club.ratings"])


@app.task(name="hanchan.ping", ignore_result=False)
def ping(payload: str = "pong") -> dict[str, str]:
    """Round-trip check used by health monitoring and the broker integration test."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return {"echo": payload, "database": connection.vendor}
