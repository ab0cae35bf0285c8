"""Issue 15 over the API: POST /tournaments/{slug}/table-penalties/ gives every player of a
table the EMA 2025 7.5 score-sheet penalty (2,000 each), all or none."""

from __future__ import annotations

import pytest

from tests.api.conftest import World
from tournaments.models import Penalty

pytestmark = pytest.mark.django_db
URL = "/api/v1/tournaments/open/table-penalties/"


def test_a_whole_table_gets_the_score_sheet_penalty(world: World) -> None:
    response = world.client("referee").post(
        URL, {"session": 1, "table": 1, "reason": "sheet unreadable"}, format="json"
    )
    assert response.status_code == 201, response.content
    body = response.json()
    assert sorted(p["player"]["id"] for p in body) == sorted(p.pk for p in world.players)
    assert {(p["kind"], p["points"], p["session"]) for p in body} == {("score_sheet", 2000, 1)}


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"session": 1, "table": 7, "reason": "x"}, "table"),
        ({"session": 5, "table": 1, "reason": "x"}, "session"),
        ({"session": 1, "table": 1, "reason": "x", "kind": "obstruction"}, "kind"),
        ({"session": 1, "table": 1}, "reason"),
    ],
)
def test_bad_input_is_a_400_naming_the_field(world: World, body: dict, field: str) -> None:
    response = world.client("referee").post(URL, body, format="json")
    assert response.status_code == 400
    answer = response.json()
    assert answer.get("field") == field or field in answer, answer
    assert not Penalty.objects.exists()


@pytest.mark.parametrize("role", ["anonymous", "player", "other_referee"])
def test_only_the_tournament_staff(world: World, role: str) -> None:
    response = world.client(role).post(
        URL, {"session": 1, "table": 1, "reason": "x"}, format="json"
    )
    assert response.status_code in (401, 403)
    assert not Penalty.objects.exists()
