"""Issue 31 over the API: registration roles, the roster in tables, sessions and my-table, the
409 of a session that cannot start, and the standings marks."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from scoring.models import Game
from tests.factories import (
    PlayerFactory,
    RegistrationFactory,
    StaffRoleFactory,
    TournamentFactory,
    UserFactory,
)
from tournaments.models import Registration, StaffRole
from tournaments.services import create_sessions, drop_player, seat_session, substitute_player

pytestmark = pytest.mark.django_db


@pytest.fixture
def day() -> dict[str, Any]:
    tournament = TournamentFactory(status="registration", slug="roster-open")
    organiser = StaffRoleFactory(tournament=tournament, role=StaffRole.Role.ORGANISER).user
    players: list[Any] = [PlayerFactory() for _ in range(8)]
    for p in players:
        RegistrationFactory(tournament=tournament, player=p)
    s1, s2 = create_sessions(actor=organiser, tournament=tournament, count=2)
    for s in (s1, s2):
        seat_session(actor=organiser, session=s, tables=[players[:4], players[4:]])
    client = APIClient()
    client.force_authenticate(organiser)
    return {
        "t": tournament,
        "org": organiser,
        "players": players,
        "s1": s1,
        "s2": s2,
        "api": client,
    }


def _as(player: Any) -> APIClient:
    user = UserFactory()
    player.user = user
    player.save(update_fields=["user"])
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_registration_role_in_and_out(day: dict[str, Any]) -> None:
    """Issue 31.2: `role`; `is_substitute` read-only, role == "fill-in"; a bad role names the
    field and saves nothing."""
    url = f"/api/v1/tournaments/{day['t'].slug}/registrations/"
    made = day["api"].post(url, {"first_name": "Ria", "last_name": "Res", "role": "reserve"},
                           format="json")  # fmt: skip
    assert made.status_code == 201, made.content
    assert (made.json()["role"], made.json()["is_substitute"]) == ("reserve", False)
    old = day["api"].post(url, {"first_name": "Fil", "last_name": "In", "is_substitute": True},
                          format="json")  # fmt: skip
    assert (old.json()["role"], old.json()["is_substitute"]) == ("fill-in", True)
    bad = day["api"].post(url, {"first_name": "Bad", "last_name": "Role", "role": "captain"},
                          format="json")  # fmt: skip
    assert bad.status_code == 400 and "role" in str(bad.json())
    assert not Registration.objects.filter(player__last_name="Role").exists()


def test_start_with_a_dropped_players_seat_is_409_naming_table_and_seat(
    day: dict[str, Any],
) -> None:
    """Issue 31.3: the answer names table and seat and offers both fixes."""
    leaver = Registration.objects.get(tournament=day["t"], player=day["players"][6])
    drop_player(actor=day["org"], registration=leaver, reason="left")
    response = day["api"].post(f"/api/v1/sessions/{day['s1'].pk}/start/")
    assert response.status_code == 409
    body = response.json()
    assert body["field"] == "tables" and "table 2 West" in body["message"]
    assert body["errors"][0]["table"] == 2 and body["errors"][0]["wind"] == "West"
    assert {f["fix"] for f in body["fixes"]} == {"substitute", "reseat"}
    tables = day["api"].get("/api/v1/tables/?tournament=roster-open&session=1").json()
    rows = tables["results"] if isinstance(tables, dict) else tables
    west = rows[1]["seats"][2]
    assert (west["state"], west["flagged"], west["substitute"]) == ("dropped", True, False)


def test_substitute_and_replaced_player_in_tables_and_my_table(day: dict[str, Any]) -> None:
    """Issue 31.1: the tables name the substitute; my-table finds the substitute's table and
    tells a replaced player so."""
    reserve = RegistrationFactory(tournament=day["t"], player=PlayerFactory(), role="reserve")
    game = Game.objects.get(table__session=day["s1"], table__number=1)
    substitute_player(actor=day["org"], game=game, seat=1, substitute=reserve.player,
                      reason="ill")  # fmt: skip
    absent = day["players"][1]
    tables = day["api"].get(f"/api/v1/sessions/{day['s1'].pk}/tables/").json()
    south = tables[0]["seats"][1]
    assert south["player"]["id"] == absent.pk and south["sits"]["id"] == reserve.player_id
    assert (south["substitute"], south["substitute_from"], south["state"]) == (
        True, "start", "absent",
    )  # fmt: skip
    found = day["api"].get(f"/api/v1/tables/?tournament=roster-open&session=1"
                           f"&player={reserve.player_id}").json()  # fmt: skip
    rows = found["results"] if isinstance(found, dict) else found
    assert [t["number"] for t in rows] == [1]
    mine = _as(reserve.player).get(f"/api/v1/sessions/{day['s1'].pk}/my-table/")
    assert mine.status_code == 200 and mine.json()["number"] == 1
    assert mine.json()["me"]["state"] == "substitute"
    assert mine.json()["me"]["replaces"]["id"] == absent.pk
    theirs = _as(absent).get(f"/api/v1/sessions/{day['s1'].pk}/my-table/").json()
    assert theirs["me"]["state"] == "replaced" and theirs["me"]["replaced_by"]["id"] == (
        reserve.player_id
    )
    assert "You were replaced by" in theirs["me"]["message"]
    session = day["api"].get(f"/api/v1/sessions/{day['s1'].pk}/").json()
    assert session["roster"]["tables"][0]["seats"][1]["replaces"]["id"] == absent.pk
    # In session 2 the absent player sits as planned.
    again = _as(absent).get(f"/api/v1/sessions/{day['s2'].pk}/my-table/").json()
    assert again["me"]["state"] == "seated"
