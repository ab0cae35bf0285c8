"""Ratings follow the games: scoring's `game_changed` signal queues the rating update."""

from __future__ import annotations

from typing import Any

from .tasks import enqueue_ratings


def game_changed(*, game: Any, **_: Any) -> None:
    """scoring.signals.game_changed (a finished game changed, or one stopped being finished):
    the ratings are updated; the task decides whether the game counts (confirmed club games)."""
    enqueue_ratings(game.pk)
