"""Issue 32.5 over HTTP: PATCH /sessions/{id}/ {"online": true}, then
POST /tables/{id}/online-log/ (JSON or multipart) and GET it back; referees and organisers
only; a mismatching log is a 400 naming the field and the names."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from core.models import AuditEntry
from scoring.models import Game
from tests.factories import SessionFactory, UserFactory
from tests.online.test_online_parse import NAMES as TENHOU6_NAMES
from tests.online.test_online_parse import _tenhou6
from tests.online.test_online_sessions import (
    THREE_HANDS,
    WEST4,
    WEST4_NAMES,
    WEST4_RESULT,
    registration_ids,
)
from tournaments.models import OnlineTableLog, Session, Tournament
from tournaments.services import seat_session, start_session

pytestmark = pytest.mark.django_db


def client_for(user: Any) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


@pytest.fixture
def session(tournament: Tournament, organiser: Any, players: list[Any]) -> Session:
    made = SessionFactory(tournament=tournament, number=1, status=Session.Status.PLANNED)
    seat_session(actor=organiser, session=made, tables=[players[:4], players[4:]])
    return start_session(actor=organiser, session=made)


def test_an_organiser_marks_the_session_online(session: Session, organiser: Any) -> None:
    url = f"/api/v1/sessions/{session.pk}/"
    assert client_for(organiser).get(url).json()["online"] is False
    referee_answer = client_for(UserFactory()).patch(url, {"online": True}, format="json")
    assert referee_answer.status_code == 403
    answer = client_for(organiser).patch(url, {"online": True}, format="json")
    assert answer.status_code == 200 and answer.json()["online"] is True
    bad = client_for(organiser).patch(url, {"online": "perhaps"}, format="json")
    assert bad.status_code == 400 and "online" in bad.json()  # DRF names the field
    assert AuditEntry.objects.filter(action="session.online", tournament_id=session.tournament_id)


def test_a_referee_uploads_a_log_as_json_and_as_a_file(
    tournament: Tournament, session: Session, organiser: Any, referee: Any, players: list[Any]
) -> None:
    client_for(organiser).patch(f"/api/v1/sessions/{session.pk}/", {"online": True}, format="json")
    table1, table2 = session.tables.order_by("number")
    url = f"/api/v1/tables/{table1.pk}/online-log/"
    assert client_for(referee).get(url).status_code == 404  # nothing imported yet
    mapping = dict(zip(WEST4_NAMES, registration_ids(tournament, players[:4]), strict=True))
    answer = client_for(referee).post(url, {"log": WEST4, "players": mapping}, format="json")
    assert answer.status_code == 201, answer.json()
    body = answer.json()
    assert body["table"] == table1.pk and body["site"] == "tenhou" and body["status"] == "finished"
    assert body["comparison"]["ok"] and body["comparison"]["final"]["ours"]["result"] == (
        WEST4_RESULT
    )
    assert [p["name"] for p in body["players"]] == WEST4_NAMES
    assert client_for(referee).get(url).json()["comparison"] == body["comparison"]

    # Table 2 from a tenhou.net/6 JSON file, multipart, its names given as a JSON text.
    names = dict(zip(TENHOU6_NAMES, registration_ids(tournament, players[4:]), strict=True))
    upload = SimpleUploadedFile(
        "table2.json", json.dumps(_tenhou6(), ensure_ascii=False).encode(), "application/json"
    )
    filed = client_for(referee).post(
        f"/api/v1/tables/{table2.pk}/online-log/",
        {"log": upload, "players": json.dumps(names, ensure_ascii=False)},
        format="multipart",
    )
    assert filed.status_code == 201, filed.json()
    assert filed.json()["comparison"]["matching"] == 5
    assert Game.objects.get(pk=filed.json()["game"]).hands.count() == 6


def test_a_mismatching_log_is_a_400_naming_the_field_and_the_names(
    tournament: Tournament, session: Session, organiser: Any, players: list[Any]
) -> None:
    client_for(organiser).patch(f"/api/v1/sessions/{session.pk}/", {"online": True}, format="json")
    table = session.tables.get(number=1)
    answer = client_for(organiser).post(
        f"/api/v1/tables/{table.pk}/online-log/", {"log": THREE_HANDS}, format="json"
    )
    assert answer.status_code == 400
    body = answer.json()
    assert body["field"] == "players"
    names = ["〓超快適〓", "CLS", "るーみっく", "かづきＸＩ"]
    assert [e["name"] for e in body["errors"]] == names
    assert all(name in body["message"] for name in names)
    assert not OnlineTableLog.objects.exists() and not table.game.hands.exists()


def test_players_and_strangers_may_not_upload_or_read(
    tournament: Tournament, session: Session, organiser: Any, players: list[Any]
) -> None:
    client_for(organiser).patch(f"/api/v1/sessions/{session.pk}/", {"online": True}, format="json")
    table = session.tables.get(number=1)
    url = f"/api/v1/tables/{table.pk}/online-log/"
    seated = UserFactory()
    players[0].user = seated
    players[0].save(update_fields=["user"])
    for user in (seated, UserFactory()):
        assert client_for(user).post(url, {"log": WEST4}, format="json").status_code == 403
        assert client_for(user).get(url).status_code == 403
    assert client_for(None).post(url, {"log": WEST4}, format="json").status_code in (401, 403)
