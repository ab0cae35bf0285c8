"""Issue 15 over the API: POST /registrations/{id}/disqualify/ (organisers; EMA 2025 6.12):
the player is dropped and marked, the seats a substitute must take are listed (EMA 2025 7.3),
the standings show the player unranked; the reason stays private to organisers."""

from __future__ import annotations

import pytest

from tests.api.conftest import World
from tournaments.models import Registration
from tournaments.standings.services import recompute_standings

pytestmark = pytest.mark.django_db


def _url(world: World) -> str:
    registration = Registration.objects.get(tournament=world.tournament, player=world.players[2])
    return f"/api/v1/registrations/{registration.pk}/disqualify/"


def test_organiser_disqualifies_and_is_told_which_seat_to_fill(world: World) -> None:
    response = world.client("organiser").post(_url(world), {"reason": "cheating"}, format="json")
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["disqualified_at"] and body["dropped_at"]
    assert body["disqualification_reason"] == "cheating"
    # Seated at table 1 (West) of the running session 1: a substitute "during" (EMA 2025 7.3).
    assert body["seats_to_replace"] == [{"session": 1, "table": 1, "wind": 2, "started": True}]
    public = world.client("anonymous").get(_url(world).replace("disqualify/", "")).json()
    assert public["disqualified_at"] and public["disqualification_reason"] is None
    recompute_standings(tournament_id=world.tournament.pk)
    rows = world.client("anonymous").get("/api/v1/tournaments/open/standings/").json()
    mine = next(r for r in rows if r["player"]["id"] == world.players[2].pk)
    assert mine["disqualified"] is True and mine["rank"] is None


def test_a_reason_is_required_and_nothing_changes(world: World) -> None:
    response = world.client("organiser").post(_url(world), {"reason": ""}, format="json")
    assert response.status_code == 400 and "reason" in response.json()
    assert not Registration.objects.filter(disqualified_at__isnull=False).exists()


def test_referees_cannot_disqualify(world: World) -> None:
    response = world.client("referee").post(_url(world), {"reason": "x"}, format="json")
    assert response.status_code == 403
    assert not Registration.objects.filter(disqualified_at__isnull=False).exists()
