"""Issue 16 (finding 9): a draft tournament is not found by anyone who may not see it.

The outside probe found that `/t/<draft>/results/` and the console answered 403 for a draft's
slug and 404 for a slug that does not exist, so drafts could be discovered by guessing. Now
every page and API path of a tournament, its sessions, registrations, penalties, seating plans,
tables and games answers a person who may not see the draft (tournaments.selectors: its staff
and site admins only) exactly as it answers for a tournament or object that does not exist: 404
for a logged-in person (anonymous visitors of a page behind a login are sent to log in, as for
any slug). The URLs are enumerated from the URL configuration, so a new path is covered (or this
test names it) the day it is added.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from scoring.services import enter_hand
from tests.factories import (
    GameFactory,
    PenaltyFactory,
    PlayerFactory,
    RegistrationFactory,
    SessionFactory,
    SignUpFactory,
    StaffRoleFactory,
    TableFactory,
    TournamentFactory,
    UserFactory,
    ron,
)
from tournaments.models import RefereeCall, SeatingPlan, Session, StaffRole, Tournament

pytestmark = pytest.mark.django_db

MISSING_ID = 987654
MISSING_SLUG = "no-such-tournament"

# Paths that name no tournament, session, table, game or registration (or a club's).
NOT_TOURNAMENT_PATHS = re.compile(
    r"^(t/$|t/new/$|games/(referee|sw\.js|manifest|offline)|api/v1/(\^)?(tournaments/\$|tables/\$"
    r"|games/\$|games/import/|tiles/|auth/|players/|clubs/)|clubs/)"
)


@dataclass(frozen=True)
class Route:
    name: str
    route: str
    params: tuple[str, ...]


def _routes() -> Iterator[Route]:
    def walk(patterns: list[Any], prefix: str, namespace: str) -> Iterator[Route]:
        for p in patterns:
            if isinstance(p, URLResolver):
                ns = f"{namespace}{p.namespace}:" if p.namespace else namespace
                yield from walk(p.url_patterns, prefix + str(p.pattern), ns)
            elif isinstance(p, URLPattern) and p.name:
                route = prefix + str(p.pattern)
                params = tuple(p.pattern.regex.groupindex)
                yield Route(f"{namespace}{p.name}", route, params)

    for route in walk(get_resolver().url_patterns, "", ""):
        in_scope = route.route.startswith(("t/", "games/", "api/v1/")) and route.params
        if in_scope and not NOT_TOURNAMENT_PATHS.match(route.route):
            yield route


ROUTES = sorted(set(_routes()), key=lambda r: r.route)


@pytest.fixture
def draft(db: Any) -> dict[str, Any]:
    tournament = TournamentFactory(slug="secret-draft", status=Tournament.Status.DRAFT)
    session = SessionFactory(tournament=tournament, number=1, status=Session.Status.RUNNING)
    table = TableFactory(session=session, number=1)
    players = [PlayerFactory() for _ in range(4)]
    registrations = [RegistrationFactory(tournament=tournament, player=p) for p in players]
    game = GameFactory(table=table, players=players)
    enter_hand(actor=None, game=game, hand=ron(winner=1, loser=2, han=3, fu=40), expected_version=0)
    staff = StaffRoleFactory(tournament=tournament, role=StaffRole.Role.REFEREE)
    plan = SeatingPlan.objects.create(
        tournament=tournament,
        mode=SeatingPlan.Mode.RANDOM,
        status=SeatingPlan.Status.DONE,
        progress=1.0,
        plan=[[[r.pk for r in registrations]]],
        options={"from_session": 2},
    )
    penalty = PenaltyFactory(tournament=tournament, player=players[1])
    # A registered player of the draft with a login: still not staff, so not shown the draft.
    players[0].user = UserFactory(username="registered-player")
    players[0].save()
    return {
        "tournament": tournament,
        "player": players[0],
        "slug": tournament.slug,
        "game": game,
        "session": session,
        "table": table,
        "registration": registrations[0],
        "staff": staff,
        "plan": plan,
        "penalty": penalty,
        # A referee call of the draft's table (issue 35.2).
        "referee_call": RefereeCall.objects.create(tournament=tournament, table=table),
        # A sign-up of the draft (the organisers' /api/v1/sign-ups/{id}/).
        "sign_up": SignUpFactory(tournament=tournament),
    }


def _api_pk(route: Route, draft: dict[str, Any]) -> int:
    kinds = {
        "registrations": "registration",
        "sessions": "session",
        "tables": "table",
        "seating-plans": "plan",
        "penalties": "penalty",
        "games": "game",
        "referee-calls": "referee_call",
        "sign-ups": "sign_up",
    }
    first = route.route.removeprefix("api/v1/").lstrip("^").split("/")[0]
    return int(draft[kinds[first]].pk)


def _kwargs(route: Route, draft: dict[str, Any] | None) -> dict[str, Any]:
    """The route's arguments for the draft, or (draft=None) for objects that do not exist."""
    values: dict[str, Any] = {}
    for param in route.params:
        if param == "slug":
            values[param] = draft["slug"] if draft else MISSING_SLUG
        elif param in ("number",) and "hands" in route.route:
            values[param] = 0  # the hand's number; the game does not exist when draft=None
        elif param == "number":
            values[param] = 1  # the session's number
        elif param == "table":
            values[param] = 1  # the table's number in its session (online-log upload, 32.5)
        elif param == "team":
            values[param] = "a-team"  # a team page (32.1): the draft's 404 comes first
        elif param == "cut_id":
            values[param] = MISSING_ID  # a cut (32.2 undo, promote): the draft's 404 comes first
        elif param == "pk":
            values[param] = _api_pk(route, draft) if draft else MISSING_ID
        elif param.endswith("_id"):
            key = {
                "game_id": "game",
                "registration_id": "registration",
                "staff_id": "staff",
                "plan_id": "plan",
                "penalty_id": "penalty",
                "player_id": "player",
                "table_id": "table",
                "call_id": "referee_call",
            }[param]
            values[param] = draft[key].pk if draft else MISSING_ID
        elif param == "action":
            values[param] = "close" if "referee-calls" in route.route else "start"
        elif param == "document":
            values[param] = "score-sheets"
        elif param == "fmt":
            values[param] = "csv"
        elif param == "token":
            values[param] = "no-such-sign-up-token"  # a sign-up's private link (issue 35)
        else:  # a new kind of argument: name it above
            raise AssertionError(f"{route.route}: which value for {param}?")
    return values


