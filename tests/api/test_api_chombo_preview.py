"""Issue 15 over the API: the hand preview of a chombo says what it costs (EMA 2025 3.4.6:
20,000 after uma in a tournament; nothing changes hands at the table)."""

from __future__ import annotations

import pytest

from scoring.models import Hand
from tests.api.conftest import World
from tests.factories import chombo

pytestmark = pytest.mark.django_db


def test_chombo_preview_names_its_cost(world: World) -> None:
    response = world.client("referee").post(
        f"/api/v1/games/{world.game.pk}/preview/", {"hand": chombo(offender=2)}, format="json"
    )
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["deltas"] == [0, 0, 0, 0]
    assert body["chombo"] == {"seat": 2, "points": 20000}
    assert Hand.objects.count() == 0


def test_other_previews_have_no_chombo_key(world: World) -> None:
    body = (
        world.client("referee")
        .post(
            f"/api/v1/games/{world.game.pk}/preview/",
            {"hand": {"outcome": "draw", "tenpai": [0], "riichi": []}},
            format="json",
        )
        .json()
    )
    assert "chombo" not in body
