"""A test-only Celery task, imported by the worker the fault tests start (`-I` this module).

`slow_recompute` runs the real standings recompute service, but holds still on its first
delivery so the test can kill the worker mid-task. Attempts are counted in files under
`marker_dir`, which outlive the killed process.

Importing this module also shortens the Redis transport's visibility timeout (default one
hour) for the test's own worker only, so that a message whose worker died is handed out again
within seconds instead of after an hour (see docs/reliability.md for production).
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from celery import shared_task

from config.celery import app

VISIBILITY_TIMEOUT_SECONDS = int(os.environ.get("HANCHAN_TEST_VISIBILITY_TIMEOUT", "4"))
app.conf.broker_transport_options = {
    **(app.conf.broker_transport_options or {}),
    "visibility_timeout": VISIBILITY_TIMEOUT_SECONDS,
    # Look for such messages every second (kombu's default: every 10 s, scanning on every
    # 10th look, i.e. about every 100 s).
    "unacked_restore_interval": 1,
    "unacked_restore_throttle": 1,
}


@shared_task(name="tests.reliability.slow_recompute", acks_late=True)
def slow_recompute(tournament_id: int, marker_dir: str, hold_seconds: float) -> int:
    from tournaments.standings.services import recompute_standings

    markers = Path(marker_dir)
    with (markers / "attempts").open("a") as attempts:
        attempts.write(f"{os.getpid()}\n")
    attempt = len((markers / "attempts").read_text().split())
    if attempt == 1:
        (markers / "started").write_text(str(os.getpid()))
        time.sleep(hold_seconds)  # killed in here
    recompute_standings(tournament_id=tournament_id)
    (markers / "done").write_text(str(attempt))
    return attempt
