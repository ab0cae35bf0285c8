"""Build a requested seating plan from the tournament's rows (the worker's half of
request_seating_plan; the task tournaments.services.tasks.generate_seating_plan wraps it).

Both modes see the sessions before ``from_session`` as history (issue 17.4): tables in seat
order, as registration ids, dropped players included, so a re-plan from session k avoids the
pairs of sessions 1..k-1 and the quality report covers the whole tournament. Tables hold 4
players, or 3 under three-player rules (WDMC 2019 5.1). Swiss seats the next session from the
standings with ``tournaments.seating.swiss_session``, the function ``manage.py seating_swiss``
serves; groups (``separate_by``) and substitutes are kept apart there as a hard rule. In a
team event (issue 32.1) each team is a group in every mode and every session of the plan.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from tournaments import seating
from tournaments.models import (
    Registration,
    Seat,
    SeatingPlan,
    Session,
    StandingRow,
    Tournament,
)
from tournaments.seating.finals import set_winds, tables_by_standing
from tournaments.selectors import (
    active_registrations,
    cut_in_force,
    planned_registrations,
    table_size,
)

SUBSTITUTE = "\x00substitute"  # a group label no club or country can have
TEAM = "\x00team:"  # a team's group label: the team's id after it (no club or country's)


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


def seating_groups(
    registrations: list[Registration], separate_by: str | None, *, teams: bool = False
) -> dict[int, str]:
    """Registration id -> group label for the seating: the club or country (`separate_by`);
    with `teams` (a team event, issue 32.1) a team member's team, whatever `separate_by` says;
    fill-ins form a group of their own. Players without a label are in no group."""
    labels: dict[int, str] = {}
    for r in registrations:
        label = None
        if separate_by == "club":
            label = r.club_name or None
        elif separate_by == "country":
            label = r.player.country or None
        if teams and r.team_id is not None:
            label = f"{TEAM}{r.team_id}"  # team mates never share a table where avoidable
        if r.role == Registration.Role.FILL_IN:
            label = SUBSTITUTE  # fill-ins never share a table (issue 17.3)
        if label:
            labels[r.pk] = label
    return labels


def _plural(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def field_counts(tournament_id: int) -> dict[str, int]:
    """Whom a plan seats (players and fill-ins) and whom it leaves out (reserves), issue 31."""
    active = active_registrations(tournament_id)
    if cut_in_force(tournament_id) is not None:
        # Issue 32.2: after a cut plans seat the players it kept, and no one else.
        planned = {r.pk for r in planned_registrations(tournament_id)}
        active = [r for r in active if r.pk in planned or r.role == Registration.Role.RESERVE]
    return {
        "players": sum(r.role == Registration.Role.PLAYER for r in active),
        "fill_ins": sum(r.role == Registration.Role.FILL_IN for r in active),
        "reserves": sum(r.role == Registration.Role.RESERVE for r in active),
    }


def field_text(counts: dict[str, int]) -> str:
    """ "14 players and 2 fill-ins (2 reserves on standby, not seated by plans)"."""
    text = (
        f"{_plural(counts['players'], 'player', 'players')} and "
        f"{_plural(counts['fill_ins'], 'fill-in', 'fill-ins')}"
    )
    if counts.get("reserves"):
        text += (
            f" ({_plural(counts['reserves'], 'reserve', 'reserves')} on standby, not seated "
            "by plans)"
        )
    return text


def check_field(counts: dict[str, int], size: int) -> None:
    """Plans seat players and fill-ins only; a count tables cannot hold is refused saying how
    many of each there are (SeatingError, as tournaments.seating raises it)."""
    seated = counts["players"] + counts["fill_ins"]
    if seated < size:
        raise seating.SeatingError(
            f"{field_text(counts)} cannot fill a table: at least {size} are needed"
        )
    add = -seated % size
    if add:
        remove = size - add
        raise seating.SeatingError(
            f"{field_text(counts)} ({seated}) cannot be seated at tables of {size}: add "
            f"{_plural(add, 'fill-in', 'fill-ins')} (substitutes who play every session; to "
            f"{seated + add}) or remove {remove} players or fill-ins (to {seated - remove})"
        )


def swiss_standings(tournament_id: int) -> dict[str, Any]:
    """The standings a Swiss session is seated from (issue 31): those of the closed sessions.
    Games of a session still open are taken out of the totals; which sessions were counted
    and which were not is kept with the plan, with each ranked player's rank then."""
    sessions = dict(
        Session.objects.filter(tournament_id=tournament_id).values_list("number", "status")
    )
    closed = sorted(n for n, status in sessions.items() if status == Session.Status.CLOSED)
    open_ = sorted(n for n, status in sessions.items() if status in (Session.Status.RUNNING,))
    points: dict[int, float] = {}
    for player_id, total, per_session in StandingRow.objects.filter(
        tournament_id=tournament_id
    ).values_list("player_id", "total", "per_session"):
        not_closed = sum(
            int(e.get("result") or 0)
            for e in per_session or []
            if e.get("session") not in closed and not e.get("as_substitute")
        )
        points[player_id] = float(total - not_closed)
    return {"closed_sessions": closed, "open_sessions": open_, "points": points}


