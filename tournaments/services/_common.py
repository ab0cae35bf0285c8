"""Shared helpers of the tournament services: permission checks and snapshots."""

from __future__ import annotations

import logging
from typing import Any

from club.errors import PermissionDenied
from tournaments.models import Tournament
from tournaments.roles import is_organiser, is_referee


def require_organiser(actor: Any, tournament: Tournament | int) -> None:
    """`actor=None` is the system (management commands, seed data)."""
    if actor is not None and not is_organiser(actor, tournament):
        raise PermissionDenied("Only the tournament's organisers may do this.")


def require_referee(actor: Any, tournament: Tournament | int) -> None:
    if actor is not None and not is_referee(actor, tournament):
        raise PermissionDenied("Only the tournament's referees and organisers may do this.")


def user_or_none(actor: Any) -> Any:
    return actor if actor is not None and getattr(actor, "is_authenticated", False) else None


def enqueue_standings(tournament_id: int) -> None:
    """After commit, recompute the tournament's standings (if that part is installed)."""
    from django.db import transaction

    from scoring.services._common import _deferred

    deferred = _deferred.get()
    if deferred is not None:
        deferred.add(("tournament", tournament_id))
        return

    def call() -> None:
        try:
            from tournaments.standings.tasks import recompute_standings
        except ImportError:
            return  # that part of the project is not there yet
        try:
            recompute_standings.delay(tournament_id)
        except Exception:  # the change is committed; a failed recompute must not undo that
            logging.getLogger(__name__).exception("standings recompute for %s", tournament_id)

    transaction.on_commit(call)
