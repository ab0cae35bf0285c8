"""Standings follow the games: scoring's `game_changed` signal queues the one-game update; and
the players: core's `player_changed` renews the version of the standings that show them."""

from __future__ import annotations

from typing import Any

from tournaments.models import StandingRow
from tournaments.roles import tournament_id_of_game

from .cache import touch
from .tasks import enqueue_recompute


def game_changed(*, game: Any, **_: Any) -> None:
    """scoring.signals.game_changed (a finished game changed, or one stopped being finished):
    the tournament's rows of this one game are updated."""
    tournament_id = tournament_id_of_game(game)
    if tournament_id is not None:
        enqueue_recompute(tournament_id, game.pk)


def player_changed(*, player: Any, **_: Any) -> None:
    """core.signals.player_changed (inside the writing transaction): the standings show the
    player's name and EMA number, so every standings table with the player is renewed."""
    touch(StandingRow.objects.filter(player=player).values_list("tournament_id", flat=True))