def _plan_in_force(
    plan: SeatingPlan, history: list[list[list[Any]]], players: list[int], start: int
) -> list[list[list[int]]]:
    """A re-plan from session `start` (issue 34): the rounds the latest earlier random or
    uploaded plan had for sessions `start`.., if sessions before it were seated as that plan
    said, with players who left replaced by the newcomers (registration order). Empty when
    there is no such plan or the field changed size: the search then seats the sessions."""
    earlier = SeatingPlan.objects.filter(
        tournament_id=plan.tournament_id,
        pk__lt=plan.pk,
        status=SeatingPlan.Status.DONE,
        mode__in=(SeatingPlan.Mode.RANDOM, SeatingPlan.Mode.UPLOADED),
    ).order_by("-pk")
    for old in earlier[:5]:
        first = (old.options or {}).get("from_session", 1)
        rounds = old.plan or []
        if not isinstance(first, int) or not first <= start < first + len(rounds):
            continue
        played = history[first - 1 : start - 1]
        planned = rounds[: start - first]
        if len(played) != len(planned) or any(
            {frozenset(t) for t in a} != {frozenset(t) for t in b}
            for a, b in zip(played, planned, strict=True)
        ):
            continue
        rest = rounds[start - first :]
        active = set(players)
        seated = {p for rnd in rest for t in rnd for p in t}
        left = sorted({p for p in seated if p not in active})
        newcomers = [p for p in players if p not in seated]
        if len(left) != len(newcomers):
            return []
        instead = dict(zip(left, newcomers, strict=True))
        return [[[instead.get(p, p) for p in t] for t in rnd] for rnd in rest]
    return []


def final_tables(
    tournament: Tournament,
    registrations: list[Registration],
    *,
    mode: str,
    seed: int,
    before: int,
    groups: dict[int, str] | None = None,
) -> list[list[int]]:
    """The next session's tables after a cut (issue 32.2), as registration ids: by standing
    (1-4 at table 1, 5-8 at table 2, ...) or Swiss among `registrations`; within each table
    the winds by standing (best placed East) or drawn, as the last cut says (by standing when
    there is none)."""
    tournament_id = tournament.pk
    points = swiss_standings(tournament_id)["points"]
    rank = dict(
        StandingRow.objects.filter(tournament_id=tournament_id).values_list("player_id", "rank")
    )
    cut = cut_in_force(tournament_id)
    # Players level now (all of them, before a restarted stage's first game) go in their order
    # at the cut.
    at_cut = {int(o["player"]): i for i, o in enumerate(cut.order)} if cut else {}
    ordered = sorted(
        registrations,
        key=lambda r: (
            rank.get(r.player_id) or 10**9,
            -points.get(r.player_id, 0.0),
            at_cut.get(r.player_id, 10**9),
            r.pk,
        ),
    )
    ids = [r.pk for r in ordered]
    if mode == "swiss":
        by_id = {r.pk: r for r in registrations}
        tables = seating.swiss_session(
            players=ids,
            points={pk: float(points.get(by_id[pk].player_id, 0.0)) for pk in ids},
            history=_history(tournament_id, before),
            seed=seed,
            groups=groups,
            table_size=table_size(tournament),
        )
    else:
        tables = tables_by_standing(ids, table_size(tournament), groups=groups)
    drawn = cut is not None and cut.winds == cut.Winds.DRAWN
    position = {pk: i for i, pk in enumerate(ids)}
    return set_winds(tables, position, drawn=drawn, seed=seed)


