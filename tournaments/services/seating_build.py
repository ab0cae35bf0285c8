"""Build a requested seating plan from the tournament's rows (the worker's half of
request_seating_plan; the task tournaments.services.tasks.generate_seating_plan wraps it).

Both modes see the sessions before ``from_session`` as history (issue 17.4): tables in seat
order, as registration ids, dropped players included, so a re-plan from session k avoids the
pairs of sessions 1..k-1 and the quality report covers the whole tournament. Tables hold 4
players, or 3 under three-player rules (WDMC 2019 5.1). Swiss seats the next session from the
standings with ``tournaments.seating.swiss_session``, the function ``manage.py seating_swiss``
serves; groups (``separate_by``) and substitutes are kept apart there as a hard rule.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from tournaments import seating
from tournaments.models import Registration, Seat, SeatingPlan, StandingRow
from tournaments.selectors import active_registrations, table_size

SUBSTITUTE = "\x00substitute"  # a group label no club or country can have


def _history(tournament_id: int, before: int) -> list[list[list[Any]]]:
    """Sessions numbered below `before` that have tables: registration ids in seat order (a
    seat of someone not registered keeps its place as ("player", id))."""
    reg_of_player = dict(
        Registration.objects.filter(tournament_id=tournament_id).values_list("player_id", "pk")
    )
    seats = (
        Seat.objects.filter(
            table__session__tournament_id=tournament_id, table__session__number__lt=before
        )
        .order_by("table__session__number", "table__number", "wind")
        .values_list("table__session__number", "table_id", "player_id")
    )
    sessions: dict[int, dict[int, list[Any]]] = {}
    for number, table_id, player_id in seats:
        seat = reg_of_player.get(player_id, ("player", player_id))
        sessions.setdefault(number, {}).setdefault(table_id, []).append(seat)
    return [list(tables.values()) for _, tables in sorted(sessions.items())]


def _groups(registrations: list[Registration], separate_by: str | None) -> dict[int, str]:
    labels: dict[int, str] = {}
    for r in registrations:
        label = None
        if separate_by == "club":
            label = r.club_name or None
        elif separate_by == "country":
            label = r.player.country or None
        if r.is_substitute:
            label = SUBSTITUTE  # substitutes never share a table (issue 17.3)
        if label:
            labels[r.pk] = label
    return labels


def build_plan_rounds(
    plan: SeatingPlan, progress: Callable[[float], None] | None = None
) -> tuple[list[list[list[int]]], dict[str, Any]]:
    """The plan's rounds as registration ids and the quality of the whole tournament with
    them. Raises tournaments.seating.SeatingError for a field tables cannot hold."""
    tournament = plan.tournament
    registrations = active_registrations(tournament.pk)
    options = plan.options or {}
    size = table_size(tournament)
    history = _history(tournament.pk, options.get("from_session", 1))
    players = [r.pk for r in registrations]
    groups = _groups(registrations, options.get("separate_by"))
    if plan.mode == SeatingPlan.Mode.SWISS:
        total = dict(
            StandingRow.objects.filter(tournament_id=tournament.pk).values_list(
                "player_id", "total"
            )
        )
        points = {r.pk: float(total.get(r.player_id, 0)) for r in registrations}
        tables = seating.swiss_session(
            players=players,
            points=points,
            history=history,
            seed=plan.seed,
            groups=groups,
            table_size=size,
            # The planned session count lets winds end balanced (spread <= 1) by the last one.
            sessions=tournament.sessions_planned
            if tournament.sessions_planned > len(history)
            else None,
        )
        ranking = sorted(players, key=lambda p: -points[p])
        quality = seating.session_quality(
            [*history, tables],
            ranking=ranking,
            groups=groups,
            grouped=range(len(history), len(history) + 1),
        ).to_dict()
        return [tables], quality
    index = {pk: i for i, pk in enumerate(players)}
    outside: dict[Any, int] = {}  # players who left: indices past the field
    past = [
        [
            [
                index[p] if p in index else outside.setdefault(p, len(players) + len(outside))
                for p in table
            ]
            for table in rnd
        ]
        for rnd in history
    ]
    rounds_wanted = options.get("rounds", tournament.sessions_planned)
    # Groups (separate_by; substitutes always) are kept apart in the first `separate_rounds`
    # sessions of the plan, 0 meaning all of them (issue 17.5: a hard rule where feasible).
    labels = [groups.get(pk) for pk in players] if groups else None
    separate = (options.get("separate_rounds", 0) or rounds_wanted) if labels else 0
    extra: dict[str, Any] = {}
    if options.get("time_budget"):
        extra["time_budget"] = float(options["time_budget"])
    rounds = seating.generate_plan(
        players=len(players),
        rounds=rounds_wanted,
        seed=plan.seed,
        groups=labels,
        separate_groups_rounds=separate,
        progress=progress,
        table_size=size,
        history=past,
        **extra,
    )
    as_ids = [[[players[i] for i in t] for t in rnd] for rnd in rounds]
    report = seating.session_quality(
        [*history, *as_ids],
        groups=groups or None,
        grouped=range(len(history), len(history) + separate),
    )
    return as_ids, report.to_dict()


def build_requested_plan(*, plan_id: int) -> dict[str, Any]:
    """Build the requested plan with tournaments.seating, saving progress as it goes.

    Idempotent: a plan already built (or being built) is left alone, so a redelivered task
    does not redo the work.
    """
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
