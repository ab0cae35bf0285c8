"""Team events over the API (issue 32.1, docs/teams.md): the tournament's team settings, a
registration's `team`, the CSV column `team`, and GET /tournaments/{slug}/team-standings/."""

from __future__ import annotations

import pytest

from tests.api.conftest import client_for
from tests.standings.team_event import team_event
from tournaments.models import Registration, Team, Tournament

pytestmark = pytest.mark.django_db


def _running(**settings):
    tournament, organiser, players = team_event(**settings)
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.RUNNING)
    tournament.refresh_from_db()
    return tournament, organiser, players


def test_team_standings_rows():
    tournament, _, _ = _running()
    response = client_for(None).get(f"/api/v1/tournaments/{tournament.slug}/team-standings/")
    assert response.status_code == 200
    rows = response.json()
    # A 27 + 27 - 24 + 50; B 44 - 30 + 27 - 13; C -7 - 7 - 13 + 10; D -64 + 10 + 10 - 47.
    assert [(r["rank"], r["team"], r["total"]) for r in rows] == [
        (1, "Team A", 80000),
        (2, "Team B", 28000),
        (3, "Team C", -17000),
        (4, "Team D", -91000),
    ]
    team_a = rows[0]
    assert [m["name"].split()[0] for m in team_a["members"]] == ["A3", "A0", "A1", "A2"]
    assert [m["total"] for m in team_a["members"]] == [50000, 27000, 27000, -24000]
    assert all(m["counted"] for m in team_a["members"])
    assert team_a["slug"] == "team-a"
    # The answer is kept by the standings version: a phone revalidates with its ETag.
    again = client_for(None).get(
        f"/api/v1/tournaments/{tournament.slug}/team-standings/",
        HTTP_IF_NONE_MATCH=response["ETag"],
    )
    assert again.status_code == 304


def test_best_n_team_standings_and_csv():
    tournament, _, _ = _running(team_counted_members=2)
    rows = client_for(None).get(f"/api/v1/tournaments/{tournament.slug}/team-standings/").json()
    # Best two: A 50 + 27, B 44 + 27, D 10 + 10, C 10 - 7.
    assert [(r["rank"], r["team"], r["total"]) for r in rows] == [
        (1, "Team A", 77000),
        (2, "Team B", 71000),
        (3, "Team D", 20000),
        (4, "Team C", 3000),
    ]
    assert [m["counted"] for m in rows[1]["members"]] == [True, True, False, False]
    csv = client_for(None).get(
        f"/api/v1/tournaments/{tournament.slug}/team-standings/", {"format": "csv"}
    )
    assert csv.status_code == 200
    assert csv["Content-Type"].startswith("text/csv")
    lines = csv.content.decode().splitlines()
    assert lines[1].startswith('"1","Team A","77000",')
    assert len(lines) == 5


def test_organiser_sets_the_team_settings():
    tournament, organiser, _ = _running()
    url = f"/api/v1/tournaments/{tournament.slug}/"
    response = client_for(organiser).patch(
        url, {"teams_enabled": True, "team_counted_members": 3}, format="json"
    )
    assert response.status_code == 200
    assert (response.json()["teams_enabled"], response.json()["team_counted_members"]) == (True, 3)
    bad = client_for(organiser).patch(url, {"team_counted_members": 0}, format="json")
    assert bad.status_code == 400
    assert "team_counted_members" in str(bad.json())
    back = client_for(organiser).patch(url, {"team_counted_members": None}, format="json")
    assert back.json()["team_counted_members"] is None
    assert client_for(None).patch(url, {"teams_enabled": False}, format="json").status_code in (
        401,
        403,
    )
    tournament.refresh_from_db()
    assert tournament.teams_enabled is True


def test_registration_team_on_create_update_and_csv_import():
    tournament, organiser, players = _running()
    client = client_for(organiser)
    base = f"/api/v1/tournaments/{tournament.slug}/registrations/"
    created = client.post(
        base, {"first_name": "Eve", "last_name": "Newcomer", "team": "Team E"}, format="json"
    )
    assert created.status_code == 201
    assert created.json()["team"] == "Team E"
    assert Team.objects.filter(tournament=tournament, name="Team E").exists()
    listed = {r["player"]["name"]: r["team"] for r in client.get(base).json()}
    assert listed["A0 Player000"] == "Team A"

    registration = Registration.objects.get(tournament=tournament, player=players["A0"])
    moved = client.patch(f"/api/v1/registrations/{registration.pk}/", {"team": "Team E"})
    assert moved.status_code == 200
    assert moved.json()["team"] == "Team E"
    cleared = client.patch(
        f"/api/v1/registrations/{registration.pk}/", {"team": None}, format="json"
    )
    assert cleared.json()["team"] is None
    too_long = client.patch(f"/api/v1/registrations/{registration.pk}/", {"team": "x" * 101})
    assert too_long.status_code == 400
    assert "team" in str(too_long.json())
    assert client_for(None).patch(
        f"/api/v1/registrations/{registration.pk}/", {"team": "Team B"}
    ).status_code in (401, 403)

    imported = client.post(
        f"{base}import/",
        {"text": "first_name,last_name,team\nFay,Import,Team F\nGus,Import,team f\n"},
        format="json",
    )
    assert imported.status_code == 201
    assert [r["team"] for r in imported.json()["registrations"]] == ["Team F", "Team F"]
    assert Team.objects.filter(tournament=tournament, name__iexact="team f").count() == 1
