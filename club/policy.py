"""Club games follow the club's rules: scoring asks through scoring.policy (issue 14)."""

from __future__ import annotations

from typing import Any

from club.models import Club, ClubNight, Membership
from club.roles import is_club_admin
from core.players import PlayerPolicy
from scoring.models import Game
from scoring.policy import GamePolicy


def _club(game: Game) -> Club | None:
    if game.club_night_id is None:
        return None
    return ClubNight.objects.select_related("club").get(pk=game.club_night_id).club


class ClubGamePolicy(GamePolicy):
    """A casual game at a club night: club admins enter it, and so do the players seated at
    it, whose hands then wait for the others' confirmation (club play without a referee)."""

    def owns(self, game: Game) -> bool:
        return game.club_night_id is not None

    def may_edit(self, user: Any, game: Game) -> bool:
        club = _club(game)
        if club is not None and is_club_admin(user, club.pk):
            return True
        # Casual club games are entered by the players at the table.
        return game.seats.filter(player__user_id=user.pk).exists()

    def scope(self, game: Game) -> tuple[int | None, int | None]:
        return None, game.club_night.club_id  # type: ignore[union-attr]

    def entry_waits(self, actor: Any, game: Game) -> bool:
        club = _club(game)
        return club is not None and actor is not None and not is_club_admin(actor, club)

    def confirmations_needed(self, game: Game) -> int:
        club = _club(game)
        if club is None:
            return 0
        others = game.seats.count() - 1
        return others if club.confirmations == club.Confirmations.ALL else 1


class ClubPlayerPolicy(PlayerPolicy):
    """Any club admin creates players (core.players)."""

    def may_create_players(self, user: Any) -> bool:
        return bool(
            getattr(user, "is_authenticated", False)
            and Membership.objects.filter(
                player__user_id=user.pk, role=Membership.Role.ADMIN
            ).exists()
        )
