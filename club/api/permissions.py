"""Object-level API permissions of clubs, built on core.api.permissions.

Reads of public data are open to everyone (which objects are public is decided by the views'
querysets). Writes need the role on the object's club (a tournament's roles:
tournaments.api.permissions; games: scoring.api.permissions; players: core.api.permissions):

- site admin (superuser): everything;
- club admin: the club's nights, leagues and games.

The services check the same roles again; these classes answer early with 403 and keep the
schema honest.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Model

from club.models import Club, ClubNight, League
from club.policy import night_of
from club.roles import is_club_admin
from core.api.permissions import ObjectRole
from scoring.models import Game


def club_id_of(obj: Model) -> int | None:
    if isinstance(obj, Club):
        return obj.pk
    if isinstance(obj, ClubNight | League):
        return int(obj.club_id)
    if isinstance(obj, Game):
        night = night_of(obj)
        return None if night is None else int(night.club_id)
    return None


class IsClubAdmin(ObjectRole):
    message = "Only the admins of this club may do this."

    def allowed(self, user: Any, obj: Any) -> bool:
        club_id = club_id_of(obj)
        return club_id is not None and is_club_admin(user, club_id)
