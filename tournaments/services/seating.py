"""Seating plans: request one (built by Celery), apply it to sessions, swap two players."""

from __future__ import annotations

import logging
from dataclasses import replace
from functools import partial
from typing import Any

from django.db import transaction

from core.audit import audited
from core.enqueue import enqueue_after_commit
from core.errors import ValidationFailed
from core.limits import MAX_SESSIONS
from core.models import Player
from scoring.models import Game, GameSeat, Hand
from tournaments.models import Registration, Seat, SeatingPlan, Session, Tournament
from tournaments.seating import SeatingError, parse_plan_csv, quality
from tournaments.seating.quality import group_pairs
from tournaments.selectors import planned_registrations, table_size

from ._common import require_organiser, require_task_queue, user_or_none
from .seating_build import TEAM, check_field, field_counts
from .sessions import _check_seatable, check_tables, replace_tables, session_snapshot
from .tasks import generate_seating_plan

SEPARATE_BY = ("club", "country")
NOT_QUEUED = (
    "The background worker queue was unreachable, so the plan was never built. Request it again."
)

logger = logging.getLogger(__name__)


def _clean_options(mode: str, options: dict[str, Any] | None, tournament: Tournament) -> dict:
    options = dict(options or {})
    allowed = {"rounds", "separate_by", "separate_rounds", "from_session", "time_budget"}
    unknown = sorted(set(options) - allowed)
    if unknown:
        raise ValidationFailed(f"Unknown option {unknown[0]!r}.", field=f"options.{unknown[0]}")
    done = tournament.sessions.filter(status=Session.Status.CLOSED).count()
    from_session = options.setdefault("from_session", done + 1)
    if not isinstance(from_session, int) or from_session < 1:
        raise ValidationFailed("from_session is a session number.", field="options.from_session")
    if mode == SeatingPlan.Mode.RANDOM:
        rounds = options.setdefault(
            "rounds", max(tournament.sessions_planned - from_session + 1, 1)
        )
        if not isinstance(rounds, int) or not 1 <= rounds <= MAX_SESSIONS:
            raise ValidationFailed(f"rounds must be 1 to {MAX_SESSIONS}.", field="options.rounds")
    separate_by = options.get("separate_by")
    if separate_by is not None and separate_by not in SEPARATE_BY:
        raise ValidationFailed('separate_by is "club" or "country".', field="options.separate_by")
    separate_rounds = options.setdefault("separate_rounds", 0)
    if not isinstance(separate_rounds, int) or separate_rounds < 0:
        raise ValidationFailed(
            "separate_rounds must be 0 or more.", field="options.separate_rounds"
        )
    budget = options.get("time_budget")
    if budget is not None and (not isinstance(budget, int | float) or not 0 < budget <= 120):
        raise ValidationFailed("time_budget is 0 to 120 seconds.", field="options.time_budget")
    return options


@transaction.atomic
def request_seating_plan(
    *,
    actor: Any,
    tournament: Tournament,
    mode: str = SeatingPlan.Mode.RANDOM,
    seed: int = 0,
    options: dict[str, Any] | None = None,
) -> SeatingPlan:
    """Record a plan request and have a worker build it (tournaments.services.tasks).

    Modes: "random" seats all remaining sessions with as few repeat opponents as possible;
    "swiss" seats the next session by current standings. Both seat tables of 3 under
    three-player rules (WDMC 2019 5.1) and keep earlier sessions as history (services/
    seating_build.py). Poll `progress`/`status`.
    With the broker unreachable it raises ServiceUnavailable and saves nothing.
    """
    require_organiser(actor, tournament)
    if mode not in (SeatingPlan.Mode.RANDOM, SeatingPlan.Mode.SWISS, SeatingPlan.Mode.STANDING):
        raise ValidationFailed('mode is "random", "swiss" or "standing".', field="mode")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValidationFailed("seed must be an integer.", field="seed")
    options = _clean_options(mode, options, tournament)
    require_task_queue()
    with audited(actor=actor, action="seating.request", tournament_id=tournament.pk) as audit:
        plan = SeatingPlan.objects.create(
            tournament=tournament,
            mode=mode,
            seed=seed,
            options=options,
            created_by=user_or_none(actor),
        )
        audit.obj = plan
        audit.after = {"mode": mode, "seed": seed, "options": options}

    # After commit, so the worker finds the row (core.enqueue).
    enqueue_after_commit(generate_seating_plan, plan.pk, on_failure=partial(_not_queued, plan.pk))
    return plan


