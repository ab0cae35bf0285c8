"""Cuts (issue 32.2, docs/finals.md): after session k the organiser cuts the field to its top N.

The cut is taken from the standings as they are after session k (the tie-breaks settle a tie
at the line; a tie no tie-break settles is drawn with the cut's seed, and the cut says what
decided it). The players it keeps alone play on: the cut seats session k+1 with them at once
(by standing or Swiss among them, winds by standing or drawn) and unseats later sessions
seated before it; later sessions are seated by plans, which after a cut seat only them
(tournaments.selectors.planned_registrations). The standings rank them first and the others
below, in their order at the cut (tournaments/standings/cuts.py).

``undo_cut`` takes the last cut back while the session after it has not started;
``promote_at_cut`` lets the next player in the order at the cut take a dropped finalist's
place, and seats (sessions not started; in a running one, a table that played nothing yet:
docs/finals.md).
"""

from __future__ import annotations

import random
from functools import partial
from typing import Any

from django.db import transaction
from django.db.models import Exists, OuterRef

from core.audit import audited
from core.errors import StateConflict, ValidationFailed
from core.models import Player
from scoring.models import Game, GameSeat
from scoring.services import locked_games
from scoring.services._common import bump_version
from tournaments.models import Cut, Registration, Seat, Session, StandingRow, Table, Tournament
from tournaments.selectors import cut_in_force, planned_registrations, table_size
from tournaments.standings.ranking import tie_breaks_of
from tournaments.standings.services import compute_standings, recompute_standings

from ._common import require_organiser, user_or_none
from .seating_build import final_tables, seating_groups
from .sessions import _check_seatable, replace_tables, session_snapshot
from .tournament import tournament_snapshot


