"""The generic pieces of API permissions: site admins, logins for writes, object roles.

Which role an object needs is decided by the app owning it (club.api.permissions,
tournaments.roles); these classes give every app the same shape: reads pass (the view's
queryset decides visibility), writes need a login and then `allowed(user, obj)`.
"""

from __future__ import annotations

from typing import Any

from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.request import Request
from rest_framework.views import APIView

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
