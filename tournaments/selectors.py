"""Reads of tournaments shared by the web pages and the API: who may see what.

The one draft-visibility rule: a tournament in draft is visible to its staff (organisers and
referees of that tournament) and to site admins only; every other status is public, with its
sessions, seating, games, penalties and standings. Club games are public. The web pages
(`tournaments/views`) and the API (the tournament view sets) both read through these
functions, so the two cannot differ; games are read through scoring.selectors.visible_games,
which asks TournamentGamePolicy.visible (built on visible_tournaments here).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db.models import Case, F, FilteredRelation, Q, QuerySet, Value, When

from core import names
from core.errors import ValidationFailed
from core.models import Player
from core.roles import is_site_admin
from scoring.engine import load_ruleset
from scoring.models import Game, GameSeat
from tournaments import roles
from tournaments.models import (
    Cut,
    OnlineName,
    OnlineTableLog,
    Penalty,
    Registration,
    Seat,
    SeatingPlan,
    Session,
    StaffRole,
    StandingRow,
    Table,
    Tournament,
)
from tournaments.roster import Person, RosterSeat, RosterTable, SessionRoster
from tournaments.seating import SeatingError, quality, session_quality

HIDDEN = (Tournament.Status.DRAFT,)


def _staffed(user: Any) -> QuerySet[Tournament, Any]:
    return Tournament.objects.filter(staff__user_id=user.pk).values("pk")


def visible_tournaments(user: Any) -> QuerySet[Tournament]:
    """The tournaments `user` (maybe anonymous or None) may read."""
    tournaments = Tournament.objects.all()
    if is_site_admin(user):
        return tournaments
    public = ~Q(status__in=HIDDEN)
    if user is not None and user.is_authenticated:
        return tournaments.filter(public | Q(pk__in=_staffed(user)))
    return tournaments.filter(public)


def visible_tournament_games(user: Any) -> Q:
    """The tournament games `user` may read, as a condition on Game: those of the tournaments
    they may see (`visible_tournaments`), except that a game of a session whose results are
    hidden (issue 32.3: from `Tournament.standings_hidden_from` on, until the results are
    published) is its table's players' (seated by the plan or sitting at the game), the
    tournament's staff's and site admins' only. TournamentGamePolicy.visible answers with it."""
    tournament = "table__session__tournament"
    visible = Q(**{f"{tournament}__in": visible_tournaments(user).values("pk")})
    if is_site_admin(user):
        return visible
    shown = (
        Q(**{f"{tournament}__standings_hidden_from__isnull": True})
        | Q(**{f"{tournament}__status": Tournament.Status.PUBLISHED})
        | Q(table__session__number__lt=F(f"{tournament}__standings_hidden_from"))
    )
    if user is not None and user.is_authenticated:
        shown |= (
            Q(**{f"{tournament}__in": _staffed(user)})
            | Q(pk__in=GameSeat.objects.filter(player__user_id=user.pk).values("game_id"))
            | Q(table__in=Seat.objects.filter(player__user_id=user.pk).values("table_id"))
        )
    return visible & shown


def can_see_tournament(user: Any, tournament: Tournament) -> bool:
    """The rule of `visible_tournaments` for one tournament already loaded."""
    return may_see(user, tournament.pk, tournament.status)


def may_see(user: Any, tournament_id: int, status: str) -> bool:
    """The rule of `visible_tournaments` from a tournament's id and status alone."""
    # Staff = organisers and referees (roles.is_referee counts both, and site admins).
    return status not in HIDDEN or roles.is_referee(user, tournament_id)


# ---------------------------------------------------------------- sessions

# The API's wording (its answers are English); the console passes its own, translated text.
NO_SUCH_SESSION = "No session with this number."


def session_by_number(
    tournament: Tournament, number: int, *, missing: str = NO_SUCH_SESSION
) -> Session:
    """The tournament's session `number`, as a request's `session` field names it; else that
    field's error (a 400 on the API, the field's error on a console form)."""
    session = Session.objects.filter(tournament=tournament, number=number).first()
    if session is None:
        raise ValidationFailed(missing, field="session")
    return session


