"""Issue 33.3: a tournament's time zone is an API field: organisers set it when creating the
tournament and change it later (PATCH), an IANA name or a 400 naming `time_zone` with
nothing saved; everyone who sees the tournament reads it."""

from __future__ import annotations

from typing import Any

import pytest

from core.models import AuditEntry
from tests.api.conftest import World, client_for
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def test_organiser_creates_and_changes_the_time_zone(world: World) -> None:
    organiser = world.user("organiser")
    created = client_for(organiser).post(
        "/api/v1/tournaments/",
        {
            "name": "Tokyo Open",
            "slug": "tokyo",
            "starts_on": "2026-05-01",
            "ends_on": "2026-05-02",
            "time_zone": "Asia/Tokyo",
        },
        format="json",
    )
    assert created.status_code == 201, created.content
    assert created.json()["time_zone"] == "Asia/Tokyo"

    url = f"/api/v1/tournaments/{world.tournament.slug}/"
    assert client_for(None).get(url).json()["time_zone"] == world.tournament.time_zone
    changed = client_for(organiser).patch(url, {"time_zone": "Europe/Rome"}, format="json")
    assert changed.status_code == 200, changed.content
    assert changed.json()["time_zone"] == "Europe/Rome"
    assert Tournament.objects.get(pk=world.tournament.pk).time_zone == "Europe/Rome"
    entry = AuditEntry.objects.filter(action="tournament.update").latest("id")
    assert entry.after["time_zone"] == "Europe/Rome"


@pytest.mark.parametrize("zone", ["Mars/Olympus", "", "CEST+2"])
def test_a_time_zone_that_is_no_iana_name_is_refused(world: World, zone: Any) -> None:
    before = world.tournament.time_zone
    url = f"/api/v1/tournaments/{world.tournament.slug}/"
    bad = client_for(world.user("organiser")).patch(url, {"time_zone": zone}, format="json")
    assert bad.status_code == 400
    assert "time_zone" in bad.content.decode()
    assert Tournament.objects.get(pk=world.tournament.pk).time_zone == before


def test_only_organisers_change_the_time_zone(world: World) -> None:
    url = f"/api/v1/tournaments/{world.tournament.slug}/"
    for role in ("referee", "player"):
        answer = client_for(world.user(role)).patch(url, {"time_zone": "Asia/Tokyo"}, format="json")
        assert answer.status_code == 403, role
    assert Tournament.objects.get(pk=world.tournament.pk).time_zone != "Asia/Tokyo"
