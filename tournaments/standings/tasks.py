"""Celery task recomputing standings; services enqueue it on commit via ``enqueue_recompute``."""

from __future__ import annotations

from celery import shared_task
from django.db import transaction

from tournaments.models import Tournament

from . import services


@shared_task(name="tournaments.standings.recompute_standings")
def recompute_standings(tournament_id: int, game_id: int | None = None) -> None:
    """Full rebuild, or with ``game_id`` the one-game update. Idempotent: it reads the current
    state of the games, so a redelivered or repeated task writes the same rows."""
    # A lost update (broker down when a game changed) leaves the table stale: rebuild it all.
    # The flag is cleared before the rebuild reads, so a change failing meanwhile sets it again.
    was_stale = Tournament.objects.filter(pk=tournament_id, standings_stale=True).update(
        standings_stale=False
    )
    if game_id is None or was_stale:
        services.recompute_standings(tournament_id=tournament_id)
    else:
        services.update_game_standings(tournament_id=tournament_id, game_id=game_id)


@shared_task(name="tournaments.standings.rebuild_stale_standings")
def rebuild_stale_standings() -> int:
    """Periodic catch-up after a broker outage, even if no one enters anything afterwards."""
    stale = list(Tournament.objects.filter(standings_stale=True).values_list("pk", flat=True))
    for tournament_id in stale:
        recompute_standings(tournament_id)
    return len(stale)


def enqueue_recompute(tournament_id: int, game_id: int | None = None) -> None:
    """Queue the recompute once the current transaction commits (at once outside one).

    Pass ``game_id`` when only that game changed; omit it after penalties, registrations,
    substitutions or tie-break settings changed.
    """
    transaction.on_commit(lambda: recompute_standings.delay(tournament_id, game_id))
