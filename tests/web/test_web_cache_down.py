"""Caches fail open (issue 14, item 4): with Redis down, pages and standings are served from the
database. "Down" is the cache pointed at a closed port on this machine."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client, override_settings
from django.urls import reverse

from tests.factories import PlayerFactory
from tests.test_health import closed_port, redis_at
from tournaments.models import StandingRow

pytestmark = pytest.mark.django_db


def test_standings_page_api_and_game_page_are_served_with_redis_down(
    client: Client, tournament: Any, game: Any
) -> None:
    zoe: Any = PlayerFactory(first_name="Zoe", last_name="Zett")
    StandingRow.objects.create(tournament=tournament, player=zoe, rank=1, total=42000)
    with override_settings(CACHES=redis_at(closed_port())):
        page = client.get(reverse("tournaments:standings", args=[tournament.slug]))
        polled = client.get(
            reverse("tournaments:standings", args=[tournament.slug]), HTTP_HX_REQUEST="true"
        )
        api = client.get(f"/api/v1/tournaments/{tournament.slug}/standings/")
        game_page = client.get(reverse("scoring:game", args=[game.pk]))
        health = client.get("/health/")
    assert page.status_code == 200 and "Zoe Zett" in page.content.decode()
    assert polled.status_code == 200 and "Zoe Zett" in polled.content.decode()
    assert api.status_code == 200
    assert [(row["rank"], row["total"]) for row in api.json()] == [(1, 42000)]
    assert game_page.status_code == 200
    assert health.json()["status"] == "degraded"