def _integer(value: Any, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValidationFailed(f"{field} must be an integer.", field=field)
    return value


def _check_sessions(tournament: Tournament, after_session: int) -> None:
    sessions = dict(tournament.sessions.values_list("number", "status"))
    if after_session not in sessions:
        raise ValidationFailed(f"There is no session {after_session}.", field="after_session")
    unfinished = sorted(
        n for n, status in sessions.items() if n <= after_session and status != "closed"
    )
    if unfinished:
        raise ValidationFailed(
            f"Session {unfinished[0]} is not finished: close it before cutting after session "
            f"{after_session}.",
            field="after_session",
        )
    started = sorted(
        n
        for n, status in sessions.items()
        if n > after_session and status in (Session.Status.RUNNING, Session.Status.CLOSED)
    )
    if started:
        raise ValidationFailed(
            f"Session {started[0]} has already started: the cut must come before it.",
            field="after_session",
        )


def _field(tournament: Tournament) -> list[StandingRow]:
    """The players the cut chooses from, in their order now: the ranked players still in the
    competition (after an earlier cut, those it kept), best first. Computed afresh, so a
    standings update still queued cannot make the cut on old figures."""
    rows = [r for r in compute_standings(tournament) if r.rank is not None]
    players = Player.objects.in_bulk([r.player_id for r in rows])
    for r in rows:
        r.player = players[r.player_id]
    last = cut_in_force(tournament)
    if last is not None:
        kept = set(last.qualified_ids)
        rows = [r for r in rows if r.player_id in kept]
    return sorted(rows, key=lambda r: (r.rank or 0, r.player_id))


def _decided_by(tie_breaks: tuple[str, ...], last_in: StandingRow, first_out: StandingRow) -> str:
    """What put `last_in` ahead of `first_out`: "total", a tie-break's name, or "draw"."""
    if last_in.total != first_out.total:
        return "total"
    for name, a, b in zip(
        tie_breaks, last_in.tie_break_values, first_out.tie_break_values, strict=False
    ):
        if a != b:
            return name
    return "draw"


def _entry(row: StandingRow, qualified: bool) -> dict[str, Any]:
    return {
        "player": row.player_id,
        "name": str(row.player),
        "rank": row.rank,
        "total": row.total,
        "tie_break_values": row.tie_break_values,
        "dropped": row.dropped,
        "qualified": qualified,
    }


def _choose(
    rows: list[StandingRow], top: int, tie_breaks: tuple[str, ...], seed: int
) -> tuple[list[StandingRow], dict[str, Any]]:
    """The field in its order at the cut (a tie at the line drawn) and how the line was
    drawn. A dropped player is passed over: the next one qualifies in their place."""
    eligible = [r for r in rows if not r.dropped]
    line_rank = eligible[top - 1].rank
    tied = [r for r in eligible if r.rank == line_rank]
    drawn = False
    if eligible[top].rank == line_rank:
        # Still level after every tie-break: lots are drawn (with the cut's seed, recorded).
        drawn = True
        order = sorted(tied, key=lambda r: r.player_id)
        random.Random(seed).shuffle(order)
        at = rows.index(tied[0])
        rows = [*rows[:at], *order, *[r for r in rows[at:] if r not in tied]]
        eligible = [r for r in rows if not r.dropped]
    last_in, first_out = eligible[top - 1], eligible[top]
    line = {
        "decided_by": "draw" if drawn else _decided_by(tie_breaks, last_in, first_out),
        "last_in": {"player": last_in.player_id, "name": str(last_in.player)},
        "first_out": {"player": first_out.player_id, "name": str(first_out.player)},
        "level_on_total": [str(r.player) for r in eligible if r.total == last_in.total]
        if last_in.total == first_out.total
        else [],
        "passed_over": [str(r.player) for r in rows[: rows.index(last_in)] if r.dropped],
    }
    return rows, line


def _locked_sessions_after(tournament: Tournament, number: int, tables: Any, **filters: Any) -> Any:
    """The sessions after `number` that have one of `tables`, locked. An EXISTS, not a join
    with DISTINCT: PostgreSQL refuses FOR UPDATE on a DISTINCT query."""
    return Session.objects.select_for_update().filter(
        Exists(tables.filter(session=OuterRef("pk"))),
        tournament=tournament,
        number__gt=number,
        **filters,
    )


def _unseat_sessions_after(actor: Any, tournament: Tournament, number: int, **note: Any) -> None:
    """The sessions after `number` lose their tables and are planned again (audited as
    `session.unseat`, with `note`): they held a field the cut changed."""
    for later in _locked_sessions_after(tournament, number, Table.objects.all()):
        with audited(
            actor=actor,
            action="session.unseat",
            obj=later,
            tournament_id=tournament.pk,
            snapshot=partial(session_snapshot, later),
        ) as audit:
            replace_tables(actor=actor, session=later, tables=[])
            later.status = Session.Status.PLANNED
            later.save(update_fields=["status"])
            audit.note(**note)


def _seat_next(actor: Any, tournament: Tournament, cut: Cut) -> Session:
    """Seat session k+1 with the qualified players; later sessions seated before the cut
    lose their tables (they held players who are out), to be seated by plans."""
    number = cut.after_session + 1
    _unseat_sessions_after(actor, tournament, number, cut=cut.pk)
    session, created = Session.objects.get_or_create(
        tournament=tournament,
        number=number,
        defaults={"duration_minutes": tournament.session_minutes},
    )
    session = Session.objects.select_for_update().get(pk=session.pk)
    _check_seatable(session)
    registrations = planned_registrations(tournament)
    by_id = {r.pk: r for r in registrations}
    tables = final_tables(
        tournament,
        registrations,
        mode=cut.seating,
        seed=cut.seed,
        before=number,
        # Fill-ins and team mates stay apart (issue 32.1's groups), Swiss or by standing.
        groups=seating_groups(registrations, None, teams=tournament.teams_enabled),
    )
    with audited(
        actor=actor,
        action="session.seat",
        obj=session,
        tournament_id=tournament.pk,
        snapshot=partial(session_snapshot, session),
    ) as audit:
        replace_tables(
            actor=actor,
            session=session,
            tables=[[by_id[pk].player for pk in table] for table in tables],
        )
        session.status = Session.Status.SEATED
        session.save(update_fields=["status"])
        audit.note(cut=cut.pk)
    if tournament.sessions_planned < number:
        # The stage's session is planned; the cut keeps what was planned before, for
        # undo_cut to take back (with the session, if the cut created it).
        cut.sessions_planned_before = tournament.sessions_planned
        _plan_sessions(actor, tournament, number, cut=cut.pk)
    cut.created_session = created
    cut.save(update_fields=["sessions_planned_before", "created_session"])
    return session


@transaction.atomic
def cut_field(
    *,
    actor: Any,
    tournament: Tournament,
    after_session: Any,
    top: Any,
    carry_over: Any = True,
    seating: Any = Cut.Seating.STANDING,
    winds: Any = Cut.Winds.STANDING,
    seed: Any = 0,
) -> Cut:
    """Cut the field to its top `top` after session `after_session` (issue 32.2): see the
    module's docstring. All or nothing; a 400 names the field that is wrong."""
    require_organiser(actor, tournament)
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    after_session = _integer(after_session, "after_session")
    top = _integer(top, "top")
    seed = _integer(seed, "seed")
    if not isinstance(carry_over, bool):
        raise ValidationFailed("carry_over is true or false.", field="carry_over")
    if seating not in Cut.Seating.values:
        raise ValidationFailed('seating is "standing" or "swiss".', field="seating")
    if winds not in Cut.Winds.values:
        raise ValidationFailed('winds is "standing" or "drawn".', field="winds")
    if tournament.status != Tournament.Status.RUNNING:
        raise ValidationFailed("Only a running tournament can be cut.", field="tournament")
    if after_session < 1:
        raise ValidationFailed("after_session is a session number.", field="after_session")
    last = cut_in_force(tournament)
    if last is not None and after_session <= last.after_session:
        raise ValidationFailed(
            f"The field was already cut after session {last.after_session}: a further cut "
            "comes after a later session.",
            field="after_session",
        )
    _check_sessions(tournament, after_session)
    size = table_size(tournament)
    if top < size or top % size:
        raise ValidationFailed(
            f"top must be a multiple of {size} (the players of a table), at least {size}.",
            field="top",
        )
    rows = _field(tournament)
    eligible = sum(not r.dropped for r in rows)
    if top >= eligible:
        raise ValidationFailed(
            f"top must be smaller than the field: {eligible} players can qualify.", field="top"
        )
    tie_breaks = tie_breaks_of(tournament.tie_breaks)
    ordered, line = _choose(rows, top, tie_breaks, seed)
    qualified = set([r.player_id for r in ordered if not r.dropped][:top])
    with audited(
        actor=actor, action="tournament.cut", created=True, tournament_id=tournament.pk
    ) as audit:
        cut = Cut.objects.create(
            tournament=tournament,
            after_session=after_session,
            top=top,
            carry_over=carry_over,
            seating=seating,
            winds=winds,
            seed=seed,
            order=[_entry(r, r.player_id in qualified) for r in ordered],
            line=line,
            created_by=user_or_none(actor),
        )
        audit.obj = cut
        audit.after = {
            "after_session": after_session,
            "top": top,
            "carry_over": carry_over,
            "seating": seating,
            "winds": winds,
            "seed": seed,
            "qualified": sorted(qualified),
            "decided_by": line["decided_by"],
        }
    recompute_standings(tournament_id=tournament.pk)
    _seat_next(actor, tournament, cut)
    return cut


def _cut_in_force(tournament: Tournament, cut: Cut) -> Cut:
    """The cut, which must be the tournament's last one (an earlier cut is the field the
    later one chose from)."""
    if cut.tournament_id != tournament.pk:
        raise ValidationFailed("This cut is another tournament's.", field="cut")
    last = cut_in_force(tournament)
    if last is not None and last.pk != cut.pk:
        raise StateConflict(
            f"The field was cut again after session {last.after_session}: only that last cut "
            "can be changed or undone.",
            field="cut",
        )
    return cut


def _unplan_after(actor: Any, tournament: Tournament, cut: Cut) -> None:
    """What the cut planned beyond the tournament's plan goes with it: sessions_planned as it
    was before the cut (unless it changed since: the organiser's own plan stays), and the
    session after the cut if the cut created it (already unseated; kept if it has a penalty).
    Audited as `tournament.update` and `session.delete`, each noting `cut_undone`."""
    number = cut.after_session + 1
    if cut.sessions_planned_before is None or tournament.sessions_planned != number:
        return
    _plan_sessions(actor, tournament, cut.sessions_planned_before, cut_undone=cut.pk)
    session = (
        Session.objects.select_for_update()
        .filter(tournament=tournament, number=number, status=Session.Status.PLANNED)
        .first()
    )
    if (
        not cut.created_session
        or session is None
        or session.tables.exists()
        or session.penalties.exists()
    ):
        return
    with audited(
        actor=actor,
        action="session.delete",
        obj=session,
        tournament_id=tournament.pk,
        snapshot=partial(session_snapshot, session),
    ) as audit:
        audit.object_id = session.pk
        session.delete()
        audit.after = None
        audit.note(cut_undone=cut.pk)


def _started_after(tournament: Tournament, after_session: int) -> int | None:
    return (
        Session.objects.filter(
            tournament=tournament,
            number__gt=after_session,
            status__in=(Session.Status.RUNNING, Session.Status.CLOSED),
        )
        .order_by("number")
        .values_list("number", flat=True)
        .first()
    )


@transaction.atomic
def undo_cut(*, actor: Any, tournament: Tournament, cut: Cut) -> None:
    """Take the tournament's last cut back (a cut made by mistake): every player is in the
    field again and the sessions after the cut, seated with the qualified only, go back to
    planned without tables (to be seated again by a plan); the session the cut planned beyond
    the tournament's plan is unplanned again (_unplan_after). Refused (409, naming why) once a
    session after the cut has started: games were played by the cut field. Organisers;
    audited as `tournament.cut_undo`."""
    require_organiser(actor, tournament)
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    cut = _cut_in_force(tournament, cut)
    started = _started_after(tournament, cut.after_session)
    if started is not None:
        raise StateConflict(
            f"Session {started} has started after the cut: its games were played by the cut "
            "field, so the cut can no longer be undone.",
            field="cut",
        )
    _unseat_sessions_after(actor, tournament, cut.after_session, cut_undone=cut.pk)
    _unplan_after(actor, tournament, cut)
    with audited(
        actor=actor,
        action="tournament.cut_undo",
        obj=cut,
        tournament_id=tournament.pk,
        before={
            "after_session": cut.after_session,
            "top": cut.top,
            "carry_over": cut.carry_over,
            "qualified": sorted(cut.qualified_ids),
        },
    ):
        cut.delete()
    recompute_standings(tournament_id=tournament.pk)


def _reseat(actor: Any, session: Session, out: Any, into: Any, cut: Cut) -> None:
    """The promoted player takes the dropped player's seat, table and wind unchanged."""
    seated: dict[int, list[Any]] = {}
    for seat in Seat.objects.filter(table__session=session).select_related("player", "table"):
        seated.setdefault(seat.table.number, []).append(seat.player)  # in wind order
    tables = [
        [into if player.pk == out.pk else player for player in seated[number]]
        for number in sorted(seated)
    ]
    with audited(
        actor=actor,
        action="session.seat",
        obj=session,
        tournament_id=session.tournament_id,
        snapshot=partial(session_snapshot, session),
    ) as audit:
        replace_tables(actor=actor, session=session, tables=tables)
        audit.note(cut=cut.pk, promoted=into.pk, replaces=out.pk)


def _hand_over_unplayed_seat(actor: Any, session: Session, out: Any, into: Any, cut: Cut) -> None:
    """A running session: the promoted player takes the dropped player's seat (table and wind
    unchanged) only where nothing was played yet, i.e. their table's game has no hand and no
    paper-sheet score (as swap_seats allows) and no substitute sits for them. A game not
    played yet is a seat still to be taken, as in a session not started. A table that has
    played keeps its seats: the game counts as played by them (a substitute finishes it, EMA
    2025 7.3). The session is never re-seated whole: its other tables play on. The game is
    locked first, so a hand entered meanwhile is seen; its version moves on (a phone holding
    the old seating reloads)."""
    seat = (
        Seat.objects.select_related("table")
        .filter(table__session=session, player_id=out.pk)
        .first()
    )
    if seat is None:
        return
    game = None
    if seat.table.game_id is not None:
        game = locked_games().get(pk=seat.table.game_id)
        played = (
            game.status != Game.Status.IN_PROGRESS
            or game.entry != Game.Entry.HANDS
            or game.final_scores is not None
            or game.hands.exists()
        )
        substituted = any(s.get("replaced_player_id") == out.pk for s in game.substitutes or [])
        if played or substituted:
            return
    with audited(
        actor=actor,
        action="session.seat",
        obj=session,
        tournament_id=session.tournament_id,
        snapshot=partial(session_snapshot, session),
    ) as audit:
        seat.player = into
        seat.save(update_fields=["player"])
        if game is not None:
            GameSeat.objects.filter(game=game, player_id=out.pk).update(player=into)
            bump_version(game, fields=[])
        audit.note(cut=cut.pk, promoted=into.pk, replaces=out.pk, table=seat.table.number)


@transaction.atomic
def promote_at_cut(*, actor: Any, tournament: Tournament, cut: Cut, replaces: Any) -> Cut:
    """A qualified player dropped after the cut (`replaces`, a player id): the next player in
    the order at the cut who is still in the tournament takes their place, as a championship
    calls up the first player below the line. The dropped player is out at the cut (ranked
    first of those out, by their place at it); the promoted one plays on in the stage, with
    points as the cut says (carried over or from zero). Seats of sessions after the cut not
    started yet are handed over as they are; in a running session, the seat only if its
    table has played nothing yet (_hand_over_unplayed_seat). Organisers; audited as
    `tournament.cut_promote`; a 400 names `replaces` (not a qualified player, or not dropped)
    or `cut` (nobody left to promote)."""
    require_organiser(actor, tournament)
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.status != Tournament.Status.RUNNING:
        raise ValidationFailed("Only a running tournament's cut can change.", field="tournament")
    cut = _cut_in_force(tournament, cut)
    out_id = _integer(replaces, "replaces")
    order = [dict(entry) for entry in cut.order]
    entry_out = next((e for e in order if int(e["player"]) == out_id), None)
    if entry_out is None or not entry_out.get("qualified"):
        raise ValidationFailed("replaces is not a player qualified at this cut.", field="replaces")
    registrations = {
        r.player_id: r
        for r in Registration.objects.filter(tournament=tournament).select_related("player")
    }
    out = registrations.get(out_id)
    if out is None or out.dropped_at is None:
        raise ValidationFailed(
            f"{entry_out['name']} has not dropped: drop the player first (a player who only "
            "misses a session is replaced by a substitute, EMA 2025 7.3).",
            field="replaces",
        )
    candidate = next(
        (
            e
            for e in order
            if not e.get("qualified")
            and (r := registrations.get(int(e["player"]))) is not None
            and r.dropped_at is None
            and r.disqualified_at is None
            and r.role == Registration.Role.PLAYER
        ),
        None,
    )
    if candidate is None:
        raise ValidationFailed(
            "Nobody below the line is still in the tournament to take the place.", field="cut"
        )
    into = registrations[int(candidate["player"])]
    with audited(
        actor=actor,
        action="tournament.cut_promote",
        obj=cut,
        tournament_id=tournament.pk,
        snapshot=lambda: {"qualified": sorted(cut.qualified_ids)},
    ) as audit:
        entry_out["qualified"] = False
        entry_out["withdrawn"] = True
        candidate["qualified"] = True
        candidate["promoted_for"] = out_id
        cut.order = order
        cut.save(update_fields=["order"])
        audit.note(promoted=into.player_id, replaces=out_id)
    for session in _locked_sessions_after(
        tournament,
        cut.after_session,
        Table.objects.filter(seats__player_id=out_id),
        status__in=(Session.Status.PLANNED, Session.Status.SEATED),
    ):
        _reseat(actor, session, out.player, into.player, cut)
    for session in _locked_sessions_after(
        tournament,
        cut.after_session,
        Table.objects.filter(seats__player_id=out_id),
        status=Session.Status.RUNNING,
    ):
        _hand_over_unplayed_seat(actor, session, out.player, into.player, cut)
    recompute_standings(tournament_id=tournament.pk)
    return cut


def _plan_sessions(actor: Any, tournament: Tournament, planned: int, **note: int) -> None:
    """Set `sessions_planned`, audited as `tournament.update` with the cut's note."""
    with audited(
        actor=actor,
        action="tournament.update",
        obj=tournament,
        tournament_id=tournament.pk,
        snapshot=partial(tournament_snapshot, tournament),
    ) as audit:
        tournament.sessions_planned = planned
        tournament.save(update_fields=["sessions_planned"])
        audit.note(**note)