def _url(route: Route, draft: dict[str, Any] | None) -> str:
    return reverse(route.name, kwargs=_kwargs(route, draft))


def _client(kind: str, draft: dict[str, Any]) -> Client:
    client = Client()
    user = {
        "anonymous": None,
        "plain user": UserFactory(),
        "registered player": draft["player"].user,
        "referee of another event": StaffRoleFactory(role=StaffRole.Role.REFEREE).user,
    }[kind]
    if user is not None:
        client.force_login(user)
    return client


def test_the_enumeration_finds_the_pages_the_probe_named() -> None:
    routes = {r.route for r in ROUTES}
    for path in (
        "t/<slug:slug>/results/",
        "t/<slug:slug>/console/",
        "t/<slug:slug>/standings/",
        "api/v1/^tournaments/(?P<slug>[^/.]+)/standings/$",
        "games/<int:game_id>/entry/",
    ):
        assert path in routes
    assert len(ROUTES) > 60


@pytest.mark.parametrize(
    "kind", ["anonymous", "plain user", "registered player", "referee of another event"]
)
def test_every_path_of_a_draft_answers_as_if_it_did_not_exist(
    draft: dict[str, Any], kind: str
) -> None:
    client = _client(kind, draft)
    differs: list[str] = []
    for route in ROUTES:
        for method in ("get", "post"):
            url = _url(route, draft)
            seen = getattr(client, method)(url).status_code
            missing = getattr(client, method)(_url(route, None)).status_code
            logged_in = kind != "anonymous"
            if seen != missing or (logged_in and seen not in (404, 405)):
                differs.append(f"{method.upper()} {url}: {seen} (missing: {missing})")
    assert differs == [], "\n".join(differs)


def test_the_drafts_staff_still_sees_it(draft: dict[str, Any]) -> None:
    client = Client()
    client.force_login(StaffRoleFactory(tournament=draft["tournament"]).user)
    slug = draft["slug"]
    for url in (
        reverse("tournaments:detail", args=[slug]),
        reverse("tournaments:standings", args=[slug]),
        reverse("scoring:game", args=[draft["game"].pk]),
        f"/api/v1/tournaments/{slug}/",
        f"/api/v1/games/{draft['game'].pk}/",
    ):
        assert client.get(url).status_code == 200, url
    organiser = Client()
    organiser.force_login(
        StaffRoleFactory(tournament=draft["tournament"], role=StaffRole.Role.ORGANISER).user
    )
    for url in (
        reverse("tournaments:console", args=[slug]),
        reverse("tournaments:results", args=[slug]),
    ):
        assert organiser.get(url).status_code == 200, url
