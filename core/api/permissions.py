"""The generic pieces of API permissions: site admins, logins for writes, object roles; who
may create and edit players (asked of the apps above through core.players).

Which role an object needs is decided by the app owning it (`<app>/api/permissions.py`,
built on `<app>.roles`); these classes give every app the same shape: reads pass (the view's
queryset decides visibility), writes need a login and then `allowed(user, obj)`.
"""

from __future__ import annotations

from typing import Any

from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.request import Request
from rest_framework.views import APIView

from core.players import may_correct_player, may_create_players
from core.roles import authenticated, is_site_admin


class IsSiteAdmin(BasePermission):
    message = "Only site administrators may do this."

    def has_permission(self, request: Request, view: APIView) -> bool:
        return is_site_admin(request.user)


class IsAuthenticatedForWrites(BasePermission):
    """Anyone reads; writing needs a login (403 before any object is looked up)."""

    def has_permission(self, request: Request, view: APIView) -> bool:
        return request.method in SAFE_METHODS or authenticated(request.user)


class ObjectRole(BasePermission):
    """Reads pass (the queryset decides visibility); writes need `allowed(user, obj)`.

    Subclasses with `guards_reads = True` need the role to read as well (staff lists, audit).
    """

    guards_reads = False

    def has_permission(self, request: Request, view: APIView) -> bool:
        if request.method in SAFE_METHODS and not self.guards_reads:
            return True
        return authenticated(request.user)

    def has_object_permission(self, request: Request, view: APIView, obj: Any) -> bool:
        if request.method in SAFE_METHODS and not self.guards_reads:
            return True
        return self.allowed(request.user, obj)

    def allowed(self, user: Any, obj: Any) -> bool:
        raise NotImplementedError


def can_manage_players(user: Any) -> bool:
    """Creating players: site admins, any tournament organiser, any club admin."""

    if is_site_admin(user):
        return True
    if not getattr(user, "is_authenticated", False):
        return False
    # Organisers (tournaments) and club admins (club): their apps' core.players.PlayerPolicy.
    return may_create_players(user)


def can_edit_player(user: Any, player: Any) -> bool:
    """A player's own profile, organisers of a tournament the player is registered in, and
    site admins (as club.services.update_player allows)."""
    if is_site_admin(user):
        return True
    if may_correct_player(user, player):
        return True
    return bool(
        getattr(user, "is_authenticated", False)
        and player.user_id is not None
        and player.user_id == user.pk
    )


class CanCreatePlayers(BasePermission):
    message = "Only organisers, club admins and site administrators may create players."

    def has_permission(self, request: Request, view: APIView) -> bool:
        return request.method in SAFE_METHODS or can_manage_players(request.user)


class CanEditPlayer(ObjectRole):
    message = "You may edit only your own player profile."

    def allowed(self, user: Any, obj: Any) -> bool:
        return can_edit_player(user, obj)
