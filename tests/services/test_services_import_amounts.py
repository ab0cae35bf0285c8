"""Issue 15: a game-record import with a penalty of a wrong amount (EMA 2025 6.12 obstruction
"8,000 or 12,000 ... or between 12,000 and 48,000"; 7.5 score sheet 2,000 each) is refused
naming the field, with nothing saved: through the service, the API and the console."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from core.errors import ValidationFailed
from scoring.models import Game, GamePenalty
from scoring.services import import_game_record
from tests.factories import (
    PlayerFactory,
    RegistrationFactory,
    SessionFactory,
    TableFactory,
    non_dealer_rons,
)
from tournaments.models import Penalty
from tournaments.places import TablePlace

pytestmark = pytest.mark.django_db


def _record(players: list[Any], **extra: Any) -> dict[str, Any]:
    return {
        "format": "riichi-game-record/1",
        "ruleset": "ema-2025",
        "players": [f"{p.first_name} {p.last_name} [{p.ema_number}]" for p in players],
        "hands": non_dealer_rons(8),
        **extra,
    }


@pytest.fixture
def setup(tournament):
    players = [RegistrationFactory(tournament=tournament, player=PlayerFactory()).player
               for _ in range(4)]  # fmt: skip
    table = TableFactory(session=SessionFactory(tournament=tournament, number=1), number=1)
    return players, table


@pytest.mark.parametrize(
    ("extra", "field"),
    [
        ({"penalties": [{"seat": 1, "kind": "obstruction", "points": 5000}]},
         "penalties[0].points"),
        ({"penalties": [{"seat": 1, "kind": "score_sheet", "points": 3000}]},
         "penalties[0].points"),
        ({"tournament_penalties": [{"seat": 3, "kind": "obstruction", "points": 9900}]},
         "tournament_penalties[0].points"),
    ],
)  # fmt: skip
def test_service_refuses_a_wrong_amount_and_saves_nothing(organiser, setup, extra, field):
    players, table = setup
    games = Game.objects.count()
    with pytest.raises(ValidationFailed) as err:
        import_game_record(actor=organiser, record=_record(players, **extra),
                           place=TablePlace(table), players=players)  # fmt: skip
    assert err.value.field == field and "EMA 2025" in err.value.message
    assert Game.objects.count() == games
    assert not GamePenalty.objects.exists() and not Penalty.objects.exists()


def test_service_keeps_the_amounts_the_text_allows(organiser, setup):
    players, table = setup
    game = import_game_record(
        actor=organiser,
        record=_record(
            players,
            penalties=[
                {"seat": 1, "kind": "obstruction", "points": 12000},
                {"seat": 2, "kind": "score_sheet", "points": 4000},
            ],
            tournament_penalties=[{"seat": 3, "kind": "obstruction", "points": 8000}],
        ),
        place=TablePlace(table),
        players=players,
    )
    assert sorted(game.penalties.values_list("kind", "points")) == [
        ("obstruction", 12000), ("score_sheet", 4000)]  # fmt: skip
    assert list(Penalty.objects.values_list("player_id", "points")) == [(players[3].pk, 8000)]


def test_api_import_names_the_field(organiser, setup):
    players, table = setup
    client = APIClient()
    client.force_authenticate(organiser)
    body = {
        "record": _record(players, penalties=[{"seat": 1, "kind": "obstruction", "points": 5000}]),
        "players": [p.pk for p in players],
        "table": table.pk,
    }
    response = client.post("/api/v1/games/import/", body, format="json")
    assert response.status_code == 400
    assert response.json()["field"] == "penalties[0].points"
    assert "6.12" in json.dumps(response.json())
    assert not Game.objects.filter(table=table).exclude(hands=None).exists()


def test_console_import_names_the_field(organiser, tournament, setup):
    players, _table = setup
    client = Client()
    client.force_login(organiser)
    record = _record(players, penalties=[{"seat": 1, "kind": "obstruction", "points": 5000}])
    upload = SimpleUploadedFile("game.json", json.dumps(record).encode(), "application/json")
    response = client.post(
        reverse("tournaments:import_records", args=[tournament.slug]),
        {"session": "1", "table": "1", "file": upload},
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert "penalties[0].points" in html and "EMA 2025 6.12" in html
    assert not GamePenalty.objects.exists()
