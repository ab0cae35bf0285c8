"""Celery tasks recomputing standings; writers queue them with ``enqueue_recompute``."""

from __future__ import annotations

from functools import partial

from celery import shared_task

from core.enqueue import enqueue_after_commit
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


def mark_standings_stale(tournament_id: int) -> None:
    """The standings missed an update (the broker was down): the next recompute rebuilds them
    whole, and `rebuild_stale_standings` (periodic) does so even if nothing else changes."""
    Tournament.objects.filter(pk=tournament_id).update(standings_stale=True)


def enqueue_recompute(tournament_id: int, game_id: int | None = None) -> None:
    """Queue the recompute once the current transaction commits (at once outside one).

    Pass ``game_id`` when only that game changed; omit it after penalties, registrations,
    substitutions, sessions or tie-break settings changed. With the broker down the standings
    are marked stale, so the periodic catch-up repairs them (core.enqueue).
    """
    enqueue_after_commit(
        recompute_standings,
        tournament_id,
        game_id,
        on_failure=partial(mark_standings_stale, tournament_id),
    )
