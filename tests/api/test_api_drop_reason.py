"""Issue 16 (finding 9): a drop reason is private to the tournament's organisers.

Why a player left ("ill", "family emergency") is not for the public, the other players or
the referees: every registration output of the API and the web pages leaves it out for them
(null in the API), and shows it to the tournament's organisers (and site admins).
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.api.conftest import ROLES, World
from tournaments.models import Registration

pytestmark = pytest.mark.django_db

REASON = "Family emergency at home"
SEES_REASON = {"organiser", "admin"}


def _drop(world: World) -> Registration:
    registration = world.tournament.registrations.earliest("id")
    registration.dropped_at = timezone.now()
    registration.drop_reason = REASON
    registration.save()
    return registration


@pytest.mark.parametrize("role", ROLES)
def test_the_registration_list_shows_the_drop_reason_to_organisers_only(
    world: World, role: str
) -> None:
    registration = _drop(world)
    response = world.client(role).get(f"/api/v1/tournaments/{world.tournament.slug}/registrations/")
    assert response.status_code == 200
    row = next(r for r in response.json() if r["id"] == registration.pk)
    assert row["dropped_at"] is not None  # that a player dropped out is public
    if role in SEES_REASON:
        assert row["drop_reason"] == REASON
    else:
        assert row["drop_reason"] is None
        assert REASON not in response.content.decode()


@pytest.mark.parametrize("role", ROLES)
def test_one_registration_shows_the_drop_reason_to_organisers_only(world: World, role: str) -> None:
    registration = _drop(world)
    response = world.client(role).get(f"/api/v1/registrations/{registration.pk}/")
    assert response.status_code == 200
    expected = REASON if role in SEES_REASON else None
    assert response.json()["drop_reason"] == expected


def test_the_organiser_who_drops_a_player_sees_the_reason(world: World) -> None:
    registration = world.tournament.registrations.earliest("id")
    response = world.client("organiser").post(
        f"/api/v1/registrations/{registration.pk}/drop/", {"reason": REASON}, format="json"
    )
    assert response.status_code == 200
    assert response.json()["drop_reason"] == REASON


@pytest.mark.parametrize("role", ROLES)
def test_no_public_or_player_page_shows_the_drop_reason(world: World, role: str) -> None:
    _drop(world)
    client = Client()
    user = world.users[role]
    if user is not None:
        client.force_login(user)
    slug = world.tournament.slug
    pages = [
        reverse("tournaments:detail", args=[slug]),
        reverse("tournaments:standings", args=[slug]),
        reverse("tournaments:seating", args=[slug]),
        reverse("tournaments:player", args=[slug, world.players[0].pk]),
        f"/games/{world.game.pk}/",
    ]
    for url in pages:
        response = client.get(url)
        assert response.status_code == 200, url
        assert REASON not in response.content.decode(), url
    console = client.get(reverse("tournaments:registrations", args=[slug]))
    if role in SEES_REASON:
        assert REASON in console.content.decode()
    else:
        assert console.status_code in (302, 403, 404)


@pytest.mark.parametrize("role", ["referee", "organiser"])
def test_the_audit_log_shows_the_reason_to_organisers_only(world: World, role: str) -> None:
    """The tournament's referees read its audit log: the drop still shows, the reason not."""
    registration = world.tournament.registrations.earliest("id")
    dropped = world.client("organiser").post(
        f"/api/v1/registrations/{registration.pk}/drop/", {"reason": REASON}, format="json"
    )
    assert dropped.status_code == 200
    response = world.client(role).get(f"/api/v1/tournaments/{world.tournament.slug}/audit/")
    assert response.status_code == 200
    entries = response.json()["results"]
    drop = next(e for e in entries if e["action"] == "registration.drop")
    assert drop["after"]["dropped_at"] is not None
    if role == "organiser":
        assert drop["reason"] == REASON and drop["after"]["drop_reason"] == REASON
    else:
        assert REASON not in response.content.decode()
