"""Celery tasks beside the tournament services: build a seating plan in a worker."""

from __future__ import annotations

import time
from typing import Any

from celery import shared_task

from tournaments.models import Registration, SeatingPlan, Session, Table


def _previous_rounds(tournament_id: int, index: dict[int, int], before: int) -> list:
    """Seated sessions before `before`, as rounds of tables of player indices."""
    rounds = []
    sessions = Session.objects.filter(tournament_id=tournament_id, number__lt=before).order_by(
        "number"
    )
    for session in sessions:
        tables = []
        for table in Table.objects.filter(session=session).prefetch_related("seats"):
            seats = [index.get(s.player_id) for s in table.seats.all()]
            tables.append([i for i in seats if i is not None])
        if tables:
            rounds.append(tables)
    return rounds


def _ranking(tournament_id: int, registrations: list[Registration]) -> list[int]:
    """Player indices best first, from the stored standings (unranked players last)."""
    from tournaments.models import StandingRow

    rank = {
        row.player_id: (row.rank if row.rank is not None else 10**6, -row.total)
        for row in StandingRow.objects.filter(tournament_id=tournament_id)
    }
    order = sorted(
        range(len(registrations)),
        key=lambda i: (rank.get(registrations[i].player_id, (10**6, 0)), i),
    )
    return order


@shared_task
def generate_seating_plan(plan_id: int) -> dict[str, Any]:
    """Build the requested plan with tournaments.seating, saving progress as it goes."""
    from tournaments import seating
    from tournaments.services.seating import active_registrations

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

    registrations = active_registrations(plan.tournament_id)
    options = plan.options or {}
    try:
        if plan.mode == SeatingPlan.Mode.SWISS:
            index = {r.player_id: i for i, r in enumerate(registrations)}
            previous = _previous_rounds(plan.tournament_id, index, options.get("from_session", 1))
            seating.check_player_count(len(registrations))
            ranking = _ranking(plan.tournament_id, registrations)
            tables = seating.swiss_round(ranking=ranking, previous=previous, seed=plan.seed)
            rounds = [tables]
            quality = seating.quality([*previous, tables], ranking=ranking).to_dict()
        else:
            separate_by = options.get("separate_by")
            groups = None
            if separate_by == "club":
                groups = [r.club_name or None for r in registrations]
            elif separate_by == "country":
                groups = [r.player.country or None for r in registrations]
            extra: dict[str, Any] = {}
            if options.get("time_budget"):
                extra["time_budget"] = float(options["time_budget"])
            rounds = seating.generate_plan(
                players=len(registrations),
                rounds=options.get("rounds", plan.tournament.sessions_planned),
                seed=plan.seed,
                groups=groups,
                separate_groups_rounds=options.get("separate_rounds", 0) if groups else 0,
                progress=progress,
                **extra,
            )
            quality = seating.quality(rounds).to_dict()
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
    as_registrations = [[[registrations[i].pk for i in t] for t in r] for r in rounds]
    SeatingPlan.objects.filter(pk=plan_id).update(
        status=SeatingPlan.Status.DONE, progress=1.0, plan=as_registrations, quality=quality
    )
    return {"status": SeatingPlan.Status.DONE}
