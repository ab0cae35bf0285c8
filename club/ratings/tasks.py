"""Celery tasks for ratings (thin wrappers of club.ratings.services)."""

from __future__ import annotations

from celery import shared_task

from core.enqueue import enqueue_after_commit

from . import services


@shared_task(name="club.ratings.update_ratings")
def update_ratings(game_id: int | None = None) -> None:
    """After a game changed (or with no id: rebuild everything). Idempotent."""
    if game_id is None:
        services.rebuild_ratings()
    else:
        services.rate_game(game_id=game_id)


def enqueue_ratings(game_id: int | None = None) -> None:
    """Queue the ratings update once the current transaction commits. With the broker down the
    update is lost until the next full `rebuild_ratings` (docs/reliability.md)."""
    enqueue_after_commit(update_ratings, game_id)
