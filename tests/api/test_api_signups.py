"""POST /api/v1/tournaments/{slug}/sign-ups/ without login (issue 35.1): the answer's status,
errors naming the field, the honeypot, the per-address rate limit, the organisers' list and
the tournament fields capacity and registration_closes."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from tests.factories import StaffRoleFactory, TournamentFactory, UserFactory
from tournaments.models import SignUp, StaffRole

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser():
    return UserFactory(username="org-signups")


@pytest.fixture
def tournament(organiser):
    t = TournamentFactory(status="registration", slug="open-spring")
    StaffRoleFactory(tournament=t, user=organiser, role=StaffRole.Role.ORGANISER)
    return t


def body(n: int, **extra):
    return {
        "first_name": f"Bea{n}",
        "last_name": f"Signer{n}",
        "country": "nl",
        "email": f"b{n}@example.org",
        "consent": True,
        **extra,
    }


URL = "/api/v1/tournaments/open-spring/sign-ups/"


def test_anonymous_sign_up_answers_the_status(
    tournament, organiser, mailoutbox, django_capture_on_commit_callbacks
):
    staff = APIClient()
    staff.force_authenticate(organiser)
    answer = staff.patch(
        "/api/v1/tournaments/open-spring/", {"capacity": 1, "signup_approval": False}, format="json"
    )
    assert answer.status_code == 200, answer.json()
    assert answer.json()["capacity"] == 1 and answer.json()["registration_closes"] is None
    client = APIClient()
    with django_capture_on_commit_callbacks(execute=True):
        first = client.post(
            URL, body(1, ema_number="04 000 001", club="Dutch Riichi"), format="json"
        )
        second = client.post(URL, body(2), format="json")
    assert first.status_code == 201, first.json()
    assert first.json() == {
        "status": "registered",
        "first_name": "Bea1",
        "last_name": "Signer1",
        "waiting_position": None,
    }
    assert second.json()["status"] == "waiting" and second.json()["waiting_position"] == 1
    assert len(mailoutbox) == 2 and "token" not in first.json()
    # The e-mail addresses: organisers only.
    assert client.get(URL).status_code == 403
    rows = staff.get(URL).json()
    assert [(r["email"], r["status"]) for r in rows] == [
        ("b1@example.org", "registered"),
        ("b2@example.org", "waiting"),
    ]
    assert rows[0]["ema_number"] == "04000001" and rows[0]["club"] == "Dutch Riichi"
    # Approval on: the next one is pending.
    staff.patch("/api/v1/tournaments/open-spring/", {"signup_approval": True}, format="json")
    assert client.post(URL, body(3), format="json").json()["status"] == "pending"


def test_sign_up_errors_name_the_field(tournament):
    client = APIClient()
    cases = [
        (body(1, consent=False), "consent"),
        (body(1, ema_number="12ab"), "ema_number"),
        ({k: v for k, v in body(1).items() if k != "email"}, "email"),
        (body(1, website="http://spam.example"), "website"),
    ]
    for data, field in cases:
        answer = client.post(URL, data, format="json")
        assert answer.status_code == 400, (field, answer.json())
        assert answer.json().get("field") == field or field in answer.json(), answer.json()
    assert client.post(URL, body(1), format="json").status_code == 201
    dup = client.post(URL, body(2, first_name="BEA1", last_name="signer1"), format="json")
    assert dup.status_code == 400 and dup.json()["field"] == "last_name"
    assert "already signed up" in dup.json()["message"]
    assert SignUp.objects.count() == 1


def test_closing_date_and_status(tournament, organiser):
    staff = APIClient()
    staff.force_authenticate(organiser)
    past = (timezone.now() - datetime.timedelta(hours=1)).isoformat()
    assert (
        staff.patch(
            "/api/v1/tournaments/open-spring/", {"registration_closes": past}, format="json"
        ).status_code
        == 200
    )
    answer = APIClient().post(URL, body(1), format="json")
    assert answer.status_code == 400 and answer.json()["field"] == "registration_closes"
    tournament.status = "draft"
    tournament.save()
    assert APIClient().post(URL, body(1), format="json").status_code == 404  # a draft is hidden


def test_rate_limit_per_address(tournament, settings):
    settings.SIGNUP_RATE_PER_HOUR = 10
    client = APIClient(REMOTE_ADDR="198.51.100.9")
    codes = [client.post(URL, body(n), format="json").status_code for n in range(11)]
    assert codes == [201] * 10 + [429]
    refused = client.post(URL, body(99), format="json")
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    other = APIClient(REMOTE_ADDR="198.51.100.10")
    assert other.post(URL, body(50), format="json").status_code == 201


def test_a_team_events_sign_up_names_its_team(tournament, organiser):
    # docs/teams.md: `team` (a name) in a team event; the organisers' list shows it; outside a
    # team event it is refused, naming the field.
    client = APIClient()
    refused = client.post(URL, body(1, team="Dragons"), format="json")
    assert refused.status_code == 400
    assert refused.json()["field"] == "team" and "not a team event" in refused.json()["message"]
    tournament.teams_enabled = True
    tournament.save(update_fields=["teams_enabled"])
    answer = client.post(URL, body(1, team="Dragons"), format="json")
    assert answer.status_code == 201, answer.json()
    staff = APIClient()
    staff.force_authenticate(organiser)
    [row] = staff.get(URL).json()
    assert row["team"] == "Dragons"
    registration = SignUp.objects.get().registration
    assert registration is not None and registration.team.name == "Dragons"
    answer = staff.get(f"/api/v1/registrations/{registration.pk}/")
    assert answer.status_code == 200 and answer.json()["team"] == "Dragons"
