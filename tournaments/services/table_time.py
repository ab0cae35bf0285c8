"""Time per table (issue 35.3): a referee or organiser gives one table extra minutes (its
own time signal, EMA 2025 7.4: the session's signal plus the table's minutes) or lets it
finish one more hand. Audited with the reason."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from core.audit import audited
from core.errors import ValidationFailed
from tournaments.models import Session, Table

from ._common import require_referee

MAX_EXTRA_MINUTES = 120


def table_time_snapshot(table: Table) -> dict[str, Any]:
    return {
        "extra_minutes": table.extra_minutes,
        "one_more_hand": table.one_more_hand,
        "one_more_hand_after": table.one_more_hand_after,
    }


@transaction.atomic
def extend_table(
    *,
    actor: Any,
    table: Table,
    reason: str,
    minutes: int | None = None,
    one_more_hand: bool = False,
) -> Table:
    """Add `minutes` to the table's own time, or allow it one more hand (or both).

    One more hand (issue 35.3): the table may start one more hand after this moment than
    the rule gives it (EMA 2025 7.4: after the signal, the hand in progress and one more);
    finalize on time for the table waits until a hand after the grant is entered
    (`one_more_hand_after`: the hands entered when it was granted). Granted again, it counts
    from then."""
    table = Table.objects.select_for_update().select_related("session").get(pk=table.pk)
    require_referee(actor, table.session.tournament_id)
    if table.session.status != Session.Status.RUNNING:
        raise ValidationFailed("The table's session is not running.", field="table")
    reason = " ".join(str(reason or "").split())
    if not reason:
        raise ValidationFailed("Say why the table gets more time.", field="reason")
    if minutes is None and not one_more_hand:
        raise ValidationFailed("Give minutes or one_more_hand.", field="minutes")
    if minutes is not None:
        if isinstance(minutes, bool) or not isinstance(minutes, int) or minutes < 1:
            raise ValidationFailed("Give the minutes to add (at least 1).", field="minutes")
        if table.extra_minutes + minutes > MAX_EXTRA_MINUTES:
            raise ValidationFailed(
                f"A table gets at most {MAX_EXTRA_MINUTES} extra minutes.", field="minutes"
            )
    with audited(
        actor=actor,
        action="table.extend",
        obj=table,
        snapshot=lambda: table_time_snapshot(table),
        reason=reason,
        tournament_id=table.session.tournament_id,
    ):
        if minutes is not None:
            table.extra_minutes += minutes
        if one_more_hand:
            table.one_more_hand = True
            table.one_more_hand_after = table.game.hands.count() if table.game else 0
        table.save(update_fields=["extra_minutes", "one_more_hand", "one_more_hand_after"])
    return table