def session_tables(session: Session) -> list[dict[str, Any]]:
    """The session's tables in order, each with its seats (and players) and its game: two
    queries however many tables (the console polled this with one query per table)."""
    rows: list[dict[str, Any]] = []
    tables = (
        session.tables.order_by("number")
        .select_related("game")
        .defer("game__summary")
        .prefetch_related("seats__player")
    )
    for table in tables:
        rows.append({"table": table, "seats": list(table.seats.all()), "game": table.game})
    return rows


def session_table(session: Session, number: int) -> Table | None:
    """The session's table `number` (None: no such table)."""
    return session.tables.filter(number=number).select_related("game").first()


def online_logs(session: Session) -> dict[int, OnlineTableLog]:
    """The online logs the session's tables were imported from, by table id (issue 32.5)."""
    return {log.table_id: log for log in OnlineTableLog.objects.filter(table__session=session)}


def online_names(tournament: Tournament | int) -> dict[int, str]:
    """Each player's name on the online sites as last remembered for the tournament (the
    console's upload form offers it), by player id."""
    tid = tournament if isinstance(tournament, int) else tournament.pk
    names = OnlineName.objects.filter(tournament_id=tid).order_by("updated_at", "pk")
    return dict(names.values_list("registration__player_id", "name"))


def active_registrations(tournament: Tournament | int) -> list[Registration]:
    """Players still in the tournament, in a stable order (plans index into this list)."""
    tid = tournament if isinstance(tournament, int) else tournament.pk
    return list(
        Registration.objects.filter(tournament_id=tid, dropped_at__isnull=True)
        .select_related("player")
        .order_by("id")
    )


def table_size(tournament: Tournament) -> int:
    """Seats per table under the tournament's rules (3 for WDMC 2019 section 5)."""

    return load_ruleset(tournament.ruleset, tournament.rule_overrides or None).players


# ---------------------------------------------------------------- the organiser console


def organiser_session(tournament: Tournament, number: int) -> Session | None:
    """The tournament's session `number` as a console URL names it (None: not found)."""
    return Session.objects.filter(tournament=tournament, number=number).first()


def tournament_registration(tournament: Tournament, registration_id: int) -> Registration | None:
    """One of the tournament's registrations, with its player (None: not the tournament's)."""
    return (
        Registration.objects.select_related("player")
        .filter(pk=registration_id, tournament=tournament)
        .first()
    )


def tournament_staff_role(tournament: Tournament, staff_id: int) -> StaffRole | None:
    return (
        StaffRole.objects.select_related("user").filter(pk=staff_id, tournament=tournament).first()
    )


def tournament_penalty(tournament: Tournament, penalty_id: int) -> Penalty | None:
    return Penalty.objects.filter(pk=penalty_id, tournament=tournament).first()


def tournament_seating_plan(tournament: Tournament, plan_id: int) -> SeatingPlan | None:
    return SeatingPlan.objects.filter(pk=plan_id, tournament=tournament).first()


def tournament_sessions(tournament: Tournament) -> list[Session]:
    return list(tournament.sessions.all())


def active_registration_count(tournament: Tournament) -> int:
    return tournament.registrations.filter(dropped_at__isnull=True).count()


def results_ready(tournament: Tournament, sessions: list[Session]) -> bool:
    """Publishing is the next step: every session closed and the standings computed."""
    return (
        tournament.status != Tournament.Status.PUBLISHED
        and bool(sessions)
        and all(s.status == Session.Status.CLOSED for s in sessions)
        and StandingRow.objects.filter(tournament=tournament).exists()
    )


def registration_numbers(tournament: Tournament) -> dict[int, int]:
    """Registration id -> the player's number in seating plans (1-based, players and fill-ins
    still in the tournament in registration order, as `planned_registrations` lists them;
    reserves have none: plans never seat them, issue 31)."""
    ids = (
        Registration.objects.filter(tournament=tournament, dropped_at__isnull=True)
        .exclude(role=Registration.Role.RESERVE)
        .order_by("id")
        .values_list("id", flat=True)
    )
    return {rid: n for n, rid in enumerate(ids, start=1)}


