"""The organiser's "Results & EMA export" page: validation report, EMA CSV/XLSX (refused
while blocked, "export anyway"), tournament backup, game-record import."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from openpyxl import load_workbook

from scoring.models import Game
from tests.factories import (
    GameFactory,
    PenaltyFactory,
    SessionFactory,
    TableFactory,
    UserFactory,
    ron,
)
from tests.web.test_web_results import paper_game
from tournaments.models import Tournament
from tournaments.standings.services import recompute_standings

pytestmark = pytest.mark.django_db

EMA_HEADER = [
    "Place",
    "First name",
    "Last name",
    "EMA number",
    "Table points",
    "Score",
    "EMA member",
    "Country",
]


@pytest.fixture
def ready(tournament: Tournament, players: list[Any]) -> Tournament:
    """One finished game, a lateness penalty, standings rebuilt: only Clara's missing EMA
    number blocks the export, until the organiser confirms it (issue 36)."""
    paper_game(tournament, 1, 1, players)
    PenaltyFactory(tournament=tournament, player=players[1], kind="lateness", points=2000)
    players[2].ema_number = None
    players[2].save(update_fields=["ema_number"])
    recompute_standings(tournament_id=tournament.pk)
    return tournament


@pytest.fixture
def blocked(ready: Tournament, players: list[Any]) -> Tournament:
    """A second session whose game is still being played."""
    session = SessionFactory(tournament=ready, number=2)
    GameFactory(table=TableFactory(session=session, number=1), players=players)
    return ready


def url(name: str, tournament: Tournament, *args: Any) -> str:
    return reverse(f"tournaments:{name}", args=[tournament.slug, *args])


def test_anonymous_is_sent_to_login(client: Client, ready: Tournament) -> None:
    for target in (url("exports", ready), url("ema_download", ready, "csv"), url("backup", ready)):
        response = client.get(target)
        assert response.status_code == 302 and "login" in response["Location"]


@pytest.fixture
def player_client(players: list[Any]) -> Client:
    """Anna, a registered player of the tournament, logged in."""
    user = UserFactory()
    players[0].user = user
    players[0].save(update_fields=["user"])
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.parametrize("who", ["plain", "player", "referee", "stranger"])
def test_only_organisers_use_the_export_page(
    who: str,
    plain_user_client: Client,
    player_client: Client,
    referee_client: Client,
    stranger_client: Client,
    ready: Tournament,
) -> None:
    browser = {
        "plain": plain_user_client,
        "player": player_client,
        "referee": referee_client,
        "stranger": stranger_client,
    }[who]
    assert browser.get(url("exports", ready)).status_code == 403
    assert browser.get(url("ema_download", ready, "csv")).status_code == 403
    assert browser.get(url("backup", ready)).status_code == 403
    assert browser.post(url("import_records", ready)).status_code == 403


def test_report_lists_penalties_with_sum_and_players_without_ema(
    organiser_client: Client, ready: Tournament
) -> None:
    response = organiser_client.get(url("exports", ready))
    assert response.status_code == 200
    html = response.content.decode()
    # Issue 36: a player without an EMA number blocks until the organiser confirms; issue 33
    # item 6: the check said "Ready for export." with every player's number missing.
    assert 'id="report-blocking"' in html and "Clara Claus has no EMA number" in html
    assert 'id="report-ok"' not in html and "Ready for export." not in html
    assert 'id="confirm-xls"' in html
    assert 'id="penalty-total">2000<' in html
    assert "Clara Claus" in html and "no EMA number" in html
    assert "MERS weight" in html


def test_blocked_export_is_refused_with_the_report(
    organiser_client: Client, blocked: Tournament
) -> None:
    page = organiser_client.get(url("exports", blocked))
    assert "session 2 table 1: the game is not finalized" in page.content.decode()
    for fmt in ("csv", "xlsx"):
        response = organiser_client.get(url("ema_download", blocked, fmt))
        assert response.status_code == 409
        html = response.content.decode()
        assert "cannot be exported yet" in html
        assert "the game is not finalized" in html
        assert 'id="force-csv"' in html


def test_export_anyway_downloads_the_csv(organiser_client: Client, blocked: Tournament) -> None:
    response = organiser_client.post(url("ema_download", blocked, "csv"), {"force": "1"})
    assert response.status_code == 200
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0] == EMA_HEADER


def test_ema_csv_header_is_exact(organiser_client: Client, ready: Tournament) -> None:
    assert organiser_client.get(url("ema_download", ready, "csv")).status_code == 409
    response = organiser_client.post(url("ema_download", ready, "csv"), {"confirm": "1"})
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    assert 'filename="hamburg-open-ema.csv"' in response["Content-Disposition"]
    assert response.content.startswith(b"\xef\xbb\xbf")  # BOM: Excel shows the accents
    text = response.content.decode("utf-8-sig")
    assert text.splitlines()[0] == ",".join(f'"{h}"' for h in EMA_HEADER)
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0] == EMA_HEADER
    assert len(rows) == 5
    assert rows[1][:3] == ["1", "Anna", "Adler"]


def test_ema_xlsx_opens_with_openpyxl(organiser_client: Client, ready: Tournament) -> None:
    response = organiser_client.post(url("ema_download", ready, "xlsx"), {"confirm": "1"})
    assert response.status_code == 200
    sheet = load_workbook(io.BytesIO(response.content))["Results"]
    rows = list(sheet.iter_rows(values_only=True))
    assert rows[2][0] == "Hamburg Open"  # the details in row 3 (EMA workbook, issue 20)
    assert list(rows[0][2:10]) == EMA_HEADER
    assert rows[1][3] == "Anna"


def test_unknown_format_is_404(organiser_client: Client, ready: Tournament) -> None:
    assert organiser_client.get(url("ema_download", ready, "pdf")).status_code == 404


def test_backup_download(organiser_client: Client, ready: Tournament) -> None:
    response = organiser_client.get(url("backup", ready))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    document = json.loads(response.content)
    assert document["format"] == "hanchan-tournament/1"


# ---------------------------------------------------------------- game-record import


def record(players: list[Any], *, han: int = 4) -> dict[str, Any]:
    return {
        "format": "riichi-game-record/1",
        "ruleset": "ema-2025",
        "players": [f"{p.first_name} {p.last_name}" for p in players],
        "hands": [ron(winner=1, loser=2, han=4, fu=30), ron(winner=0, loser=3, han=han, fu=30)],
        "end": "time",
    }


@pytest.fixture
def empty_table(tournament: Tournament) -> Any:
    return TableFactory(session=SessionFactory(tournament=tournament, number=3), number=2)


def upload(document: Any, name: str = "game.json") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, json.dumps(document).encode(), "application/json")


def test_import_a_game_record(
    organiser_client: Client, tournament: Tournament, players: list[Any], empty_table: Any
) -> None:
    response = organiser_client.post(
        url("import_records", tournament),
        {"session": "3", "table": "2", "file": upload([record(players)])},
    )
    assert response.status_code == 302
    game = Game.objects.get(table=empty_table)
    assert game.hands.count() == 2


def test_import_error_names_hand_and_field_and_imports_nothing(
    organiser_client: Client, tournament: Tournament, players: list[Any], empty_table: Any
) -> None:
    before = Game.objects.count()
    response = organiser_client.post(
        url("import_records", tournament),
        {"session": "3", "table": "2", "file": upload(record(players, han=0))},
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert 'id="import-errors"' in html
    assert "hand 1" in html and "field wins" in html
    assert Game.objects.count() == before


@pytest.mark.parametrize(
    ("file", "message"),
    [
        (SimpleUploadedFile("game.txt", b"{}", "text/plain"), "Upload a .json file."),
        (SimpleUploadedFile("game.json", b"{not json", "application/json"), "not valid JSON"),
        (
            SimpleUploadedFile("big.json", b" " * (2 * 1024 * 1024 + 1), "application/json"),
            "larger than 2 MB",
        ),
        (SimpleUploadedFile("list.json", b"[1, 2]", "application/json"), "Expected one game"),
    ],
)
def test_import_refuses_bad_uploads(
    organiser_client: Client,
    tournament: Tournament,
    empty_table: Any,
    file: SimpleUploadedFile,
    message: str,
) -> None:
    response = organiser_client.post(
        url("import_records", tournament), {"session": "3", "table": "2", "file": file}
    )
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Game.objects.filter(table=empty_table).exists()


def test_import_to_a_missing_table(
    organiser_client: Client, tournament: Tournament, players: list[Any]
) -> None:
    response = organiser_client.post(
        url("import_records", tournament),
        {"session": "9", "table": "1", "file": upload(record(players))},
    )
    assert response.status_code == 400
    assert "No such table in this session." in response.content.decode()


def test_export_page_in_german_and_french(organiser_client: Client, ready: Tournament) -> None:
    german = organiser_client.get(url("exports", ready), HTTP_ACCEPT_LANGUAGE="de")
    assert "<h1>Ergebnisse & EMA-Export</h1>" in german.content.decode()
    assert "Turniersicherung exportieren (JSON)" in german.content.decode()
    french = organiser_client.get(url("exports", ready), HTTP_ACCEPT_LANGUAGE="fr")
    assert "<h1>Résultats & export EMA</h1>" in french.content.decode()


def test_import_a_list_onto_consecutive_tables(
    organiser_client: Client, tournament: Tournament, players: list[Any], empty_table: Any
) -> None:
    third = TableFactory(session=empty_table.session, number=3)
    response = organiser_client.post(
        url("import_records", tournament),
        {"session": "3", "table": "2", "file": upload([record(players), record(players)])},
    )
    assert response.status_code == 302
    assert Game.objects.filter(table__in=[empty_table, third]).count() == 2


def test_a_bad_record_in_a_list_imports_none(
    organiser_client: Client, tournament: Tournament, players: list[Any], empty_table: Any
) -> None:
    third = TableFactory(session=empty_table.session, number=3)
    response = organiser_client.post(
        url("import_records", tournament),
        {
            "session": "3",
            "table": "2",
            "file": upload([record(players), record(players, han=0)]),
        },
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert "record 1, hand 1, field wins" in html
    assert not Game.objects.filter(table__in=[empty_table, third]).exists()


def test_a_list_needs_enough_tables(
    organiser_client: Client, tournament: Tournament, players: list[Any], empty_table: Any
) -> None:
    response = organiser_client.post(
        url("import_records", tournament),
        {"session": "3", "table": "2", "file": upload([record(players), record(players)])},
    )
    assert response.status_code == 400
    assert "2 records need tables 2 to 3 in this session." in response.content.decode()
    assert not Game.objects.filter(table=empty_table).exists()
