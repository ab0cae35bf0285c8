"""Which objects a user may read through the API (selectors for the views' querysets).

Public: every tournament past its draft (registration open, running, finished, published) with
its sessions, seating, games, penalties and standings; clubs, their nights, leagues and games;
players. A draft tournament is visible to its staff and site admins only.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q, QuerySet

from scoring.models import Game
from tournaments import roles
from tournaments.models import Tournament


def visible_tournaments(user: Any) -> QuerySet[Tournament]:
    tournaments = Tournament.objects.all()
    if roles.is_site_admin(user):
        return tournaments
    public = ~Q(status=Tournament.Status.DRAFT)
    if user is not None and user.is_authenticated:
        staffed = Tournament.objects.filter(staff__user_id=user.pk).values("pk")
        return tournaments.filter(public | Q(pk__in=staffed))
    return tournaments.filter(public)


def visible_games(user: Any) -> QuerySet[Game]:
    games = Game.objects.select_related("table__session__tournament", "club_night__club")
    if roles.is_site_admin(user):
        return games
    return games.filter(
        Q(club_night__isnull=False)
        | Q(table__session__tournament__in=visible_tournaments(user).values("pk"))
    )
