"""Calling a referee (issue 35.2): a table's players (no login needed: the table's own page)
or its referee call; a referee acknowledges (on the way), then closes the call. Audited."""

from __future__ import annotations

import datetime
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from core.audit import record_audit
from core.errors import ServiceError, ValidationFailed
from tournaments.models import RefereeCall, Session, Table

from ._common import require_referee

OPEN_STATES = (RefereeCall.Status.OPEN, RefereeCall.Status.ACKNOWLEDGED)
NOTE_MAX = 200


class TooManyCalls(ServiceError):
    """More calls from one table than REFEREE_CALLS_PER_TABLE in 10 minutes (429)."""


def calls_per_table() -> int:
    return int(getattr(settings, "REFEREE_CALLS_PER_TABLE", 5))


def call_snapshot(call: RefereeCall) -> dict[str, Any]:
    return {
        "table": call.table_id,
        "status": call.status,
        "note": call.note,
        "acknowledged_by": call.acknowledged_by_id,
        "closed_by": call.closed_by_id,
    }


@transaction.atomic
def call_referee(*, actor: Any, table: Table, note: str = "") -> tuple[RefereeCall, bool]:
    """Call a referee to `table`. A call still open for the table is answered again (a
    double tap or a retried offline call makes no second call): returns (call, created).
    At most REFEREE_CALLS_PER_TABLE calls per table in 10 minutes (TooManyCalls)."""
    table = Table.objects.select_for_update().select_related("session").get(pk=table.pk)
    if table.session.status not in (Session.Status.RUNNING, Session.Status.SEATED):
        raise ValidationFailed("The table's session is not being played.", field="table")
    note = " ".join(str(note or "").split())
    if len(note) > NOTE_MAX:
        raise ValidationFailed(f"At most {NOTE_MAX} characters.", field="note")
    current = table.referee_calls.filter(status__in=OPEN_STATES).first()
    if current is not None:
        return current, False
    since = timezone.now() - datetime.timedelta(minutes=10)
    if table.referee_calls.filter(created_at__gte=since).count() >= calls_per_table():
        raise TooManyCalls(
            "Too many referee calls from this table; a referee has been called already.",
            field="table",
        )
    call = RefereeCall.objects.create(
        tournament_id=table.session.tournament_id, table=table, note=note
    )
    record_audit(
        actor=actor,
        action="referee_call.create",
        obj=call,
        before=None,
        after=call_snapshot(call),
        tournament_id=call.tournament_id,
    )
    return call, True


def _move(*, actor: Any, call: RefereeCall, to: str, reason: str = "") -> RefereeCall:
    require_referee(actor, call.tournament_id)
    call = RefereeCall.objects.select_for_update().get(pk=call.pk)
    before = call_snapshot(call)
    now = timezone.now()
    user = actor if getattr(actor, "is_authenticated", False) else None
    if to == RefereeCall.Status.ACKNOWLEDGED:
        if call.status != RefereeCall.Status.OPEN:
            raise ValidationFailed("Only an open call can be acknowledged.", field="status")
        call.acknowledged_at, call.acknowledged_by = now, user
    else:
        if call.status == RefereeCall.Status.CLOSED:
            raise ValidationFailed("The call is closed already.", field="status")
        if call.acknowledged_at is None:  # closed at once: the referee was there
            call.acknowledged_at, call.acknowledged_by = now, user
        call.closed_at, call.closed_by = now, user
    call.status = to
    call.save()
    record_audit(
        actor=actor,
        action=f"referee_call.{'acknowledge' if to == 'acknowledged' else 'close'}",
        obj=call,
        before=before,
        after=call_snapshot(call),
        reason=reason,
        tournament_id=call.tournament_id,
    )
    return call


@transaction.atomic
def acknowledge_call(*, actor: Any, call: RefereeCall) -> RefereeCall:
    """A referee is on the way."""
    return _move(actor=actor, call=call, to=RefereeCall.Status.ACKNOWLEDGED)


@transaction.atomic
def close_call(*, actor: Any, call: RefereeCall, reason: str = "") -> RefereeCall:
    """The referee has dealt with it."""
    return _move(actor=actor, call=call, to=RefereeCall.Status.CLOSED, reason=reason)
