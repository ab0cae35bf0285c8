"""Queue a Celery task once the current transaction commits: the one way every writer does it.

A write must never fail because the task broker is down: the change is committed, the task is
not. So a failed send is logged and `on_failure` runs, which marks what the task would have
updated as stale (standings: `Tournament.standings_stale`) for the periodic catch-up to repair
(docs/reliability.md). Writers call `enqueue_after_commit`; nothing else calls `.delay()` for a
follow-up of a write.

Bulk writers (seed_demo, imports) wrap their work in `deferred_tasks()`: nothing is sent, and
they run each collected follow-up once at the end instead of once per game.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Protocol

from django.db import transaction

log = logging.getLogger(__name__)


class Task(Protocol):
    """What of a Celery task this module uses (a `shared_task` is one)."""

    name: str

    def delay(self, *args: Any) -> Any: ...


# (task name, arguments) collected inside `deferred_tasks()`; None outside it.
_deferred: ContextVar[set[tuple[str, tuple[Any, ...]]] | None] = ContextVar(
    "deferred_tasks", default=None
)


@contextmanager
def deferred_tasks() -> Iterator[set[tuple[str, tuple[Any, ...]]]]:
    """Within this block no task is sent; the yielded set collects `(task.name, args)` for
    the caller to run once (e.g. one standings rebuild after a thousand demo hands)."""
    collected: set[tuple[str, tuple[Any, ...]]] = set()
    token = _deferred.set(collected)
    try:
        yield collected
    finally:
        _deferred.reset(token)


def enqueue_after_commit(
    task: Task, *args: Any, on_failure: Callable[[], None] | None = None
) -> None:
    """Send `task.delay(*args)` after the current transaction commits (at once outside one).

    If the broker cannot take it, log the error and call `on_failure` (after the commit, so
    its own write is not rolled back with anything): it marks the target stale so the periodic
    catch-up repairs it. Inside `deferred_tasks()` the task is collected instead of sent.
    """
    deferred = _deferred.get()
    if deferred is not None:
        deferred.add((task.name, args))
        return

    def send() -> None:
        try:
            task.delay(*args)
        except Exception:  # a broker outage must not turn a committed write into an error
            log.exception("could not queue %s%r", task.name, args)
            if on_failure is not None:
                on_failure()

    transaction.on_commit(send)
