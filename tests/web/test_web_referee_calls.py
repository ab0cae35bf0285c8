"""Calling a referee (issue 35.2): the button on the table's own page and the referee's entry
page, the calls on the referees' table list and the console, acknowledge then close, audit,
the limit per table, and the API."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from core.audit import audit_for_tournament
from tournaments.models import RefereeCall, Session
from tournaments.services import referee_calls

pytestmark = pytest.mark.django_db


@pytest.fixture
def running(game: Any) -> Any:
    Session.objects.filter(pk=game.table.session_id).update(status="running")
    game.tournament_status = game.table.session.tournament.status
    return game


def test_call_from_the_table_page_reaches_referees_and_console(
    running: Any, referee_client: Client, organiser_client: Client, stranger_client: Client
) -> None:
    table = running.table
    page = Client().get(f"/games/{running.pk}/")
    assert 'id="call-referee"' in page.content.decode()
    assert 'id="call-referee"' in referee_client.get(f"/games/{running.pk}/entry/").content.decode()
    answer = Client().post(f"/t/tables/{table.pk}/call-referee/", {"next": f"/games/{running.pk}/"})
    assert answer.status_code == 302 and answer["Location"] == f"/games/{running.pk}/"
    call = RefereeCall.objects.get()
    assert call.status == "open" and call.table == table
    # A second tap makes no second call.
    Client().post(f"/t/tables/{table.pk}/call-referee/")
    assert RefereeCall.objects.count() == 1
    # The referees' table list and the console poll the fragment.
    assert 'hx-get="/t/referee-calls/"' in referee_client.get("/games/referee/").content.decode()
    fragment = referee_client.get("/t/referee-calls/").content.decode()
    assert f'data-call="{call.pk}"' in fragment and "Table 1" in fragment and "since" in fragment
    console = organiser_client.get("/t/referee-calls/?t=hamburg-open").content.decode()
    assert f'data-call="{call.pk}"' in console
    assert f'data-call="{call.pk}"' not in stranger_client.get("/t/referee-calls/").content.decode()
    assert stranger_client.get("/t/referee-calls/?t=hamburg-open").status_code == 403
    # Acknowledged, then closed, by a referee.
    assert stranger_client.post(f"/t/referee-calls/{call.pk}/acknowledge/").status_code == 403
    referee_client.post(f"/t/referee-calls/{call.pk}/acknowledge/", HTTP_REFERER="/games/referee/")
    call.refresh_from_db()
    assert call.status == "acknowledged" and call.acknowledged_by is not None
    assert 'data-status="acknowledged"' in referee_client.get("/t/referee-calls/").content.decode()
    referee_client.post(f"/t/referee-calls/{call.pk}/close/")
    call.refresh_from_db()
    assert call.status == "closed" and call.closed_at is not None
    assert f'data-call="{call.pk}"' not in referee_client.get("/t/referee-calls/").content.decode()
    actions = list(audit_for_tournament(call.tournament_id).values_list("action", flat=True))
    assert {"referee_call.create", "referee_call.acknowledge", "referee_call.close"} <= set(actions)


def test_calls_are_limited_per_table(running: Any, referee: Any, settings: Any) -> None:
    settings.REFEREE_CALLS_PER_TABLE = 2
    for _ in range(2):
        call, created = referee_calls.call_referee(actor=None, table=running.table)
        assert created
        referee_calls.close_call(actor=referee, call=call)
    with pytest.raises(referee_calls.TooManyCalls):
        referee_calls.call_referee(actor=None, table=running.table)


def test_api_call_list_acknowledge_close(running: Any, referee: Any, organiser: Any) -> None:
    table = running.table
    anonymous = APIClient()
    first = anonymous.post(f"/api/v1/tables/{table.pk}/referee-calls/", {}, format="json")
    assert first.status_code == 201, first.json()
    body = first.json()
    assert body["table_number"] == 1 and body["status"] == "open" and body["since"]
    again = anonymous.post(f"/api/v1/tables/{table.pk}/referee-calls/", {}, format="json")
    assert again.status_code == 200 and again.json()["id"] == body["id"]
    url = "/api/v1/tournaments/hamburg-open/referee-calls/?open=1"
    assert anonymous.get(url).status_code == 403
    staff = APIClient()
    staff.force_authenticate(referee)
    assert [c["id"] for c in staff.get(url).json()] == [body["id"]]
    assert staff.post(f"/api/v1/referee-calls/{body['id']}/acknowledge/").json()["status"] == (
        "acknowledged"
    )
    closed = staff.post(f"/api/v1/referee-calls/{body['id']}/close/")
    assert closed.json()["status"] == "closed"
    assert staff.get(url).json() == []
    everything = staff.get("/api/v1/tournaments/hamburg-open/referee-calls/").json()
    assert [c["status"] for c in everything] == ["closed"]
    refused = staff.post(f"/api/v1/referee-calls/{body['id']}/close/")
    assert refused.status_code == 400 and refused.json()["field"] == "status"
    # No call from a table whose session is not being played.
    Session.objects.filter(pk=table.session_id).update(status="closed")
    late = anonymous.post(f"/api/v1/tables/{table.pk}/referee-calls/", {}, format="json")
    assert late.status_code == 400 and late.json()["field"] == "table"
