"""The permission matrix: every endpoint x role, with the status each role gets.

Roles (tests/api/conftest.py): anonymous; a player (seated in the game, linked to players[0]);
the referee of another tournament; the referee and the organiser of tournament "open"; a site
admin. Anonymous writes are 403 (session auth is listed first, so DRF answers 403, not 401).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.utils import timezone

from scoring.models import Game
from tests.api.conftest import ROLES, World
from tests.factories import (
    HandFactory,
    PenaltyFactory,
    PlayerFactory,
    RegistrationFactory,
    SessionFactory,
    SignUpFactory,
    TableFactory,
    non_dealer_rons,
    ron,
)
from tournaments.models import OnlineTableLog, Registration, SeatingPlan, Session

pytestmark = pytest.mark.django_db

ALL_200 = (200, 200, 200, 200, 200, 200)
ORGANISERS_ONLY_READ = (403, 403, 403, 403, 200, 200)
REFEREES_READ = (403, 403, 403, 200, 200, 200)


def organisers(code: int) -> tuple[int, ...]:
    return (403, 403, 403, 403, code, code)


def referees(code: int) -> tuple[int, ...]:
    return (403, 403, 403, code, code, code)


def site_admin(code: int) -> tuple[int, ...]:
    return (403, 403, 403, 403, 403, code)


@dataclass(frozen=True)
class Case:
    name: str
    method: str
    url: Callable[[World], str]
    expected: tuple[int, ...]  # in the order of ROLES
    body: Callable[[World], Any] | None = None
    setup: Callable[[World], None] | None = None


def _hand(world: World) -> None:
    HandFactory(game=world.game, number=0, data=ron(winner=1, loser=2, han=2))


def _full_game(world: World) -> None:
    for number, hand in enumerate(non_dealer_rons(8)):
        HandFactory(game=world.game, number=number, data=hand)


def _finished_game(world: World) -> None:
    _full_game(world)
    Game.objects.filter(pk=world.game.pk).update(status=Game.Status.FINISHED)


def _all_played(world: World) -> None:
    _finished_game(world)
    Session.objects.filter(pk=world.session.pk).update(status=Session.Status.CLOSED)


def _online_log(world: World) -> None:
    OnlineTableLog.objects.create(table=world.table, site="tenhou", log_id="fuzz")


def _dropped(world: World) -> None:
    registration = world.tournament.registrations.earliest("id")
    registration.dropped_at = timezone.now()
    registration.drop_reason = "ill"
    registration.save()
    world.extra["dropped"] = registration


def _seated_session(world: World) -> None:
    world.extra["seated"] = SessionFactory(
        tournament=world.tournament, number=2, status=Session.Status.SEATED
    )


def _done_plan(world: World) -> None:
    ids = list(
        Registration.objects.filter(tournament=world.tournament).values_list("pk", flat=True)
    )
    world.extra["plan"] = SeatingPlan.objects.create(
        tournament=world.tournament,
        mode=SeatingPlan.Mode.RANDOM,
        status=SeatingPlan.Status.DONE,
        progress=1.0,
        plan=[[ids]],
        options={"from_session": 2},
    )


def _penalty(world: World) -> None:
    world.extra["penalty"] = PenaltyFactory(tournament=world.tournament, player=world.players[1])


def _referee_call(world: World) -> None:
    from tournaments.services.referee_calls import call_referee

    world.extra["call"], _ = call_referee(actor=None, table=world.table)


def _free_table(world: World) -> None:
    world.extra["table"] = TableFactory(session=world.session, number=2)


def _record(world: World) -> dict[str, Any]:
    return {
        "record": {
            "format": "riichi-game-record/1",
            "ruleset": "ema-2025",
            "players": ["A", "B", "C", "D"],
            "hands": non_dealer_rons(8),
        },
        "players": [PlayerFactory().pk for _ in range(4)],
        "table": world.extra["table"].pk,
    }


def _pending_sign_up(world: World) -> None:
    world.extra["sign_up"] = SignUpFactory(tournament=world.tournament)


def _registered_only_here(world: World) -> None:
    # A player in this tournament alone (no login, no other event): organisers erase them.
    world.extra["erasable"] = RegistrationFactory(
        tournament=world.tournament, player=PlayerFactory()
    )


T = "/api/v1/tournaments/open"
G = "/api/v1/games"

CASES = [
    # ---- public reads ---------------------------------------------------------------------
    Case("players list", "get", lambda w: "/api/v1/players/?search=a", ALL_200),
    Case("player detail", "get", lambda w: f"/api/v1/players/{w.players[1].pk}/", ALL_200),
    Case("clubs list", "get", lambda w: "/api/v1/clubs/", ALL_200),
    Case("club detail", "get", lambda w: "/api/v1/clubs/dragons/", ALL_200),
    Case("club members", "get", lambda w: "/api/v1/clubs/dragons/members/", ALL_200),
    Case("club nights", "get", lambda w: "/api/v1/clubs/dragons/nights/", ALL_200),
    Case("club leagues", "get", lambda w: "/api/v1/clubs/dragons/leagues/", ALL_200),
    Case("tournaments list", "get", lambda w: "/api/v1/tournaments/", ALL_200),
    Case("tournament detail", "get", lambda w: f"{T}/", ALL_200),
    Case("registrations", "get", lambda w: f"{T}/registrations/", ALL_200),
    Case(
        "registration detail",
        "get",
        lambda w: f"/api/v1/registrations/{w.tournament.registrations.earliest('id').pk}/",
        ALL_200,
    ),
    Case("sessions", "get", lambda w: f"{T}/sessions/", ALL_200),
    Case("session detail", "get", lambda w: f"/api/v1/sessions/{w.session.pk}/", ALL_200),
    Case(
        "session tables (where do I sit)",
        "get",
        lambda w: f"/api/v1/sessions/{w.session.pk}/tables/?player={w.players[0].pk}",
        ALL_200,
    ),
    Case("tables", "get", lambda w: "/api/v1/tables/?tournament=open&session=1", ALL_200),
    Case("table detail", "get", lambda w: f"/api/v1/tables/{w.table.pk}/", ALL_200),
    Case("standings", "get", lambda w: f"{T}/standings/", ALL_200),
    Case("standings as CSV", "get", lambda w: f"{T}/standings/?format=csv", ALL_200),
    Case("team standings", "get", lambda w: f"{T}/team-standings/", ALL_200),
    Case("ranking preview", "get", lambda w: f"{T}/ranking-preview/", ALL_200),
    Case("penalties", "get", lambda w: f"{T}/penalties/", ALL_200),
    Case(
        "penalty detail",
        "get",
        lambda w: f"/api/v1/penalties/{w.extra['penalty'].pk}/",
        ALL_200,
        setup=_penalty,
    ),
    Case("games list", "get", lambda w: f"{G}/?tournament=open", ALL_200),
    Case("game detail", "get", lambda w: f"{G}/{w.game.pk}/", ALL_200),
    Case("game hands", "get", lambda w: f"{G}/{w.game.pk}/hands/", ALL_200, setup=_hand),
    Case("game record", "get", lambda w: f"{G}/{w.game.pk}/record/", ALL_200),
    Case(
        "tile evaluation",
        "post",
        lambda w: "/api/v1/tiles/evaluate/",
        ALL_200,
        body=lambda w: {"notation": "234567m234p2355s+1s", "riichi": True, "tsumo": True},
    ),
    # ---- restricted reads -----------------------------------------------------------------
    Case(
        "my table",
        "get",
        lambda w: f"/api/v1/sessions/{w.session.pk}/my-table/",
        (403, 200, 403, 403, 403, 403),
    ),
    Case("staff list", "get", lambda w: f"{T}/staff/", ORGANISERS_ONLY_READ),
    Case("seating plans", "get", lambda w: f"{T}/seating-plans/", ORGANISERS_ONLY_READ),
    Case(
        "seating plan detail",
        "get",
        lambda w: f"/api/v1/seating-plans/{w.extra['plan'].pk}/",
        ORGANISERS_ONLY_READ,
        setup=_done_plan,
    ),
    Case("tournament audit", "get", lambda w: f"{T}/audit/", REFEREES_READ),
    Case("EMA validation report", "get", lambda w: f"{T}/ema-validation/", ORGANISERS_ONLY_READ),
    # The world's game is unfinished: blocked (409) unless forced.
    Case("EMA export (blocked)", "get", lambda w: f"{T}/ema-export/", organisers(409)),
    Case(
        "EMA export (forced, xlsx)",
        "get",
        lambda w: f"{T}/ema-export/?format=xlsx&force=1",
        ORGANISERS_ONLY_READ,
    ),
    Case("tournament backup", "get", lambda w: f"{T}/backup/", ORGANISERS_ONLY_READ),
    Case("game audit", "get", lambda w: f"{G}/{w.game.pk}/audit/", REFEREES_READ),
    # ---- players and clubs ------------------------------------------------------------------
    Case(
        "create player",
        "post",
        lambda w: "/api/v1/players/",
        organisers(201),
        body=lambda w: {"first_name": "Ada", "last_name": "Lovelace", "country": "GB"},
    ),
    Case(
        "update own player profile",
        "patch",
        lambda w: f"/api/v1/players/{w.players[0].pk}/",
        # The tournament's organiser corrects a registered player's details (issue 16.1).
        (403, 200, 403, 403, 200, 200),
        body=lambda w: {"country": "FR"},
    ),
    Case(
        "add club night",
        "post",
        lambda w: "/api/v1/clubs/dragons/nights/",
        site_admin(201),
        body=lambda w: {"date": "2026-04-01"},
    ),
    Case(
        "add league",
        "post",
        lambda w: "/api/v1/clubs/dragons/leagues/",
        site_admin(201),
        body=lambda w: {"name": "Spring", "starts_on": "2026-03-01"},
    ),
    Case(
        "create club game",
        "post",
        lambda w: f"{G}/",
        site_admin(201),
        body=lambda w: {
            "club_night": w.night.pk,
            "players": [s.player_id for s in w.club_game.seats.all()],
        },
    ),
    Case(
        "create club",
        "post",
        lambda w: "/api/v1/clubs/",
        site_admin(201),
        body=lambda w: {"name": "Tigers", "slug": "tigers", "country": "DE"},
    ),
    Case(
        "seat club night",
        "post",
        lambda w: f"/api/v1/clubs/dragons/nights/{w.night.pk}/seat/",
        site_admin(201),
        body=lambda w: {"players": [p.pk for p in w.players]},
    ),
    Case(
        # Anonymous is refused; a signed-in user's import is judged on the log (a club
        # organiser or a player at the table, tests/online), so without a log it is a 400.
        "import online log (no log sent)",
        "post",
        lambda w: "/api/v1/clubs/dragons/online-import/",
        (403, 400, 400, 400, 400, 400),
        body=lambda w: {"players": {}},
    ),
    Case(
        "add club member",
        "post",
        lambda w: "/api/v1/clubs/dragons/members/",
        site_admin(201),
        body=lambda w: {"player": w.players[3].pk},
    ),
    # ---- tournaments ----------------------------------------------------------------------
    Case(
        "create tournament",
        "post",
        lambda w: "/api/v1/tournaments/",
        (403, 201, 201, 201, 201, 201),
        body=lambda w: {
            "name": "Spring Open",
            "slug": "spring-open",
            "starts_on": "2026-04-04",
            "ends_on": "2026-04-05",
        },
    ),
    Case(
        "set status",
        "post",
        lambda w: f"{T}/status/",
        organisers(200),
        body=lambda w: {"status": "registration"},
    ),
    Case(
        "publish results",
        "post",
        lambda w: f"{T}/publish/",
        organisers(200),
        setup=_all_played,
    ),
    Case(
        "add staff",
        "post",
        lambda w: f"{T}/staff/",
        organisers(201),
        body=lambda w: {"user": "player", "role": "referee"},
    ),
    Case(
        "remove staff",
        "delete",
        lambda w: f"{T}/staff/{w.tournament.staff.get(role='referee').pk}/",
        organisers(204),
    ),
    Case(
        "create sessions",
        "post",
        lambda w: f"{T}/sessions/",
        organisers(201),
        body=lambda w: {"count": 3},
    ),
    Case(
        "upload seating plan",
        "post",
        lambda w: f"{T}/seating-plans/upload/",
        organisers(201),
        body=lambda w: {"text": "round,table,east,south,west,north\n1,1,1,2,3,4\n"},
    ),
    Case(
        "reopen session",
        "post",
        lambda w: f"/api/v1/sessions/{w.session.pk}/reopen/",
        organisers(200),
        body=lambda w: {"reason": "a hand was forgotten"},
        setup=_all_played,
    ),
    Case(
        "reinstate player",
        "post",
        lambda w: f"/api/v1/registrations/{w.extra['dropped'].pk}/reinstate/",
        organisers(200),
        body=lambda w: {"reason": "recovered"},
        setup=_dropped,
    ),
    Case(
        "change a registration's team",
        "patch",
        lambda w: f"/api/v1/registrations/{w.tournament.registrations.earliest('id').pk}/",
        organisers(200),
        body=lambda w: {"team": "Dragons"},
    ),
    Case(
        "register player",
        "post",
        lambda w: f"{T}/registrations/",
        organisers(201),
        body=lambda w: {"first_name": "Ada", "last_name": "Lovelace", "ema_number": "04000001"},
    ),
    # Self-registration (issue 35): the list with e-mails is the organisers'; anyone may post,
    # and this running tournament refuses every sign-up alike (tests/api/test_api_signups.py).
    Case("sign-ups list", "get", lambda w: f"{T}/sign-ups/", organisers(200)),
    Case(
        "sign-up detail",
        "get",
        lambda w: f"/api/v1/sign-ups/{w.extra['sign_up'].pk}/",
        ORGANISERS_ONLY_READ,
        setup=_pending_sign_up,
    ),
    Case(
        "approve a sign-up",
        "post",
        lambda w: f"/api/v1/sign-ups/{w.extra['sign_up'].pk}/approve/",
        organisers(200),
        setup=_pending_sign_up,
    ),
    Case(
        "refuse a sign-up",
        "post",
        lambda w: f"/api/v1/sign-ups/{w.extra['sign_up'].pk}/refuse/",
        organisers(200),
        body=lambda w: {"reason": "full"},
        setup=_pending_sign_up,
    ),
    Case(
        "erase a sign-up's data",
        "post",
        lambda w: f"/api/v1/sign-ups/{w.extra['sign_up'].pk}/erase/",
        organisers(200),
        setup=_pending_sign_up,
    ),
    Case(
        "erase a player's data",
        "post",
        lambda w: f"/api/v1/registrations/{w.extra['erasable'].pk}/erase/",
        organisers(200),
        setup=_registered_only_here,
    ),
    Case(
        "sign up",
        "post",
        lambda w: f"{T}/sign-ups/",
        (400,) * 6,
        body=lambda w: {
            "first_name": "Ada",
            "last_name": "Byron",
            "country": "GB",
            "email": "ada@example.org",
            "consent": True,
        },
    ),
    # Referee calls (issue 35.2): the list is the referees'; acknowledging and closing too
    # (tests/web/test_web_referee_calls.py has the call itself, which anyone may make).
    Case("referee calls", "get", lambda w: f"{T}/referee-calls/?open=1", referees(200)),
    Case(
        "call a referee",
        "post",
        lambda w: f"/api/v1/tables/{w.table.pk}/referee-calls/",
        (201,) * 6,
        body=lambda w: {},
    ),
    # Time per table (issue 35.3): referees and organisers.
    Case(
        "extend a table",
        "post",
        lambda w: f"/api/v1/tables/{w.table.pk}/extend/",
        referees(200),
        body=lambda w: {"minutes": 5, "reason": "referee call"},
    ),
    # Online sessions (issue 32.5): a table's log, referees and organisers only (to read
    # too); marking a session online, organisers.
    Case(
        "read a table's online log",
        "get",
        lambda w: f"/api/v1/tables/{w.table.pk}/online-log/",
        REFEREES_READ,
        setup=_online_log,
    ),
    Case(
        "import a table's online log (no log sent)",
        "post",
        lambda w: f"/api/v1/tables/{w.table.pk}/online-log/",
        referees(400),
        body=lambda w: {},
    ),
    Case(
        "mark a session online",
        "patch",
        lambda w: f"/api/v1/sessions/{w.session.pk}/",
        organisers(200),
        body=lambda w: {"online": True},
    ),
    Case(
        "acknowledge a referee call",
        "post",
        lambda w: f"/api/v1/referee-calls/{w.extra['call'].pk}/acknowledge/",
        referees(200),
        setup=_referee_call,
    ),
    Case(
        "close a referee call",
        "post",
        lambda w: f"/api/v1/referee-calls/{w.extra['call'].pk}/close/",
        referees(200),
        setup=_referee_call,
    ),
    Case(
        "import registrations",
        "post",
        lambda w: f"{T}/registrations/import/",
        organisers(201),
        body=lambda w: {"text": "first_name,last_name,ema_number,country\nAda,Byron,,GB\n"},
    ),
    Case(
        "drop player",
        "post",
        lambda w: f"/api/v1/registrations/{w.tournament.registrations.earliest('id').pk}/drop/",
        organisers(200),
        body=lambda w: {"reason": "ill"},
    ),
    Case(
        "disqualify player (EMA 2025 6.12)",
        "post",
        lambda w: (
            f"/api/v1/registrations/{w.tournament.registrations.earliest('id').pk}/disqualify/"
        ),
        organisers(200),
        body=lambda w: {"reason": "cheating"},
    ),
    Case(
        "request seating plan",
        "post",
        lambda w: f"{T}/seating-plans/",
        organisers(202),
        body=lambda w: {"mode": "random", "seed": 3},
    ),
    Case(
        "apply seating plan",
        "post",
        lambda w: f"/api/v1/seating-plans/{w.extra['plan'].pk}/apply/",
        organisers(200),
        body=lambda w: {"from_session": 2},
        setup=_done_plan,
    ),
    Case(
        "start session",
        "post",
        lambda w: f"/api/v1/sessions/{w.extra['seated'].pk}/start/",
        organisers(200),
        setup=_seated_session,
    ),
    Case(
        "close session",
        "post",
        lambda w: f"/api/v1/sessions/{w.session.pk}/close/",
        organisers(200),
        setup=_finished_game,
    ),
    Case(
        "swap seats",
        "post",
        lambda w: f"/api/v1/sessions/{w.session.pk}/swap/",
        organisers(200),
        body=lambda w: {"a": w.players[0].pk, "b": w.players[1].pk},
    ),
    Case(
        "add penalty",
        "post",
        lambda w: f"{T}/penalties/",
        referees(201),
        body=lambda w: {
            "player": w.players[2].pk,
            "kind": "obstruction",
            "reason": "talking",
            "points": 8000,
        },
    ),
    Case(
        "score-sheet penalty for a table (EMA 2025 7.5)",
        "post",
        lambda w: f"{T}/table-penalties/",
        referees(201),
        body=lambda w: {"session": 1, "table": 1, "reason": "sheet unreadable"},
    ),
    Case("cuts (issue 32.2)", "get", lambda w: f"{T}/cut/", ALL_200),
    Case(
        "cut the field (issue 32.2; the world's session 1 is not finished: 400)",
        "post",
        lambda w: f"{T}/cut/",
        organisers(400),
        body=lambda w: {"after_session": 1, "top": 4, "carry_over": True},
    ),
    Case(
        "undo the last cut (issue 32.2; the world has no such cut: 404)",
        "delete",
        lambda w: f"{T}/cut/999999/",
        organisers(404),
    ),
    Case(
        "promote the next player at the cut (issue 32.2; no such cut: 404)",
        "post",
        lambda w: f"{T}/cut/999999/promote/",
        organisers(404),
        body=lambda w: {"replaces": 1},
    ),
    Case(
        "cancel penalty",
        "post",
        lambda w: f"/api/v1/penalties/{w.extra['penalty'].pk}/cancel/",
        referees(200),
        body=lambda w: {"reason": "given in error"},
        setup=_penalty,
    ),
    # ---- games ----------------------------------------------------------------------------
    Case(
        "add hand",
        "post",
        lambda w: f"{G}/{w.game.pk}/hands/",
        referees(201),
        body=lambda w: {"hand": ron(winner=1, loser=2, han=2), "version": 0},
    ),
    Case(
        "correct hand",
        "put",
        lambda w: f"{G}/{w.game.pk}/hands/0/",
        referees(200),
        body=lambda w: {"hand": ron(winner=1, loser=2, han=3), "version": 0, "reason": "typo"},
        setup=_hand,
    ),
    Case(  # tournament games have referees: no seated player confirms (club games do)
        "confirm hand",
        "post",
        lambda w: f"{G}/{w.game.pk}/hands/0/confirm/",
        (403, 403, 403, 403, 403, 403),
        body=lambda w: {"version": 0},
        setup=_hand,
    ),
    Case(  # nor a game's sheet or finish (issue 30.3: club games only)
        "confirm game",
        "post",
        lambda w: f"{G}/{w.game.pk}/confirm/",
        (403, 403, 403, 403, 403, 403),
        body=lambda w: {"version": 0},
    ),
    Case(
        "delete last hand",
        "delete",
        lambda w: f"{G}/{w.game.pk}/hands/0/",
        referees(200),
        body=lambda w: {"version": 0, "reason": "entered twice"},
        setup=_hand,
    ),
    Case(
        "preview hand",
        "post",
        lambda w: f"{G}/{w.game.pk}/preview/",
        referees(200),
        body=lambda w: {"hand": ron(winner=1, loser=2, han=2)},
    ),
    Case(
        "finalize",
        "post",
        lambda w: f"{G}/{w.game.pk}/finalize/",
        referees(200),
        body=lambda w: {"version": 0},
        setup=_full_game,
    ),
    Case(
        "reopen",
        "post",
        lambda w: f"{G}/{w.game.pk}/reopen/",
        referees(200),
        body=lambda w: {"version": 0, "reason": "hand forgotten"},
        setup=_finished_game,
    ),
    Case(
        "final scores",
        "post",
        lambda w: f"{G}/{w.game.pk}/final-scores/",
        referees(200),
        body=lambda w: {"scores": [40000, 30000, 25000, 25000], "version": 0},
    ),
    Case(
        "substitute",
        "post",
        lambda w: f"{G}/{w.game.pk}/substitutes/",
        referees(200),
        body=lambda w: {
            "seat": 2,
            "substitute": PlayerFactory().pk,
            "reason": "ill",
            "from": "start",
            "version": 0,
        },
    ),
    Case(
        "list my API tokens",
        "get",
        lambda w: "/api/v1/auth/tokens/",
        (403, 200, 200, 200, 200, 200),
    ),
    Case(
        "import game record",
        "post",
        lambda w: f"{G}/import/",
        referees(201),
        body=_record,
        setup=_free_table,
    ),
]


@pytest.mark.parametrize(
    ("case", "role", "expected"),
    [
        pytest.param(case, role, code, id=f"{case.name}-{role}")
        for case in CASES
        for role, code in zip(ROLES, case.expected, strict=True)
    ],
)
def test_permission_matrix(world: World, case: Case, role: str, expected: int) -> None:
    if case.setup is not None:
        case.setup(world)
    client = world.client(role)
    body = case.body(world) if case.body is not None else None
    response = getattr(client, case.method)(case.url(world), body, format="json")
    assert response.status_code == expected, getattr(response, "data", response.content)


def test_every_route_is_in_the_matrix() -> None:
    """A new endpoint must be added to the matrix: each API route name is listed here with the
    case that exercises it (auth-token has its own tests in test_api_auth.py)."""
    from config import api_urls

    names = {
        getattr(pattern, "name", None)
        for include in api_urls.urlpatterns
        for pattern in getattr(include, "url_patterns", [])
    } - {None}
    exercised = {
        "player-list",
        "player-detail",
        "club-list",
        "club-detail",
        "club-members",
        "club-nights",
        "club-leagues",
        "club-seat-night",
        "club-online-import",
        "tournament-list",
        "tournament-detail",
        "tournament-status",
        "tournament-staff-detail",
        "tournament-seating-plans-upload",
        "session-reopen",
        "registration-reinstate",
        "tournament-publish",
        "tournament-staff",
        "tournament-registrations",
        "tournament-registrations-import",
        "tournament-sign-ups",
        "sign-up-detail",
        "sign-up-approve",
        "sign-up-refuse",
        "sign-up-erase",
        "registration-erase",
        "tournament-referee-calls",
        "table-referee-calls",
        "table-extend",
        "table-online-log",
        "referee-call-acknowledge",
        "referee-call-close",
        "tournament-sessions",
        "tournament-seating-plans",
        "tournament-penalties",
        "tournament-table-penalties",
        "tournament-cut",
        "tournament-cut-detail",
        "tournament-cut-promote",
        "tournament-standings",
        "tournament-team-standings",
        "tournament-audit",
        "tournament-ema-export",
        "tournament-ema-validation",
        "tournament-ranking-preview",
        "tournament-backup",
        "registration-detail",
        "registration-drop",
        "registration-disqualify",
        "session-detail",
        "session-start",
        "session-close",
        "session-swap",
        "session-tables",
        "session-my-table",
        "table-list",
        "table-detail",
        "seating-plan-detail",
        "seating-plan-apply",
        "penalty-detail",
        "penalty-cancel",
        "game-list",
        "game-detail",
        "game-hands",
        "game-hand-detail",
        "game-hand-confirm",
        "game-confirm",
        "game-preview",
        "game-finalize",
        "game-reopen",
        "game-final-scores",
        "game-substitutes",
        "game-record",
        "game-import",
        "game-audit",
        "tiles-evaluate",
        "auth-token",
        # Each user's own tokens (list, revoke): tests/api/test_api_login_tokens.py.
        "auth-tokens-list",
        "auth-tokens-detail",
    }
    assert names == exercised
