"""Idempotency-Key on write endpoints beyond hands (core.idempotency)."""

from __future__ import annotations

from unittest import mock

import pytest
from django.db import IntegrityError

from core.models import IdempotencyRecord
from scoring.models import Hand
from tests.api.conftest import World
from tests.factories import ron
from tournaments.models import Penalty, Registration

pytestmark = pytest.mark.django_db


def test_retried_registration_registers_once(world: World) -> None:
    client = world.client("organiser")
    url = "/api/v1/tournaments/open/registrations/"
    body = {"first_name": "Ada", "last_name": "Byron", "ema_number": "04000009"}
    before = Registration.objects.count()
    first = client.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="reg-1")
    retry = client.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="reg-1")
    assert first.status_code == retry.status_code == 201
    assert retry.json() == first.json()
    assert Registration.objects.count() == before + 1
    # Without the key, the same POST is a new request (refused: already registered).
    again = client.post(url, body, format="json")
    assert again.status_code == 400


def test_same_key_on_another_endpoint_is_422(world: World) -> None:
    client = world.client("referee")
    client.post(
        "/api/v1/tournaments/open/penalties/",
        {"player": world.players[1].pk, "kind": "obstruction", "points": 8000, "reason": "x"},
        format="json",
        HTTP_IDEMPOTENCY_KEY="shared",
    )
    other = client.post(
        f"/api/v1/games/{world.game.pk}/hands/",
        {"hand": ron(winner=1, loser=2), "version": 0},
        format="json",
        HTTP_IDEMPOTENCY_KEY="shared",
    )
    assert other.status_code == 422
    assert Penalty.objects.count() == 1
    assert Hand.objects.count() == 0


def test_json_body_compared_canonically(world: World) -> None:
    """Key order and whitespace do not make a retry a different request."""
    client = world.client("referee")
    url = f"/api/v1/games/{world.game.pk}/hands/"
    first = client.generic(
        "POST",
        url,
        '{"version": 0, "hand": {"outcome": "ron", "loser": 2, "riichi": [], '
        '"wins": [{"winner": 1, "han": 1, "fu": 30}]}}',
        content_type="application/json",
        HTTP_IDEMPOTENCY_KEY="canon",
    )
    retry = client.generic(
        "POST",
        url,
        '{"hand":{"wins":[{"fu":30,"han":1,"winner":1}],"riichi":[],"loser":2,"outcome":"ron"},'
        '"version":0}',
        content_type="application/json",
        HTTP_IDEMPOTENCY_KEY="canon",
    )
    assert first.status_code == retry.status_code == 201
    assert retry["Idempotent-Replayed"] == "true"
    assert Hand.objects.count() == 1


def test_overlong_key_is_400(world: World) -> None:
    response = world.client("referee").post(
        f"/api/v1/games/{world.game.pk}/hands/",
        {"hand": ron(winner=1, loser=2), "version": 0},
        format="json",
        HTTP_IDEMPOTENCY_KEY="k" * 201,
    )
    assert response.status_code == 400
    assert response.json()["field"] == "Idempotency-Key"
    assert Hand.objects.count() == 0


def test_concurrent_request_with_the_same_key_keeps_neither_write_twice(world: World) -> None:
    """If another request stored the key first (unique constraint), this write is undone."""
    with mock.patch.object(
        IdempotencyRecord.objects, "create", side_effect=IntegrityError("duplicate key")
    ):
        response = world.client("referee").post(
            f"/api/v1/games/{world.game.pk}/hands/",
            {"hand": ron(winner=1, loser=2), "version": 0},
            format="json",
            HTTP_IDEMPOTENCY_KEY="race",
        )
    assert response.status_code == 409
    assert response.json()["field"] == "Idempotency-Key"
    assert Hand.objects.count() == 0