def registration_rows(tournament: Tournament, query: str = "") -> list[dict[str, Any]]:
    """The registrations page: dropped last, then substitutes, by name; those matching `query`
    (name, EMA number or club, core.names.matches), each with its number in seating plans."""
    rows = list(
        tournament.registrations.select_related("player", "team").order_by(
            "dropped_at", "is_substitute", "player__last_name", "player__first_name"
        )
    )
    # Issue 33: by name ignoring case and accents ("de Vries" before "Wójcik"); the sort is
    # stable, so dropped players stay last and substitutes after the players.
    rows.sort(key=lambda r: (names.fold(r.player.last_name), names.fold(r.player.first_name)))
    rows.sort(key=lambda r: (r.dropped_at is not None, r.dropped_at or 0, r.is_substitute))
    if query:
        rows = [
            r
            for r in rows
            if names.matches(query, str(r.player), r.player.ema_number or "", r.club_name)
        ]
    numbers = registration_numbers(tournament)
    return [{"registration": r, "number": numbers.get(r.pk)} for r in rows]


def team_names(tournament: Tournament) -> list[str]:
    """The team names a registration form offers (issue 32.1); none unless a team event."""
    if not tournament.teams_enabled:
        return []
    return list(tournament.teams.order_by("name").values_list("name", flat=True))


def staff_rows(tournament: Tournament) -> QuerySet[StaffRole]:
    return tournament.staff.select_related("user").order_by("role", "user__username")


def penalty_rows(tournament: Tournament) -> QuerySet[Penalty]:
    """The console's penalties, newest first."""
    return tournament.penalties.select_related("player", "session").order_by("-created_at")


def unfinished_games(tables: list[dict[str, Any]]) -> int:
    """How many of `session_tables`' games are not finished yet."""
    return sum(1 for t in tables if t["game"] and t["game"].status != Game.Status.FINISHED)


def recent_seating_plans(tournament: Tournament) -> list[tuple[int, SeatingPlan]]:
    """The tournament's last ten seating plans, newest first, each with its number."""
    return list(enumerate(tournament.seating_plans.order_by("pk"), start=1))[::-1][:10]


def seating_plan_number(plan: SeatingPlan) -> int:
    """The plan's number within its tournament (1 = the tournament's first plan)."""
    return SeatingPlan.objects.filter(tournament_id=plan.tournament_id, pk__lte=plan.pk).count()


def seating_by_session(tournament: Tournament) -> dict[int, list[list[int]]]:
    """Session number -> its tables as player ids in seat order (seated sessions only)."""
    seating: dict[int, list[list[int]]] = {}
    sessions = tournament.sessions.order_by("number").prefetch_related("tables__seats")
    for session in sessions:
        tables = []
        for table in sorted(session.tables.all(), key=lambda t: t.number):
            seats = sorted(table.seats.all(), key=lambda s: s.wind)
            tables.append([s.player_id for s in seats])
        if tables:
            seating[session.number] = tables
    return seating


def quality_of(seating: dict[int, list[list[int]]]) -> dict[str, Any] | None:
    """The quality report (tournaments.seating.quality) of these sessions, or None when there
    are none or the seating is irregular (players dropped or added between sessions)."""
    index: dict[int, int] = {}
    plan = [
        [[index.setdefault(p, len(index)) for p in table] for table in seating[n]]
        for n in sorted(seating)
    ]
    if not plan:
        return None
    try:
        return quality(plan).to_dict()
    except SeatingError:
        # Players dropped or added between sessions (issue 31): measured over each one's
        # own sessions, as the plans measure a re-seating with history.
        try:
            return session_quality([seating[n] for n in sorted(seating)]).to_dict()
        except SeatingError:
            return None


def seated_quality(tournament: Tournament) -> dict[str, Any] | None:
    """The quality report of the sessions seated so far, with `substitutes`: the seats a
    substitute plays (EMA 2025 7.3; the seating keeps the registered player, issue 31)."""
    report = quality_of(seating_by_session(tournament))
    if report is not None:
        report["substitutes"] = sum(
            len(subs or [])
            for subs in Game.objects.filter(table__session__tournament_id=tournament.pk)
            .exclude(substitutes=[])
            .values_list("substitutes", flat=True)
        )
    return report


