"""Celery tasks for ratings (thin wrappers of club.ratings.services)."""

from __future__ import annotations

from celery import shared_task

from club.models import RatingsState
from core.enqueue import enqueue_after_commit

from . import services
from .services import STATE_ROW


@shared_task(name="club.ratings.update_ratings")
def update_ratings(game_id: int | None = None) -> None:
    """After a game changed (or with no id: rebuild everything). Idempotent."""
    # A lost update (broker down when a game changed) leaves the ratings stale: rebuild them
    # all. The flag is cleared before the rebuild reads, so a change failing meanwhile sets
    # it again (as tournaments.standings.tasks does for the standings).
    was_stale = RatingsState.objects.filter(pk=STATE_ROW, stale=True).update(stale=False)
    if game_id is None or was_stale:
        services.rebuild_ratings()
    else:
        services.rate_game(game_id=game_id)


@shared_task(name="club.ratings.rebuild_stale_ratings")
def rebuild_stale_ratings() -> int:
    """Periodic catch-up after a broker outage, even if no game changes afterwards: 1 when the
    ratings were stale and were rebuilt, else 0."""
    if not RatingsState.objects.filter(pk=STATE_ROW, stale=True).update(stale=False):
        return 0
    services.rebuild_ratings()
    return 1


def mark_ratings_stale() -> None:
    """The ratings missed an update (the broker was down): the next update rebuilds them
    whole, and `rebuild_stale_ratings` (periodic) does so even if nothing else changes."""
    RatingsState.objects.update_or_create(pk=STATE_ROW, defaults={"stale": True})


def enqueue_ratings(game_id: int | None = None) -> None:
    """Queue the ratings update once the current transaction commits. With the broker down the
    ratings are marked stale, so the periodic catch-up repairs them (core.enqueue)."""
    enqueue_after_commit(update_ratings, game_id, on_failure=mark_ratings_stale)
