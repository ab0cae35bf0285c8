"""Celery task recomputing standings; services enqueue it on commit via ``enqueue_recompute``."""

from __future__ import annotations

from celery import shared_task
from django.db import transaction

from . import services


@shared_task(name="tournaments.standings.recompute_standings")
def recompute_standings(tournament_id: int, game_id: int | None = None) -> None:
    """Full rebuild, or with ``game_id`` the one-game update. Idempotent: it reads the current
    state of the games, so a redelivered or repeated task writes the same rows."""
    if game_id is None:
        services.recompute_standings(tournament_id=tournament_id)
    else:
        services.update_game_standings(tournament_id=tournament_id, game_id=game_id)


def enqueue_recompute(tournament_id: int, game_id: int | None = None) -> None:
    """Queue the recompute once the current transaction commits (at once outside one).

    Pass ``game_id`` when only that game changed; omit it after penalties, registrations,
    substitutions or tie-break settings changed.
    """
    transaction.on_commit(lambda: recompute_standings.delay(tournament_id, game_id))