def plan_effect(plan: SeatingPlan, start: int) -> dict[str, Any]:
    """What applying `plan` from session `start` does to the seating: the seated sessions it
    replaces, and the quality of the whole seating before and after."""
    before = seating_by_session(plan.tournament)
    players = dict(
        Registration.objects.filter(tournament_id=plan.tournament_id).values_list("pk", "player_id")
    )
    after = dict(before)
    numbers = [start + offset for offset in range(len(plan.plan or []))]
    for number, round_tables in zip(numbers, plan.plan or [], strict=False):
        after[number] = [[players.get(rid, -rid) for rid in table] for table in round_tables]
    return {
        "replaced": [n for n in numbers if n in before],
        "kept_later": [n for n in sorted(before) if n > max(numbers, default=0)],
        "before": quality_of(before),
        "after": quality_of(after),
    }


def plan_tables(plan: SeatingPlan, ranked: str) -> list[list[list[str]]]:
    """The plan's registration ids as player names: rounds -> tables -> seats. Swiss plans
    seat by standings: each name is `ranked` % {name, rank, points} (the page's words)."""
    if not plan.plan:
        return []
    registrations = Registration.objects.filter(tournament_id=plan.tournament_id).select_related(
        "player"
    )
    names_ = {r.pk: str(r.player) for r in registrations}
    at_generation = (plan.basis or {}).get("standings", {}).get("ranks")
    if plan.mode == SeatingPlan.Mode.SWISS and at_generation is not None:
        # Issue 31: the ranks the plan was made from, not today's.
        for entry in at_generation:
            if entry["registration"] in names_:
                names_[entry["registration"]] = ranked % {
                    "name": names_[entry["registration"]],
                    "rank": entry["rank"],
                    "points": entry["points"],
                }
    elif plan.mode == SeatingPlan.Mode.SWISS:
        rows = {
            row.player_id: row
            for row in StandingRow.objects.filter(tournament_id=plan.tournament_id)
        }
        for r in registrations:
            row = rows.get(r.player_id)
            if row is not None:
                names_[r.pk] = ranked % {
                    "name": names_[r.pk],
                    "rank": row.rank if row.rank is not None else "-",
                    "points": row.total,
                }
    return [
        [[names_.get(rid, f"#{rid}") for rid in table] for table in round_] for round_ in plan.plan
    ]


# ---------------------------------------------------------------- the session roster


def _person(
    player_id: int,
    players: dict[int, tuple[str, str | None]],
    registrations: Mapping[int, Mapping[str, Any]],
) -> Person:
    name, ema = players.get(player_id, ("?", None))
    reg = registrations.get(player_id)
    if reg is None:  # played without a registration (an old record): a substitute's role
        return Person(player_id, name, ema, Registration.Role.RESERVE)
    return Person(
        player_id,
        name,
        ema,
        reg["role"],
        dropped=reg["dropped_at"] is not None,
        disqualified=reg["disqualified_at"] is not None,
        registration_id=reg["id"],
    )


