"""Sessions: create them, seat a session (tables, seats and games), start and close it."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from typing import Any

from django.db import transaction
from django.utils import timezone

from core.audit import Audit, audited
from core.errors import StateConflict, ValidationFailed
from core.limits import MAX_SESSIONS
from core.models import Player
from scoring.engine import load_ruleset
from scoring.models import Game, Hand
from scoring.services.games import create_game
from tournaments.models import Registration, Seat, Session, Table, Tournament
from tournaments.places import TablePlace
from tournaments.selectors import session_roster
from tournaments.standings.tasks import enqueue_recompute

from ._common import require_organiser


def session_snapshot(session: Session) -> dict[str, Any]:
    tables = [
        [s.player_id for s in t.seats.order_by("wind")]
        for t in session.tables.order_by("number").prefetch_related("seats")
    ]
    return {
        "number": session.number,
        "status": session.status,
        "starts_at": session.starts_at,
        "started_at": session.started_at,
        "closed_at": session.closed_at,
        "tables": tables,
    }


@transaction.atomic
def create_sessions(
    *, actor: Any, tournament: Tournament, count: int | None = None
) -> list[Session]:
    """Create the missing sessions 1..count (default: the tournament's sessions_planned)."""
    require_organiser(actor, tournament)
    count = tournament.sessions_planned if count is None else count
    if not isinstance(count, int) or not 1 <= count <= MAX_SESSIONS:
        raise ValidationFailed(f"Between 1 and {MAX_SESSIONS} sessions.", field="count")
    existing = set(tournament.sessions.values_list("number", flat=True))
    created = [
        Session.objects.create(
            tournament=tournament, number=n, duration_minutes=tournament.session_minutes
        )
        for n in range(1, count + 1)
        if n not in existing
    ]
    if count > tournament.sessions_planned:
        tournament.sessions_planned = count
        tournament.save(update_fields=["sessions_planned"])
    if created:
        with audited(
            actor=actor,
            action="session.create",
            object_type="tournaments.tournament",
            object_id=tournament.pk,
            before={"sessions": sorted(existing)},
            tournament_id=tournament.pk,
        ) as audit:
            audit.after = {"sessions": sorted(existing | {s.number for s in created})}
    return created


def _lock_session(session: Session) -> Session:
    return Session.objects.select_for_update().select_related("tournament").get(pk=session.pk)


def _check_seatable(session: Session) -> None:
    if session.status in (Session.Status.RUNNING, Session.Status.CLOSED):
        raise ValidationFailed(
            f"Session {session.number} is {session.get_status_display().lower()}; "
            "its seating can no longer be replaced.",
            field="session",
        )
    if Hand.objects.filter(game__table__session=session).exists():
        raise ValidationFailed("Hands were already entered in this session.", field="session")


def replace_tables(
    *, actor: Any, session: Session, tables: Sequence[Sequence[Player]]
) -> list[Table]:
    """Drop the session's tables and create new ones with seats and games (no checks here)."""

    tournament = session.tournament
    Game.objects.filter(table__session=session).delete()
    session.tables.all().delete()
    # A player registered after this has no seat in it until it is seated again (issue 31).
    session.seated_at = timezone.now()
    session.save(update_fields=["seated_at"])
    created = []
    for number, players in enumerate(tables, start=1):
        table = Table.objects.create(session=session, number=number)
        Seat.objects.bulk_create(
            [Seat(table=table, wind=w, player=p) for w, p in enumerate(players)]
        )
        create_game(
            actor=None,  # permission was checked for the whole session; the audit says who
            players=list(players),
            ruleset=tournament.ruleset,
            rule_overrides=tournament.rule_overrides or None,
            place=TablePlace(table),
        )
        created.append(table)
    return created


def check_tables(
    tournament: Tournament, tables: Sequence[Sequence[Player]], *, field: str = "tables"
) -> None:
    seats = load_ruleset(tournament.ruleset, tournament.rule_overrides or None).players
    if not tables:
        raise ValidationFailed("Seat at least one table.", field=field)
    seen: set[int] = set()
    active = {
        pid: (dropped_at, role)
        for pid, dropped_at, role in Registration.objects.filter(tournament=tournament).values_list(
            "player_id", "dropped_at", "role"
        )
    }
    for i, table in enumerate(tables, start=1):
        if len(table) != seats:
            raise ValidationFailed(f"Table {i} has {len(table)} players, not {seats}.", field=field)
        for player in table:
            if player.pk in seen:
                raise ValidationFailed(f"{player} is seated twice.", field=field)
            seen.add(player.pk)
            if player.pk not in active:
                raise ValidationFailed(f"{player} is not registered.", field=field)
            if active[player.pk][0] is not None:
                raise ValidationFailed(f"{player} was dropped from the tournament.", field=field)
            if active[player.pk][1] == Registration.Role.RESERVE:
                raise ValidationFailed(
                    f"{player} is a reserve: a reserve sits only in place of a player "
                    "(a substitute, EMA 2025 7.3).",
                    field=field,
                )


@transaction.atomic
def seat_session(
    *, actor: Any, session: Session, tables: Sequence[Sequence[Player]]
) -> list[Table]:
    """Seat a session: each inner list is one table's players in seat order E, S, W, N."""
    require_organiser(actor, session.tournament_id)
    session = _lock_session(session)
    _check_seatable(session)
    check_tables(session.tournament, tables)
    with audited(
        actor=actor,
        action="session.seat",
        obj=session,
        tournament_id=session.tournament_id,
        snapshot=lambda: session_snapshot(session),
    ):
        created = replace_tables(actor=actor, session=session, tables=tables)
        session.status = Session.Status.SEATED
        session.save(update_fields=["status"])
    return created


@transaction.atomic
def start_session(*, actor: Any, session: Session) -> Session:
    """The start signal (EMA 2025 7.4): the session's games are now being played."""
    require_organiser(actor, session.tournament_id)
    session = _lock_session(session)
    if session.status != Session.Status.SEATED:
        raise ValidationFailed(
            "Only a seated session can start (seat it first)."
            if session.status == Session.Status.PLANNED
            else f"Session {session.number} is already {session.get_status_display().lower()}.",
            field="status",
        )
    refuse_unfilled_seats(session)
    with audited(
        actor=actor,
        action="session.start",
        obj=session,
        tournament_id=session.tournament_id,
        snapshot=lambda: session_snapshot(session),
    ):
        session.status = Session.Status.RUNNING
        session.started_at = timezone.now()
        session.save(update_fields=["status", "started_at"])
        tournament = session.tournament
        if tournament.status in (Tournament.Status.DRAFT, Tournament.Status.REGISTRATION):
            tournament.status = Tournament.Status.RUNNING
            tournament.save(update_fields=["status"])
    return session


def refuse_unfilled_seats(session: Session) -> None:
    """A session cannot start while its roster has a flagged seat (a dropped or disqualified
    player's, with no substitute: EMA 2025 6.12 and 7.3) or a late arrival without a seat
    (issue 31). StateConflict (409) naming each table and seat, with the two ways out:
    seat a reserve there (the substitutes action, EMA 2025 7.3 scoring) or re-seat the
    session (a plan from this session, the earlier sessions kept as history)."""
    roster = session_roster(session)
    if not roster.blocked:
        return
    problems: list[str] = []
    errors: list[dict[str, Any]] = []
    fixes: list[dict[str, Any]] = []
    for seat in roster.flagged:
        why = (
            "is disqualified (EMA 2025 6.12)"
            if seat.registered.disqualified
            else "was dropped from the tournament"
        )
        where = f"table {seat.table} {seat.wind_name}"
        problems.append(f"{where}: {seat.registered} {why}")
        errors.append(
            {
                "field": "tables",
                "table": seat.table,
                "seat": seat.wind,
                "wind": seat.wind_name,
                "player": seat.registered.id,
                "state": seat.state,
                "message": f"{seat.registered} {why}: the seat has no substitute.",
            }
        )
        fixes.append({"fix": "substitute", "table": seat.table, "seat": seat.wind})
    for person in roster.unseated:
        problems.append(f"{person} was registered after the session was seated and has no seat")
        errors.append(
            {
                "field": "tables",
                "player": person.id,
                "state": "unseated",
                "message": f"{person} has no seat in session {session.number}.",
            }
        )
    fixes.append({"fix": "reseat", "from_session": session.number})
    raise StateConflict(
        f"Session {session.number} cannot start: {'; '.join(problems)}. Seat a reserve there "
        f"(a substitute, EMA 2025 7.3) or re-seat session {session.number} (the earlier "
        "sessions stay as history).",
        field="tables",
        errors=errors,
        fixes=fixes,
    )


@transaction.atomic
def close_session(*, actor: Any, session: Session) -> Session:
    """Close a session once every table's game is finalized; refused while any is not."""
    require_organiser(actor, session.tournament_id)
    session = _lock_session(session)
    if session.status == Session.Status.CLOSED:
        raise ValidationFailed("The session is already closed.", field="status")
    if session.status != Session.Status.RUNNING:
        raise ValidationFailed("Only a running session can be closed.", field="status")
    unfinished = list(
        Table.objects.filter(session=session)
        .exclude(game__status=Game.Status.FINISHED)
        .order_by("number")
        .values_list("number", flat=True)
    )
    if unfinished:
        listed = ", ".join(str(n) for n in unfinished)
        raise ValidationFailed(
            f"Games at table(s) {listed} are not finished yet.",
            field="games",
            errors=[
                {"field": "games", "table": n, "message": "game not finished"} for n in unfinished
            ],
        )
    with audited(
        actor=actor,
        action="session.close",
        obj=session,
        tournament_id=session.tournament_id,
        snapshot=lambda: session_snapshot(session),
    ):
        session.status = Session.Status.CLOSED
        session.closed_at = timezone.now()
        if session.paused_at is not None:  # closed while paused: the clock stops for good
            session.paused_seconds += max(
                int((session.closed_at - session.paused_at).total_seconds()), 0
            )
            session.paused_at = None
        session.save(update_fields=["status", "closed_at", "paused_at", "paused_seconds"])
    enqueue_recompute(session.tournament_id)
    return session


@transaction.atomic
def reopen_session(*, actor: Any, session: Session, reason: str) -> Session:
    require_organiser(actor, session.tournament_id)
    if not (reason or "").strip():
        raise ValidationFailed("Say why the session is reopened.", field="reason")
    session = _lock_session(session)
    if session.status != Session.Status.CLOSED:
        raise ValidationFailed("The session is not closed.", field="status")
    # Issue 15: reopening a session of a finished or published tournament makes its results
    # provisional again: the tournament runs again until the organiser re-publishes.
    tournament = Tournament.objects.select_for_update().get(pk=session.tournament_id)
    with audited(
        actor=actor,
        action="session.reopen",
        obj=session,
        snapshot=lambda: {
            **session_snapshot(session),
            "tournament_status": tournament.status,
            "published_at": tournament.published_at,
        },
        reason=reason,
        tournament_id=session.tournament_id,
    ):
        session.status = Session.Status.RUNNING
        session.closed_at = None
        session.save(update_fields=["status", "closed_at"])
        if tournament.status in (Tournament.Status.FINISHED, Tournament.Status.PUBLISHED):
            tournament.status = Tournament.Status.RUNNING
            tournament.published_at = None
            tournament.save(update_fields=["status", "published_at"])
    enqueue_recompute(session.tournament_id)
    return session


MINUTES_MIN, MINUTES_MAX = 10, 600  # a session lasts 10 minutes to 10 hours


def _clock_snapshot(session: Session) -> dict[str, Any]:
    return {
        "status": session.status,
        "duration_minutes": session.duration_minutes,
        "started_at": session.started_at,
        "paused_at": session.paused_at,
        "paused_seconds": session.paused_seconds,
    }


def _audited_clock(actor: Any, action: str, session: Session) -> AbstractContextManager[Audit]:
    """core.audit.audited for a change of the session's clock."""
    return audited(
        actor=actor,
        action=action,
        obj=session,
        snapshot=lambda: _clock_snapshot(session),
        tournament_id=session.tournament_id,
    )


def _running(session: Session) -> None:
    if session.status != Session.Status.RUNNING:
        raise ValidationFailed(
            "Only a running session's clock can be paused, resumed or extended.", field="status"
        )


@transaction.atomic
def pause_session(*, actor: Any, session: Session) -> Session:
    """Stop the session clock (EMA 2025 7.4 timing): the remaining time is kept."""
    require_organiser(actor, session.tournament_id)
    session = _lock_session(session)
    _running(session)
    if session.paused_at is not None:
        raise ValidationFailed("The clock is already paused.", field="status")
    with _audited_clock(actor, "session.pause", session):
        session.paused_at = timezone.now()
        session.save(update_fields=["paused_at"])
    return session


@transaction.atomic
def resume_session(*, actor: Any, session: Session) -> Session:
    """Run the clock again: the session ends later by the length of the pause."""
    require_organiser(actor, session.tournament_id)
    session = _lock_session(session)
    _running(session)
    if session.paused_at is None:
        raise ValidationFailed("The clock is not paused.", field="status")
    with _audited_clock(actor, "session.resume", session):
        pause = max(int((timezone.now() - session.paused_at).total_seconds()), 0)
        session.paused_seconds += pause
        session.paused_at = None
        session.save(update_fields=["paused_at", "paused_seconds"])
    return session


def _check_minutes(minutes: Any, field: str) -> int:
    if isinstance(minutes, bool) or not isinstance(minutes, int):
        raise ValidationFailed("Give whole minutes.", field=field)
    if not MINUTES_MIN <= minutes <= MINUTES_MAX:
        raise ValidationFailed(
            f"A session lasts {MINUTES_MIN} to {MINUTES_MAX} minutes.", field=field
        )
    return minutes


@transaction.atomic
def extend_session(*, actor: Any, session: Session, minutes: int, reason: str = "") -> Session:
    """Add playing time to a running session (fewer with negative minutes); audited."""
    require_organiser(actor, session.tournament_id)
    session = _lock_session(session)
    _running(session)
    if isinstance(minutes, bool) or not isinstance(minutes, int) or minutes == 0:
        raise ValidationFailed("Give the minutes to add (or to take off).", field="minutes")
    with audited(
        actor=actor,
        action="session.extend",
        obj=session,
        reason=reason,
        tournament_id=session.tournament_id,
        snapshot=lambda: _clock_snapshot(session),
    ) as audit:
        session.duration_minutes = _check_minutes(session.duration_minutes + minutes, "minutes")
        session.save(update_fields=["duration_minutes"])
        audit.note(minutes=minutes)
    return session


@transaction.atomic
def set_session_length(*, actor: Any, session: Session, minutes: int) -> Session:
    """The playing time of a session that has not started (EMA 2025 7.4 timing)."""
    require_organiser(actor, session.tournament_id)
    session = _lock_session(session)
    if session.status not in (Session.Status.PLANNED, Session.Status.SEATED):
        raise ValidationFailed(
            "The session has started: extend it instead of changing its length.",
            field="minutes",
        )
    minutes = _check_minutes(minutes, "minutes")
    with _audited_clock(actor, "session.length", session):
        session.duration_minutes = minutes
        session.save(update_fields=["duration_minutes"])
    return session
