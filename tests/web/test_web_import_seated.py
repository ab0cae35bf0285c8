"""Issue 16 (finding 10): the web "Import game records" fills a seated, still empty game.

Seating a session creates a game on every table (tournaments.services.sessions.replace_tables),
so the form always answered "This table already has a game". Now a record for a seated table
whose game has no hands yet fills that game (the players must be the seated ones, EMA 2025 7.4
for a session stopped on time); a game that already has hands is still refused, and so is a
record naming other players. Driven through the organiser's web form.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from scoring.models import Game
from scoring.services import enter_hand
from tests.factories import PlayerFactory, SessionFactory, ron
from tournaments.models import Session, Tournament
from tournaments.services.sessions import seat_session, start_session

pytestmark = pytest.mark.django_db


@pytest.fixture
def seated(tournament: Tournament, players: list[Any], organiser: Any) -> Session:
    """Session 1 seated and started through the services, as the console does it."""
    tournament.status = Tournament.Status.RUNNING
    tournament.save(update_fields=["status"])
    session = SessionFactory(tournament=tournament, number=1, status=Session.Status.PLANNED)
    seat_session(actor=organiser, session=session, tables=[players])
    return start_session(actor=organiser, session=session)


def _record(players: list[Any]) -> dict[str, Any]:
    return {
        "format": "riichi-game-record/1",
        "ruleset": "ema-2025",
        "players": [f"{p.first_name} {p.last_name}" for p in players],
        "hands": [ron(winner=1, loser=2, han=4, fu=30), ron(winner=0, loser=3, han=2, fu=30)],
        "end": "time",  # EMA 2025 7.4: the session stopped on time
    }


def _post(client: Client, tournament: Tournament, document: Any) -> Any:
    upload = SimpleUploadedFile("game.json", json.dumps(document).encode(), "application/json")
    return client.post(
        reverse("tournaments:import_records", args=[tournament.slug]),
        {"session": "1", "table": "1", "file": upload},
    )


def test_the_form_fills_the_seated_empty_game(
    organiser_client: Client, tournament: Tournament, players: list[Any], seated: Session
) -> None:
    game = Game.objects.get(table__session=seated, table__number=1)
    assert not game.hands.exists()  # the seating created it, empty
    response = _post(organiser_client, tournament, _record(players))
    assert response.status_code == 302, response.content.decode()[:2000]
    assert Game.objects.filter(table__session=seated).count() == 1  # the same game, filled
    game.refresh_from_db()
    assert game.hands.count() == 2
    assert game.status == Game.Status.FINISHED
    page = organiser_client.get(response["Location"])
    assert "1 games imported." in page.content.decode()


def test_a_game_with_hands_is_still_refused(
    organiser_client: Client, tournament: Tournament, players: list[Any], seated: Session
) -> None:
    game = Game.objects.get(table__session=seated, table__number=1)
    enter_hand(actor=None, game=game, hand=ron(winner=2, loser=3, han=1), expected_version=0)
    response = _post(organiser_client, tournament, _record(players))
    assert response.status_code == 400
    assert "This table already has a game." in response.content.decode()
    assert game.hands.count() == 1


def test_a_record_of_other_players_is_refused(
    organiser_client: Client, tournament: Tournament, players: list[Any], seated: Session
) -> None:
    strangers = [PlayerFactory() for _ in range(4)]
    response = _post(organiser_client, tournament, _record(strangers))
    assert response.status_code == 400
    assert "not the players seated at this table" in response.content.decode()
    assert not Game.objects.get(table__session=seated).hands.exists()