def session_roster(session: Session) -> SessionRoster:
    """Who sits where in the session now (tournaments.roster, issue 31): per table and seat the
    registered player, the substitute from the start or from hand n and whom they replace
    (EMA 2025 7.3), dropped and disqualified players' seats flagged; and the late arrivals
    without a seat. Five queries however many tables; every reader of seats goes through it."""
    # The session's state as stored now (a caller may hold a copy from before a service ran).
    status, seated_at = (
        Session.objects.filter(pk=session.pk).values_list("status", "seated_at").get()
    )
    tables = list(
        Table.objects.filter(session_id=session.pk)
        .order_by("number")
        .values_list("id", "number", "game_id")
    )
    seats = list(
        Seat.objects.filter(table__session_id=session.pk)
        .order_by("table__number", "wind")
        .values_list("table_id", "wind", "player_id")
    )
    game_ids = [g for _, _, g in tables if g is not None]
    substitutes: dict[int, list[dict[str, Any]]] = {
        gid: list(subs or [])
        for gid, subs in Game.objects.filter(pk__in=game_ids)
        .exclude(substitutes=[])
        .values_list("id", "substitutes")
    }
    # The tournament's registrations and anyone seated or substituting without one (an
    # imported record), in one query: the count does not depend on who is registered.
    involved = {pid for _, _, pid in seats} | {
        int(s["player_id"]) for subs in substitutes.values() for s in subs if s.get("player_id")
    }
    registrations: dict[int, dict[str, Any]] = {}
    players: dict[int, tuple[str, str | None]] = {}
    for person in (
        Player.objects.annotate(
            reg=FilteredRelation(
                "registrations",
                condition=Q(registrations__tournament_id=session.tournament_id),
            )
        )
        .filter(Q(reg__id__isnull=False) | Q(pk__in=involved))
        .values(
            "id",
            "first_name",
            "last_name",
            "ema_number",
            "reg__id",
            "reg__role",
            "reg__dropped_at",
            "reg__disqualified_at",
            "reg__created_at",
        )
    ):
        pid = person["id"]
        players[pid] = (
            f"{person['first_name']} {person['last_name']}".strip(),
            person["ema_number"],
        )
        if person["reg__id"] is not None:
            registrations[pid] = {
                "id": person["reg__id"],
                "player_id": pid,
                "role": person["reg__role"],
                "dropped_at": person["reg__dropped_at"],
                "disqualified_at": person["reg__disqualified_at"],
                "created_at": person["reg__created_at"],
            }
    started = status in (Session.Status.RUNNING, Session.Status.CLOSED)
    by_table: dict[int, list[tuple[int, int]]] = {}
    for table_id, wind, player_id in seats:
        by_table.setdefault(table_id, []).append((wind, player_id))
    out_tables = []
    seated: set[int] = set()
    for table_id, number, game_id in tables:
        subs = {int(s.get("seat", -1)): s for s in substitutes.get(game_id or 0, [])}
        row = []
        for wind, player_id in by_table.get(table_id, []):
            registered = _person(player_id, players, registrations)
            sub = subs.get(wind)
            sitter = registered
            if sub is not None and sub.get("player_id") is not None:
                sitter = _person(int(sub["player_id"]), players, registrations)
            seated |= {registered.id, sitter.id}
            row.append(
                RosterSeat(
                    table=number,
                    table_id=table_id,
                    wind=wind,
                    registered=registered,
                    player=sitter,
                    substitute_from=str(sub.get("from") or "start") if sub is not None else None,
                    from_hand=sub.get("from_hand") if sub is not None else None,
                    started=started,
                )
            )
        out_tables.append(RosterTable(number, table_id, game_id, row))
    unseated = []
    if status == Session.Status.SEATED and seated_at is not None:
        for pid, reg in registrations.items():
            if (
                reg["role"] != Registration.Role.RESERVE
                and reg["dropped_at"] is None
                and reg["created_at"] > seated_at
                and pid not in seated
            ):
                unseated.append(_person(pid, players, registrations))
    return SessionRoster(session.pk, session.number, status, out_tables, unseated)


def substitute_candidates(
    session: Session, roster: SessionRoster | None = None
) -> QuerySet[Player]:
    """Whom the substitute picker offers for a seat of `session` (issue 31): reserves first,
    then fill-ins and players not seated in that session (as planned or as a substitute);
    never someone dropped or disqualified. A page that has read the roster passes it."""
    if roster is None:
        roster = session_roster(session)
    taken = {s.player.id for s in roster.seats()} | {s.registered.id for s in roster.seats()}
    order = Case(
        When(registrations__role=Registration.Role.RESERVE, then=Value(0)),
        When(registrations__role=Registration.Role.FILL_IN, then=Value(1)),
        default=Value(2),
    )
    return (
        Player.objects.filter(
            registrations__tournament_id=session.tournament_id,
            registrations__dropped_at__isnull=True,
            registrations__disqualified_at__isnull=True,
        )
        .exclude(pk__in=taken)
        .annotate(picker_order=order)
        .order_by("picker_order", "last_name", "first_name")
    )


def cut_in_force(tournament: Tournament | int) -> Cut | None:
    """The tournament's last cut (issue 32.2), or None."""
    tid = tournament if isinstance(tournament, int) else tournament.pk
    return Cut.objects.filter(tournament_id=tid).order_by("-after_session").first()


def planned_registrations(tournament: Tournament | int) -> list[Registration]:
    """Whom plans seat (random, Swiss, uploaded): players and fill-ins still in the
    tournament, in a stable order (plans index into this list); reserves are never planned
    (issue 31). After a cut, the players it kept only (issue 32.2)."""
    planned = [r for r in active_registrations(tournament) if r.role != Registration.Role.RESERVE]
    cut = cut_in_force(tournament)
    if cut is not None:
        kept = set(cut.qualified_ids)
        planned = [r for r in planned if r.player_id in kept]
    return planned
