"""Object-level API permissions, built on tournaments.roles and core.api.permissions.

Reads of public data are open to everyone (which objects are public is decided by the views'
querysets: a draft tournament and everything in it is visible to its staff and site admins
only). Writes need the role on the object's tournament, game or club:

- site admin (superuser): everything;
- organiser of tournament T: everything of T;
- referee of T: enter and correct hands of T's games, add penalties, read T's audit log;
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
from tournaments.models import Table, Tournament


def tournament_id_of(obj: Model) -> int | None:
    """The tournament an object belongs to, or None (club objects, players)."""
    if isinstance(obj, Tournament):
        return obj.pk
    if isinstance(obj, Game):
        return roles.tournament_id_of_game(obj)
    if isinstance(obj, Table):
        return int(obj.session.tournament_id)
    tournament_id = getattr(obj, "tournament_id", None)
    return int(tournament_id) if tournament_id is not None else None


def club_id_of(obj: Model) -> int | None:
    if isinstance(obj, Club):
        return obj.pk
    if isinstance(obj, ClubNight | League):
        return int(obj.club_id)
    if isinstance(obj, Game) and obj.club_night is not None:
        return int(obj.club_night.club_id)
    return None


class IsTournamentOrganiser(ObjectRole):
    message = "Only the organisers of this tournament may do this."

    def allowed(self, user: Any, obj: Any) -> bool:
        tournament_id = tournament_id_of(obj)
        return tournament_id is not None and roles.is_organiser(user, tournament_id)


class IsTournamentReferee(ObjectRole):
    """Referees and organisers of the object's tournament."""

    message = "Only the referees and organisers of this tournament may do this."

    def allowed(self, user: Any, obj: Any) -> bool:
        tournament_id = tournament_id_of(obj)
        return tournament_id is not None and roles.is_referee(user, tournament_id)


class OrganiserOnly(IsTournamentOrganiser):
    """The organisers, even to read (staff lists, seating plans)."""

    guards_reads = True


class RefereeOnly(IsTournamentReferee):
    """The referees and organisers, even to read (the audit log)."""

    guards_reads = True


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
