"""The audit log: every service write records who changed what, before and after, and why.

Writers wrap their change in `audited(...)` (or call `record_audit`) inside their transaction, so
an entry exists exactly when the change was committed. Readers use the selectors below.
"""

from __future__ import annotations

import datetime
import decimal
import uuid
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from django.db import models
from django.db.models import QuerySet

from core.models import AuditEntry

if TYPE_CHECKING:
    from django.contrib.auth.base_user import AbstractBaseUser
    from django.contrib.auth.models import AnonymousUser


def _jsonable(value: Any) -> Any:
    """Make `before`/`after` snapshots JSON-safe (dates, decimals, model instances, sets)."""
    if value is None or isinstance(value, str | int | float | bool):
        return value
    if isinstance(value, datetime.datetime | datetime.date | datetime.time):
        return value.isoformat()
    if isinstance(value, decimal.Decimal | uuid.UUID):
        return str(value)
    if isinstance(value, models.Model):
        return value.pk
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [_jsonable(v) for v in value]
    return str(value)


def record_audit(
    *,
    actor: AbstractBaseUser | AnonymousUser | None,
    action: str,
    obj: models.Model | None = None,
    object_type: str | None = None,
    object_id: Any = None,
    before: Mapping[str, Any] | None,
    after: Mapping[str, Any] | None,
    reason: str = "",
    tournament_id: int | None = None,
    game_id: int | None = None,
    club_id: int | None = None,
) -> AuditEntry:
    """Append one audit entry. `obj` fills object_type ("app.model") and object_id."""
    if obj is not None:
        object_type = object_type or obj._meta.label_lower
        object_id = obj.pk if object_id is None else object_id
    if actor is not None and not getattr(actor, "is_authenticated", False):
        actor = None  # anonymous users are not stored
    return AuditEntry.objects.create(
        actor=actor,  # type: ignore[misc]
        action=action,
        object_type=object_type or "",
        object_id="" if object_id is None else str(object_id),
        before=_jsonable(before) if before is not None else None,
        after=_jsonable(after) if after is not None else None,
        reason=reason or "",
        tournament_id=tournament_id,
        game_id=game_id,
        club_id=club_id,
    )


_UNSET: Any = object()


class Audit:
    """The entry an `audited` block writes when it ends without an error. The block may name
    what it created (`obj`, `object_id`), add keys to `after` (`note`) or to `before`, set
    `after` itself (None: the object is gone), or `discard` the entry (nothing changed)."""

    def __init__(self, *, snapshot: Callable[[], Mapping[str, Any]] | None, **fields: Any):
        self.snapshot = snapshot
        self.obj: models.Model | None = fields.pop("obj")
        self.object_type: str | None = fields.pop("object_type")
        self.object_id: Any = fields.pop("object_id")
        self.reason: str = fields.pop("reason")
        self.before: dict[str, Any] | None = fields.pop("before")
        self.after: Mapping[str, Any] | None = _UNSET
        self.tournament_id: int | None = fields.pop("tournament_id")
        self.game_id: int | None = fields.pop("game_id")
        self.club_id: int | None = fields.pop("club_id")
        self.extra: dict[str, Any] = {}
        self.discarded = False

    def note(self, **extra: Any) -> None:
        """Keys `after` shows beside the snapshot (what the change was made of)."""
        self.extra.update(extra)

    def discard(self) -> None:
        """The block changed nothing: no entry."""
        self.discarded = True


@contextmanager
def audited(
    *,
    actor: AbstractBaseUser | AnonymousUser | None,
    action: str,
    snapshot: Callable[[], Mapping[str, Any]] | None = None,
    created: bool = False,
    before: Mapping[str, Any] | None = None,
    obj: models.Model | None = None,
    object_type: str | None = None,
    object_id: Any = None,
    reason: str = "",
    tournament_id: int | None = None,
    game_id: int | None = None,
    club_id: int | None = None,
) -> Iterator[Audit]:
    """Audit the change the block makes: `snapshot()` is taken before it (None when the block
    `created` the object; `before` when there is no snapshot) and after it, and one entry is
    recorded when the block ends without an error (an error records nothing, and the
    transaction rolls the change back):

        with audited(actor=actor, action="club.update_rules", obj=club,
                     snapshot=lambda: club_snapshot(club), club_id=club.pk):
            club.ruleset = ruleset
            club.save(update_fields=["ruleset"])
    """
    if snapshot is not None:
        before = None if created else snapshot()
    audit = Audit(
        snapshot=snapshot,
        obj=obj,
        object_type=object_type,
        object_id=object_id,
        reason=reason,
        before=None if before is None else dict(before),
        tournament_id=tournament_id,
        game_id=game_id,
        club_id=club_id,
    )
    yield audit
    if audit.discarded:
        return
    after = audit.after
    if after is _UNSET:
        after = dict(audit.snapshot()) if audit.snapshot is not None else None
    if audit.extra:
        after = {**(after or {}), **audit.extra}
    record_audit(
        actor=actor,
        action=action,
        obj=audit.obj,
        object_type=audit.object_type,
        object_id=audit.object_id,
        before=audit.before,
        after=after,
        reason=audit.reason,
        tournament_id=audit.tournament_id,
        game_id=audit.game_id,
        club_id=audit.club_id,
    )


def audit_for_game(game_id: int) -> QuerySet[AuditEntry]:
    """The audit trail of one game, oldest first."""
    return (
        AuditEntry.objects.filter(game_id=game_id)
        .select_related("actor")
        .order_by("created_at", "id")
    )


def audit_for_tournament(tournament_id: int) -> QuerySet[AuditEntry]:
    """Everything audited in one tournament (its games included), oldest first."""
    return (
        AuditEntry.objects.filter(tournament_id=tournament_id)
        .select_related("actor")
        .order_by("created_at", "id")
    )


def audit_for_club(club_id: int) -> QuerySet[AuditEntry]:
    """Everything audited in one club (its club-night games included), oldest first."""
    return (
        AuditEntry.objects.filter(club_id=club_id)
        .select_related("actor")
        .order_by("created_at", "id")
    )
