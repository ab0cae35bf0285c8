"""The worker's heartbeat: every Celery worker writes the time into the cache every
HEARTBEAT_SECONDS (config.celery.WorkerHeartbeat, a worker bootstep); /health/ reads it
(config.health.check_worker), older than HEARTBEAT_STALE_SECONDS counts as down.

A module of its own so that config.celery (which writes it) and config.health (which reads it
and probes the broker through the Celery app) do not import each other.
"""

from __future__ import annotations

import logging
import time

from django.core.cache import cache

log = logging.getLogger(__name__)

HEARTBEAT_KEY = "hanchan:worker-heartbeat"
HEARTBEAT_SECONDS = 15
HEARTBEAT_STALE_SECONDS = 60


def write_heartbeat() -> None:
    """The worker is alive (called by WorkerHeartbeat on its timer)."""
    try:
        cache.set(HEARTBEAT_KEY, time.time(), HEARTBEAT_STALE_SECONDS * 4)
    except Exception:
        log.warning("could not write the worker heartbeat to the cache", exc_info=True)