def _not_queued(plan_id: int) -> None:
    """The broker went away since request_seating_plan checked it: the plan is marked failed
    (and the audit log says so) instead of staying "pending" with no task to build it."""
    with transaction.atomic():
        plan = SeatingPlan.objects.get(pk=plan_id)
        with audited(
            actor=None,
            action="seating.fail",
            obj=plan,
            before={"status": SeatingPlan.Status.PENDING},
            tournament_id=plan.tournament_id,
        ) as audit:
            SeatingPlan.objects.filter(pk=plan_id).update(
                status=SeatingPlan.Status.FAILED, error=NOT_QUEUED
            )
            audit.after = {"status": SeatingPlan.Status.FAILED, "error": NOT_QUEUED}


@transaction.atomic
def reseat_from_session(*, actor: Any, session: Session, seed: int = 0) -> SeatingPlan:
    """Re-seat a session not yet started and the ones after it (issue 31: a dropped player's
    seat, a late arrival): a plan from that session, the earlier sessions kept as history so
    it avoids their pairs where it can. Swiss when the tournament's last plan was Swiss (that
    session from the standings), else random for the remaining sessions. The plan is built by
    the worker as any other (request_seating_plan) and applied by the organiser."""
    require_organiser(actor, session.tournament_id)
    session = Session.objects.select_for_update().select_related("tournament").get(pk=session.pk)
    if session.status not in (Session.Status.PLANNED, Session.Status.SEATED):
        raise ValidationFailed(
            f"Session {session.number} has started: it can no longer be re-seated.",
            field="session",
        )
    tournament = session.tournament
    last = (
        SeatingPlan.objects.filter(tournament=tournament)
        .exclude(mode=SeatingPlan.Mode.UPLOADED)
        .order_by("-pk")
        .values_list("mode", flat=True)
        .first()
    )
    mode = SeatingPlan.Mode.SWISS if last == SeatingPlan.Mode.SWISS else SeatingPlan.Mode.RANDOM
    options: dict[str, Any] = {"from_session": session.number}
    if mode == SeatingPlan.Mode.RANDOM:
        options["rounds"] = max(tournament.sessions_planned - session.number + 1, 1)
    return request_seating_plan(
        actor=actor, tournament=tournament, mode=mode, seed=seed, options=options
    )


def _uploaded_quality(
    tournament: Tournament, registrations: list[Registration], indices: list[Any]
) -> dict[str, Any]:
    """An uploaded plan's quality; in a team event (issue 32.1) with the pairs of team mates
    it seats at one table, for the organiser to see before applying it."""
    report = quality(indices)
    if tournament.teams_enabled:
        teams = {i: f"{TEAM}{r.team_id}" for i, r in enumerate(registrations) if r.team_id}
        found, least = group_pairs(indices, teams)
        report = replace(report, group_pairs=found, group_pairs_least=least)
    return report.to_dict()


@transaction.atomic
def upload_seating_plan(*, actor: Any, tournament: Tournament, text: str) -> SeatingPlan:
    """A plan from CSV (tournaments.seating.parse_plan_csv): player numbers are 1-based
    positions in the list of players and fill-ins still in the tournament (reserves are never
    planned, issue 31: tournaments.selectors.planned_registrations)."""

    require_organiser(actor, tournament)
    registrations = planned_registrations(tournament)
    counts = field_counts(tournament.pk)
    try:
        check_field(counts, table_size(tournament))
        indices = parse_plan_csv(
            text, players=len(registrations), table_size=table_size(tournament)
        )
    except SeatingError as error:
        raise ValidationFailed(str(error), field="file") from error
    with audited(actor=actor, action="seating.upload", tournament_id=tournament.pk) as audit:
        plan = SeatingPlan.objects.create(
            tournament=tournament,
            mode=SeatingPlan.Mode.UPLOADED,
            status=SeatingPlan.Status.DONE,
            progress=1.0,
            plan=[[[registrations[i].pk for i in t] for t in r] for r in indices],
            quality=_uploaded_quality(tournament, registrations, indices),
            basis={"field": counts},
            options={
                "from_session": tournament.sessions.filter(status=Session.Status.CLOSED).count() + 1
            },
            created_by=user_or_none(actor),
        )
        audit.obj = plan
        audit.after = {"plan": plan.plan}
    return plan


