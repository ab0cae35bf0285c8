"""Standings follow the games: scoring's `game_changed` signal queues the one-game update."""

from __future__ import annotations

from typing import Any

from tournaments.roles import tournament_id_of_game

from .tasks import enqueue_recompute


def game_changed(*, game: Any, **_: Any) -> None:
    """scoring.signals.game_changed (a finished game changed, or one stopped being finished):
    the tournament's rows of this one game are updated."""
    tournament_id = tournament_id_of_game(game)
    if tournament_id is not None:
        enqueue_recompute(tournament_id, game.pk)