def build_plan_rounds(
    plan: SeatingPlan, progress: Callable[[float], None] | None = None
) -> tuple[list[list[list[int]]], dict[str, Any]]:
    """The plan's rounds as registration ids and the quality of the whole tournament with
    them. Raises tournaments.seating.SeatingError for a field tables cannot hold."""
    tournament = plan.tournament
    # Plans seat players and fill-ins; reserves only ever sit in place of someone (issue 31).
    registrations = planned_registrations(tournament.pk)
    options = plan.options or {}
    size = table_size(tournament)
    check_field(field_counts(tournament.pk), size)
    history = _history(tournament.pk, options.get("from_session", 1))
    players = [r.pk for r in registrations]
    groups = seating_groups(
        registrations, options.get("separate_by"), teams=tournament.teams_enabled
    )
    if plan.mode == SeatingPlan.Mode.STANDING:
        tables = final_tables(
            tournament,
            registrations,
            mode="standing",
            seed=plan.seed,
            before=options.get("from_session", 1),
            groups=groups,
        )
        report = seating.session_quality([*history, tables], groups=groups or None)
        return [tables], report.to_dict()
    if plan.mode == SeatingPlan.Mode.SWISS and cut_in_force(tournament.pk) is not None:
        tables = final_tables(
            tournament,
            registrations,
            mode="swiss",
            seed=plan.seed,
            before=options.get("from_session", 1),
            groups=groups,
        )
        report = seating.session_quality([*history, tables], groups=groups or None)
        return [tables], report.to_dict()
    if plan.mode == SeatingPlan.Mode.SWISS:
        total = swiss_standings(tournament.pk)["points"]
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
    if labels and any(label.startswith(TEAM) for label in groups.values()):
        separate = rounds_wanted  # teams are kept apart in every session (issue 32.1)
    extra: dict[str, Any] = {}
    if options.get("time_budget"):
        extra["time_budget"] = float(options["time_budget"])
    # After a drop or a late arrival the plan in force goes on, newcomers in the seats of those
    # who left, so a design's remaining sessions keep no repeat (the search repairs the rest).
    ahead = _plan_in_force(plan, history, players, options.get("from_session", 1))
    if ahead:
        extra["continue_from"] = [[[index[p] for p in t] for t in rnd] for rnd in ahead]
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


def plan_basis(plan: SeatingPlan) -> dict[str, Any]:
    """What the plan was made from (SeatingPlan.basis, issue 31): how many players and
    fill-ins it seats and the reserves it leaves out; for Swiss the standings it used (closed
    sessions; open ones not counted) and each player's rank and points then."""
    basis: dict[str, Any] = {"field": field_counts(plan.tournament_id)}
    if plan.mode != SeatingPlan.Mode.SWISS:
        return basis
    used = swiss_standings(plan.tournament_id)
    points = used["points"]
    ranked = [
        r
        for r in planned_registrations(plan.tournament_id)
        if r.role == Registration.Role.PLAYER and r.disqualified_at is None
    ]
    ranked.sort(key=lambda r: (-points.get(r.player_id, 0.0), r.pk))
    ranks: list[dict[str, Any]] = []
    for i, r in enumerate(ranked):
        value = points.get(r.player_id, 0.0)
        same = i and value == points.get(ranked[i - 1].player_id, 0.0)
        rank = ranks[-1]["rank"] if same else i + 1
        ranks.append(
            {
                "registration": r.pk,
                "player": r.player_id,
                "name": str(r.player),
                "rank": rank,
                "points": int(value),
            }
        )
    basis["standings"] = {
        "closed_sessions": used["closed_sessions"],
        "open_sessions": used["open_sessions"],
        "ranks": ranks,
    }
    return basis


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
        status=SeatingPlan.Status.DONE,
        progress=1.0,
        plan=rounds,
        quality=quality,
        basis=plan_basis(plan),
    )
    return {"status": SeatingPlan.Status.DONE}
