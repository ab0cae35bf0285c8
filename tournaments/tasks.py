"""Celery tasks beside the tournament services: build a seating plan in a worker."""

from __future__ import annotations

import time
from typing import Any

from celery import shared_task

from tournaments.models import SeatingPlan


@shared_task
def generate_seating_plan(plan_id: int) -> dict[str, Any]:
    """Build the requested plan with tournaments.seating, saving progress as it goes."""
    from tournaments import seating
    from tournaments.services.seating_build import build_plan_rounds

    plan = SeatingPlan.objects.select_related("tournament").get(pk=plan_id)
    if plan.status in (SeatingPlan.Status.DONE, SeatingPlan.Status.RUNNING):
        return {"status": plan.status}  # a redelivered task must not redo the work
    SeatingPlan.objects.filter(pk=plan_id).update(status=SeatingPlan.Status.RUNNING, progress=0.0)
    last_saved = [0.0]

    def progress(fraction: float) -> None:
        now = time.monotonic()
        if fraction >= 1.0 or now - last_saved[0] > 0.5:
            last_saved[0] = now
            SeatingPlan.objects.filter(pk=plan_id).update(progress=min(max(fraction, 0.0), 1.0))

    try:
        rounds, quality = build_plan_rounds(plan, progress)
    except seating.SeatingError as error:
        SeatingPlan.objects.filter(pk=plan_id).update(
            status=SeatingPlan.Status.FAILED, error=str(error)
        )
        return {"status": SeatingPlan.Status.FAILED, "error": str(error)}
    except Exception as error:
        SeatingPlan.objects.filter(pk=plan_id).update(
            status=SeatingPlan.Status.FAILED, error=f"internal error: {error}"
        )
        raise
    SeatingPlan.objects.filter(pk=plan_id).update(
        status=SeatingPlan.Status.DONE, progress=1.0, plan=rounds, quality=quality
    )
    return {"status": SeatingPlan.Status.DONE}