@transaction.atomic
def apply_seating_plan(
    *, actor: Any, plan: SeatingPlan, from_session: int | None = None
) -> list[Session]:
    """Seat sessions from_session, from_session + 1, ... with the plan's rounds.

    Creates missing sessions, and for each session its tables, seats and games. All or
    nothing: a session already running, or a dropped player in the plan, refuses the whole.
    """
    require_organiser(actor, plan.tournament_id)
    plan = SeatingPlan.objects.select_for_update().select_related("tournament").get(pk=plan.pk)
    if plan.status != SeatingPlan.Status.DONE or not plan.plan:
        raise ValidationFailed("The plan is not ready.", field="plan")
    tournament = plan.tournament
    start = from_session or plan.options.get("from_session") or 1
    if not isinstance(start, int) or start < 1:
        raise ValidationFailed("from_session is a session number.", field="from_session")
    if start + len(plan.plan) - 1 > MAX_SESSIONS:
        raise ValidationFailed(
            f"A tournament has at most {MAX_SESSIONS} sessions; this plan would seat up to "
            f"session {start + len(plan.plan) - 1}.",
            field="from_session",
        )
    by_registration = {
        r.pk: r for r in Registration.objects.filter(tournament=tournament).select_related("player")
    }
    sessions = []
    for offset, round_tables in enumerate(plan.plan):
        number = start + offset
        session, _ = Session.objects.get_or_create(
            tournament=tournament,
            number=number,
            defaults={"duration_minutes": tournament.session_minutes},
        )
        session = Session.objects.select_for_update().get(pk=session.pk)
        _check_seatable(session)
        try:
            tables = [[by_registration[rid].player for rid in table] for table in round_tables]
        except KeyError as error:
            raise ValidationFailed(
                f"Registration {error.args[0]} in the plan no longer exists.", field="plan"
            ) from error
        check_tables(tournament, tables, field="plan")
        with audited(
            actor=actor,
            action="session.seat",
            obj=session,
            tournament_id=tournament.pk,
            snapshot=partial(session_snapshot, session),
        ) as audit:
            replace_tables(actor=actor, session=session, tables=tables)
            session.status = Session.Status.SEATED
            session.save(update_fields=["status"])
            audit.note(seating_plan=plan.pk)
        sessions.append(session)
    if tournament.sessions_planned < start + len(plan.plan) - 1:
        tournament.sessions_planned = start + len(plan.plan) - 1
        tournament.save(update_fields=["sessions_planned"])
    return sessions


@transaction.atomic
def swap_seats(*, actor: Any, session: Session, a: Player, b: Player) -> Session:
    """Exchange two players' seats in a session before its games have hands."""
    require_organiser(actor, session.tournament_id)
    session = Session.objects.select_for_update().get(pk=session.pk)
    if session.status == Session.Status.CLOSED:
        raise ValidationFailed("The session is closed.", field="session")
    if a.pk == b.pk:
        raise ValidationFailed("Choose two different players.", field="b")
    seat_a = Seat.objects.filter(table__session=session, player=a).select_related("table").first()
    seat_b = Seat.objects.filter(table__session=session, player=b).select_related("table").first()
    if seat_a is None:
        raise ValidationFailed(f"{a} is not seated in this session.", field="a")
    if seat_b is None:
        raise ValidationFailed(f"{b} is not seated in this session.", field="b")
    tables = {seat_a.table_id, seat_b.table_id}
    if (
        Hand.objects.filter(game__table__id__in=tables).exists()
        or Game.objects.filter(table__id__in=tables)
        .exclude(entry=Game.Entry.HANDS, final_scores__isnull=True)
        .exists()
    ):
        raise ValidationFailed("Scores were already entered at these tables.", field="session")
    with audited(
        actor=actor,
        action="session.swap",
        obj=session,
        tournament_id=session.tournament_id,
        snapshot=lambda: session_snapshot(session),
    ) as audit:
        seat_a.player, seat_b.player = b, a
        Seat.objects.bulk_update([seat_a, seat_b], ["player"])
        # GameSeat has unique (game, player): rewrite the two rows instead of updating in place.
        game_seats = list(GameSeat.objects.filter(game__table__id__in=tables, player__in=[a, b]))
        rows = [(gs.game_id, gs.seat, b if gs.player_id == a.pk else a) for gs in game_seats]
        GameSeat.objects.filter(pk__in=[gs.pk for gs in game_seats]).delete()
        GameSeat.objects.bulk_create([GameSeat(game_id=g, seat=s, player=p) for g, s, p in rows])
        for game in Game.objects.filter(table__id__in=tables):
            game.version += 1  # clients holding the old seating must reload
            game.save(update_fields=["version", "updated_at"])
        audit.note(swapped=[a.pk, b.pk])
    return session
