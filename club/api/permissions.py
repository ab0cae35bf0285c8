"""Object-level API permissions of clubs and games, built on core.api.permissions.

Reads of public data are open to everyone (which objects are public is decided by the views'
querysets). Writes need the role on the object's game or club (a tournament's roles:
tournaments.api.permissions; players: core.api.permissions):

- site admin (superuser): everything;
- referee of a game's tournament: enter and correct its hands, read its audit log;
- club admin: the club's nights, leagues and games; a seated player: their casual club game.

The services check the same roles again; these classes answer early with 403 and keep the
schema honest.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Model, QuerySet

from club.models import Club, ClubNight, League
from club.roles import is_club_admin
from core.api.permissions import ObjectRole
from scoring.models import Game
from scoring.policy import can_edit_game
from tournaments import roles


def club_id_of(obj: Model) -> int | None:
    if isinstance(obj, Club):
        return obj.pk
    if isinstance(obj, ClubNight | League):
        return int(obj.club_id)
    if isinstance(obj, Game) and obj.club_night is not None:
        return int(obj.club_night.club_id)
    return None


class CanEditGame(ObjectRole):
    message = "You may not enter or change scores of this game."

    def allowed(self, user: Any, obj: Any) -> bool:
        return isinstance(obj, Game) and can_edit_game(user, obj)

    @staticmethod
    def in_query(games: QuerySet[Game], user: Any) -> QuerySet[Game]:
        """`games` answering this check in their own query (whether `user` referees the
        game's tournament); call remember() on the game read, then allowed() asks nothing
        more of the database for a tournament game (issue 14.7: a hand POST)."""
        return games.annotate(**roles.game_referee_annotation(user))

    @staticmethod
    def remember(user: Any, game: Game) -> None:
        roles.remember_game_referee(user, game)


class CanReadGameAudit(ObjectRole):
    """A game's audit trail: its tournament's referees; for club games, those who may edit."""

    guards_reads = True
    message = "Only this game's referees and organisers may read its audit log."

    def allowed(self, user: Any, obj: Any) -> bool:
        if not isinstance(obj, Game):
            return False
        tournament_id = roles.tournament_id_of_game(obj)
        if tournament_id is not None:
            return roles.is_referee(user, tournament_id)
        return can_edit_game(user, obj)


class IsClubAdmin(ObjectRole):
    message = "Only the admins of this club may do this."

    def allowed(self, user: Any, obj: Any) -> bool:
        club_id = club_id_of(obj)
        return club_id is not None and is_club_admin(user, club_id)
