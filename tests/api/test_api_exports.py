"""Downloads over the API: EMA results file and its validation, ranking preview, standings CSV,
tournament backup; and the tile cross-check in the hand answers (docs/api.md)."""

from __future__ import annotations

import csv
import io

import pytest
from django.contrib.auth.models import User
from openpyxl import load_workbook

from tests.api.conftest import World, client_for
from tests.factories import StaffRoleFactory, UserFactory, ron, tsumo
from tests.standings.standings_builders import (
    make_players,
    make_tournament,
    register,
    scores_game,
)
from tournaments.backup import export_tournament
from tournaments.ema.export import CSV_HEADER
from tournaments.models import StaffRole, Tournament
from tournaments.standings.exports import standings_csv
from tournaments.standings.services import recompute_standings

pytestmark = pytest.mark.django_db

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


@pytest.fixture
def finished() -> tuple[Tournament, User]:
    """A tournament ready for the EMA file (8 players, one session on paper), its organiser."""
    tournament = make_tournament(slug="ready", status=Tournament.Status.FINISHED)
    players = make_players(8, countries=("DE", "FR"))
    register(tournament, players)
    scores_game(tournament, 1, 1, players[:4], [45300, 30000, 25000, 19700])
    scores_game(tournament, 1, 2, players[4:], [40000, 31000, 29000, 20000])
    recompute_standings(tournament_id=tournament.pk)
    organiser = UserFactory(username="ready-organiser")
    StaffRoleFactory(tournament=tournament, user=organiser, role=StaffRole.Role.ORGANISER)
    return tournament, organiser


def test_ema_export_csv_and_xlsx(finished):
    _, organiser = finished
    client = client_for(organiser)
    response = client.get("/api/v1/tournaments/ready/ema-export/")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    assert 'filename="ready-ema.csv"' in response["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0] == CSV_HEADER and len(rows) == 9
    assert rows[1][:2] == ["1", "P0"]

    response = client.get("/api/v1/tournaments/ready/ema-export/?format=xlsx")
    assert response.status_code == 200 and response["Content-Type"] == XLSX
    sheet = load_workbook(io.BytesIO(response.content))["Results"]
    assert sheet.cell(row=1, column=3).value == "Place"  # the EMA workbook (issue 20)
    assert sheet.cell(row=2, column=6).value == 4000000  # a number shown with 8 digits
    assert sheet.cell(row=2, column=6).number_format == "00000000"


def test_ema_export_blocked_answers_409_with_the_report_unless_forced(world: World):
    client = world.client("organiser")
    response = client.get("/api/v1/tournaments/open/ema-export/")
    assert response.status_code == 409
    body = response.json()
    assert body["report"]["ok"] is False
    assert body["errors"] and all(problem["blocking"] for problem in body["errors"])
    assert body["message"].startswith("the EMA file cannot be exported yet")
    forced = client.get("/api/v1/tournaments/open/ema-export/?force=1")
    assert forced.status_code == 200 and forced.content.decode("utf-8-sig").startswith('"Place"')


def test_ema_export_unknown_format_is_400_naming_format(world: World):
    response = world.client("organiser").get("/api/v1/tournaments/open/ema-export/?format=pdf")
    assert response.status_code == 400 and response.json()["field"] == "format"


def test_ema_validation_report(finished, world: World):
    _, organiser = finished
    report = client_for(organiser).get("/api/v1/tournaments/ready/ema-validation/").json()
    assert report["ok"] is True and report["problems"] == []
    assert report["mers"]["total"] == 2.0  # 2 days, 8 players, 2 countries
    blocked = world.client("organiser").get("/api/v1/tournaments/open/ema-validation/").json()
    assert blocked["ok"] is False
    assert any(problem["blocking"] for problem in blocked["problems"])


def test_ranking_preview_gives_mers_parts_and_base_ranks(finished):
    anonymous = client_for(None)
    body = anonymous.get("/api/v1/tournaments/ready/ranking-preview/").json()
    assert body["mers"]["days_weight"] == 2 and body["mers"]["players"] == 8
    assert [p["place"] for p in body["players"]] == list(range(1, 9))
    assert body["players"][0]["base_rank"] == 1000.0 and body["players"][-1]["base_rank"] == 0


def test_ranking_preview_is_public_once_running(world: World):
    Tournament.objects.filter(pk=world.tournament.pk).update(status=Tournament.Status.REGISTRATION)
    url = "/api/v1/tournaments/open/ranking-preview/"
    assert world.client("anonymous").get(url).status_code == 403
    assert world.client("player").get(url).status_code == 403
    assert world.client("referee").get(url).status_code == 200
    Tournament.objects.filter(pk=world.tournament.pk).update(status=Tournament.Status.RUNNING)
    assert world.client("anonymous").get(url).status_code == 200


def test_standings_as_csv(finished):
    tournament, _ = finished
    response = client_for(None).get("/api/v1/tournaments/ready/standings/?format=csv")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    assert response.content.decode() == standings_csv(tournament)
    as_json = client_for(None).get("/api/v1/tournaments/ready/standings/")
    assert as_json.status_code == 200 and len(as_json.json()) == 8
    bad = client_for(None).get("/api/v1/tournaments/ready/standings/?format=xml")
    assert bad.status_code == 400 and bad.json()["field"] == "format"


def test_backup_is_the_export_tournament_document(finished):
    tournament, organiser = finished
    response = client_for(organiser).get("/api/v1/tournaments/ready/backup/")
    assert response.status_code == 200
    assert 'filename="ready-backup.json"' in response["Content-Disposition"]
    document = response.json()
    assert document["format"] == "hanchan-tournament/1"
    assert document == export_tournament(tournament)


def test_add_hand_with_tiles_returns_the_cross_check(world: World):
    client = world.client("referee")
    response = client.post(
        f"/api/v1/games/{world.game.pk}/hands/",
        {
            "hand": tsumo(winner=1, han=3, fu=30, riichi=[1]),
            "version": 0,
            "tiles": "234567m234p2355s+1s",
        },
        format="json",
    )
    assert response.status_code == 201  # a mismatch does not block: the referee decides
    check = response.json()["hands"][0]["tile_check"]
    assert check["han"] == 3 and check["fu"] == 20
    assert check["mismatches"][0] == "fu: entered 30, the tiles give 20"

    corrected = client.put(
        f"/api/v1/games/{world.game.pk}/hands/0/",
        {
            "hand": tsumo(winner=1, han=3, fu=20, riichi=[1]),
            "version": 1,
            "reason": "fu from the tiles",
        },
        format="json",
    )
    assert corrected.status_code == 200
    assert corrected.json()["hands"][0]["tile_check"]["mismatches"] == []


def test_add_hand_with_tiles_that_are_no_hand_is_400_naming_tiles(world: World):
    response = world.client("referee").post(
        f"/api/v1/games/{world.game.pk}/hands/",
        {"hand": ron(winner=1, loser=2, han=2), "version": 0, "tiles": "123m"},
        format="json",
    )
    assert response.status_code == 400 and response.json()["field"] == "tiles"
    world.game.refresh_from_db()
    assert world.game.version == 0
