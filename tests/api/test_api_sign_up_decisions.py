"""/api/v1/sign-ups/{id}/ (approve, refuse, erase) and POST /api/v1/registrations/{id}/erase/:
the console's Sign-ups and registration pages over the API (issue 35; docs/sign-ups.md,
docs/privacy.md). Who may call them: tests/api/test_api_permissions.py."""

from __future__ import annotations

import json

import pytest
from rest_framework.test import APIClient

from core.audit import audit_for_tournament
from tests.factories import (
    PlayerFactory,
    RegistrationFactory,
    SignUpFactory,
    StaffRoleFactory,
    TournamentFactory,
    UserFactory,
)
from tournaments.models import Registration, SignUp, StaffRole

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser():
    return UserFactory(username="org-decisions")


@pytest.fixture
def tournament(organiser):
    t = TournamentFactory(status="registration", slug="decide-open", signup_approval=True)
    StaffRoleFactory(tournament=t, user=organiser, role=StaffRole.Role.ORGANISER)
    return t


@pytest.fixture
def staff(organiser) -> APIClient:
    client = APIClient()
    client.force_authenticate(organiser)
    return client


def pending(tournament, n: int) -> SignUp:
    return SignUpFactory(
        tournament=tournament,
        first_name=f"Pia{n}",
        last_name="Pending",
        email=f"pia{n}@example.org",
        ema_number=f"0700000{n}",
        club="Stockholm Riichi",
    )


def test_approve_and_refuse_decide_a_pending_sign_up_once(
    tournament, staff, mailoutbox, django_capture_on_commit_callbacks
):
    first, second = pending(tournament, 1), pending(tournament, 2)
    detail = staff.get(f"/api/v1/sign-ups/{first.pk}/")
    assert detail.status_code == 200
    assert detail.json()["status"] == "pending" and detail.json()["email"] == "pia1@example.org"
    with django_capture_on_commit_callbacks(execute=True):
        approved = staff.post(f"/api/v1/sign-ups/{first.pk}/approve/", {}, format="json")
        refused = staff.post(
            f"/api/v1/sign-ups/{second.pk}/refuse/", {"reason": "full"}, format="json"
        )
    assert approved.status_code == 200, approved.json()
    assert approved.json()["status"] == "registered" and approved.json()["registration"]
    assert Registration.objects.filter(tournament=tournament).count() == 1
    assert refused.json()["status"] == "refused"
    assert [m.to for m in mailoutbox] == [["pia1@example.org"], ["pia2@example.org"]]
    entry = audit_for_tournament(tournament.pk).get(action="signup.refuse")
    assert entry.reason == "full"
    again = staff.post(f"/api/v1/sign-ups/{second.pk}/approve/", {}, format="json")
    assert again.status_code == 400 and again.json()["field"] == "status"


def test_erasing_a_sign_up_leaves_a_pseudonym_and_no_contact_data(tournament, staff):
    record = pending(tournament, 3)
    answer = staff.post(f"/api/v1/sign-ups/{record.pk}/erase/", {}, format="json")
    assert answer.status_code == 200, answer.json()
    body = answer.json()
    assert body["first_name"] == "Player" and body["last_name"] != "Pending"
    assert (body["email"], body["ema_number"], body["club"]) == ("", "", "")
    trail = [json.dumps([e.before, e.after, e.reason]) for e in audit_for_tournament(tournament.pk)]
    assert trail and not any("Pia3" in entry for entry in trail)
    twice = staff.post(f"/api/v1/sign-ups/{record.pk}/erase/", {}, format="json")
    assert twice.status_code == 400 and twice.json()["field"] == "status"


def test_erasing_a_player_keeps_the_ema_number_and_is_a_site_admins_where_they_play_elsewhere(
    tournament, staff
):
    here = RegistrationFactory(
        tournament=tournament,
        player=PlayerFactory(first_name="Ola", last_name="Nordmann", ema_number="07000009"),
        club_name="Oslo Riichi",
    )
    answer = staff.post(
        f"/api/v1/registrations/{here.pk}/erase/", {"reason": "asked by mail"}, format="json"
    )
    assert answer.status_code == 200, answer.json()
    here.player.refresh_from_db()
    assert here.player.first_name == "Player" and here.player.last_name != "Nordmann"
    assert here.player.ema_number == "07000009"  # docs/privacy.md: results count under it
    assert answer.json()["club_name"] == ""
    assert audit_for_tournament(tournament.pk).get(action="player.erase").reason == "asked by mail"

    # Registered in another tournament too: an organiser's say ends at their own tournament.
    elsewhere = RegistrationFactory(tournament=tournament, player=PlayerFactory())
    RegistrationFactory(tournament=TournamentFactory(), player=elsewhere.player)
    refused = staff.post(f"/api/v1/registrations/{elsewhere.pk}/erase/", {}, format="json")
    assert refused.status_code == 403
    admin = APIClient()
    admin.force_authenticate(UserFactory(is_superuser=True, is_staff=True))
    assert admin.post(f"/api/v1/registrations/{elsewhere.pk}/erase/", {}).status_code == 200
