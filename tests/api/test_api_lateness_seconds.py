"""Issue 15 over the API: POST /tournaments/{slug}/penalties/ takes `seconds_late` beside
`minutes_late` (kept as it was); lateness is rounded up per started minute (EMA 2025 7.2)."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.api.conftest import World
from tournaments.models import Penalty

pytestmark = pytest.mark.django_db
URL = "/api/v1/tournaments/open/penalties/"


def _late(world: World, **extra: object) -> object:
    body = {"player": world.players[1].pk, "kind": "lateness", "session": 1, "reason": "late"}
    return world.client("referee").post(URL, {**body, **extra}, format="json")


def test_nine_minutes_thirty_seconds_is_ten_thousand(world: World) -> None:
    """EMA 2025 7.2: "9 minutes and 30 seconds late has a 10,000-point penalty"."""
    response = _late(world, minutes_late=9, seconds_late=30)
    assert response.status_code == 201, response.content
    assert response.json()["points"] == 10000 and response.json()["minutes_late"] == 10


def test_minutes_alone_still_work(world: World) -> None:
    response = _late(world, minutes_late=3)
    assert response.status_code == 201 and response.json()["points"] == 3000


def test_seconds_alone(world: World) -> None:
    response = _late(world, seconds_late=20)
    assert response.status_code == 201 and response.json()["points"] == 1000


@pytest.mark.parametrize(
    ("extra", "field"),
    [
        ({"minutes_late": 9, "seconds_late": 75}, "seconds_late"),
        ({"minutes_late": 10, "seconds_late": 1}, "minutes_late"),  # EMA 2025 7.3: substitute
        ({"minutes_late": 0, "seconds_late": 0}, "minutes_late"),
    ],
)
def test_bad_lateness_is_a_400_naming_the_field(world: World, extra: dict, field: str) -> None:
    response = _late(world, **extra)
    assert response.status_code == 400
    body = response.json()
    assert body.get("field") == field or field in body, body
    assert not Penalty.objects.exists()


def test_the_schema_documents_seconds_late() -> None:
    schema = APIClient().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    fields = schema["components"]["schemas"]["PenaltyInput"]["properties"]
    assert fields["seconds_late"]["maximum"] == 59
    assert "7.2" in fields["seconds_late"]["description"]
    assert "minutes_late" in fields
