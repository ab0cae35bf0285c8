"""Object-level API permissions of tournaments, built on tournaments.roles and
core.api.permissions.

Reads of public data are open to everyone (which objects are public is decided by the views'
querysets: a draft tournament and everything in it is visible to its staff and site admins
only). Writes need the role on the object's tournament:

- site admin (superuser): everything;
- organiser of tournament T: everything of T;
- referee of T: enter and correct hands of T's games, add penalties, read T's audit log.

The services check the same roles again; these classes answer early with 403 and keep the
schema honest.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Model

from core.api.permissions import ObjectRole
from scoring.models import Game
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
