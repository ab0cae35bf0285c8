"""Role lookups shared by every app: who is a site admin, and remembering answers per request.

The roles themselves live in the apps that own them (tournaments.roles: organisers and
referees; club: club admins); they remember their lookups through `remembered()` so a hand
entry asks the database once per request, not once in the view and again in the service.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any, TypeVar

from django.db.models.signals import post_delete, post_save

if TYPE_CHECKING:
    from core.models import Player

T = TypeVar("T")

# Answers already looked up in this request: a hand entry asks "is this user a referee of the
# game's tournament?" in the view's permission check and again in the service. Outside
# `remembered_roles()` (tasks, commands, direct service calls) nothing is remembered.
_memo: ContextVar[dict[tuple[Any, ...], Any] | None] = ContextVar("role_memo", default=None)


@contextmanager
def remembered_roles() -> Iterator[None]:
    """Within this block (one request: RoleMemoMiddleware), each role lookup runs once."""
    token = _memo.set({})
    try:
        yield
    finally:
        _memo.reset(token)


def forget_roles() -> None:
    """A role was granted or taken away: look everything up afresh (signals call this)."""
    memo = _memo.get()
    if memo is not None:
        memo.clear()


def forget_roles_when_changed(*models: Any) -> None:
    """Called from an AppConfig.ready() with the app's role models (tournaments: StaffRole;
    club: Membership): a role granted or taken away within a request is seen by that
    request's next check."""
    for model in models:
        post_save.connect(_roles_changed, sender=model, dispatch_uid=f"roles:{model._meta.label}")
        post_delete.connect(_roles_changed, sender=model, dispatch_uid=f"roles:{model._meta.label}")


def _roles_changed(**_: Any) -> None:
    forget_roles()


def remembered(key: tuple[Any, ...], look_up: Callable[[], T]) -> T:
    """`look_up()`, or its answer already found under `key` in this request."""
    memo = _memo.get()
    if memo is None:
        return look_up()
    if key not in memo:
        memo[key] = look_up()
    return memo[key]


def recalled(key: tuple[Any, ...]) -> Any:
    """The answer remembered under `key` in this request, or None."""
    memo = _memo.get()
    return None if memo is None else memo.get(key)


class RoleMemoMiddleware:
    """Remember role lookups for the length of one request."""

    def __init__(self, get_response: Callable[[Any], Any]) -> None:
        self.get_response = get_response

    def __call__(self, request: Any) -> Any:
        with remembered_roles():
            return self.get_response(request)


def authenticated(user: Any) -> bool:
    return bool(user is not None and getattr(user, "is_authenticated", False))


def is_site_admin(user: Any) -> bool:
    return authenticated(user) and bool(getattr(user, "is_superuser", False))


def player_of(user: Any) -> Player | None:
    """The player profile of a login, if it has one."""
    from core.models import Player  # models load after the app registry: not at import time

    if not authenticated(user):
        return None
    return Player.objects.filter(user_id=user.pk).first()
