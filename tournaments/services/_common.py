"""Shared helpers of the tournament services: permission checks and snapshots."""

from __future__ import annotations

from typing import Any

from celery import current_app
from kombu.exceptions import OperationalError

from core.errors import PermissionDenied, ServiceUnavailable
from tournaments.models import Tournament
from tournaments.roles import is_organiser, is_referee


def require_organiser(actor: Any, tournament: Tournament | int) -> None:
    """`actor=None` is the system (management commands, seed data)."""
    if actor is not None and not is_organiser(actor, tournament):
        raise PermissionDenied("Only the tournament's organisers may do this.")


def require_referee(actor: Any, tournament: Tournament | int) -> None:
    if actor is not None and not is_referee(actor, tournament):
        raise PermissionDenied("Only the tournament's referees and organisers may do this.")


QUEUE_UNREACHABLE = (
    "The background worker queue is unreachable, so this cannot be started now; nothing was "
    "saved. Please retry in a minute."
)


def require_task_queue() -> None:
    """Refuse (503) work a Celery worker must do while the broker cannot be reached.

    Call it inside the transaction before any write, so a refusal saves nothing; a request
    accepted without this check would sit "pending" forever with no task to pick it up.
    """
    if current_app.conf.task_always_eager:
        return  # tasks run in-process: there is no broker to reach
    try:
        with current_app.connection_for_write() as connection:
            connection.ensure_connection(max_retries=0)  # one attempt: answer at once
    except OperationalError as error:
        raise ServiceUnavailable(QUEUE_UNREACHABLE) from error


def user_or_none(actor: Any) -> Any:
    return actor if actor is not None and getattr(actor, "is_authenticated", False) else None
