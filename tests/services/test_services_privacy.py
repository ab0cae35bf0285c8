"""Privacy (issue 35.5, docs/privacy.md): e-mail addresses removed SIGNUP_EMAIL_RETENTION_DAYS
after the event by the periodic task, seen by the organisers only; the privacy page."""

from __future__ import annotations

import datetime
import json
from typing import Any

import pytest
from django.test import Client

from core.models import AuditEntry
from tests.factories import StaffRoleFactory, TournamentFactory
from tournaments.models import SignUp, StaffRole
from tournaments.services import signups
from tournaments.services.tasks import purge_sign_up_emails

pytestmark = pytest.mark.django_db


def _sign_up(tournament: Any, n: int) -> SignUp:
    return signups.sign_up(
        tournament=tournament,
        first_name=f"Priv{n}",
        last_name="Acy",
        country="NL",
        email=f"priv{n}@example.org",
        consent=True,
    )


def test_emails_go_the_configured_days_after_the_event(settings: Any) -> None:
    settings.SIGNUP_EMAIL_RETENTION_DAYS = 30
    today = datetime.date.today()
    old = TournamentFactory(status="registration", slug="long-over")
    recent = TournamentFactory(status="registration", slug="just-over")
    gone, kept = _sign_up(old, 1), _sign_up(recent, 2)
    old.ends_on = today - datetime.timedelta(days=31)
    recent.ends_on = today - datetime.timedelta(days=30)
    old.save()
    recent.save()
    beat = settings.CELERY_BEAT_SCHEDULE["purge-sign-up-emails"]
    assert beat["task"] == purge_sign_up_emails.name
    assert purge_sign_up_emails.apply().get() == 1
    gone.refresh_from_db()
    kept.refresh_from_db()
    assert gone.email == "" and kept.email == "priv2@example.org"
    entry = AuditEntry.objects.get(action="signup.purge_emails")
    assert entry.tournament_id == old.pk and entry.after == {"emails_removed": 1}
    assert purge_sign_up_emails.apply().get() == 0  # nothing left to remove: no entry either
    assert AuditEntry.objects.filter(action="signup.purge_emails").count() == 1


def test_email_is_for_the_organisers_only(django_capture_on_commit_callbacks: Any) -> None:
    t = TournamentFactory(status="registration", slug="who-sees")
    organiser = StaffRoleFactory(tournament=t, role=StaffRole.Role.ORGANISER).user
    referee = StaffRoleFactory(tournament=t, role=StaffRole.Role.REFEREE).user
    with django_capture_on_commit_callbacks(execute=True):
        record = _sign_up(t, 3)
    address = record.email
    urls = [
        "/t/who-sees/",
        "/t/who-sees/standings/",
        "/t/who-sees/console/sign-ups/",
        "/t/who-sees/console/sign-ups/?format=csv",
        "/t/who-sees/console/registrations/",
        "/api/v1/tournaments/who-sees/sign-ups/",
        "/api/v1/tournaments/who-sees/registrations/",
        "/api/v1/tournaments/who-sees/audit/",
    ]
    seen = {}
    for who, user in (("public", None), ("referee", referee), ("organiser", organiser)):
        client = Client()
        if user is not None:
            client.force_login(user)
        seen[who] = {url for url in urls if address in client.get(url).content.decode()}
    assert seen["public"] == set() and seen["referee"] == set()
    assert seen["organiser"] == {
        "/t/who-sees/console/sign-ups/",
        "/t/who-sees/console/sign-ups/?format=csv",
        "/api/v1/tournaments/who-sees/sign-ups/",
    }
    assert address not in json.dumps(list(AuditEntry.objects.values("before", "after")))


def test_privacy_page_names_the_retention_and_the_rights(settings: Any) -> None:
    settings.SIGNUP_EMAIL_RETENTION_DAYS = 45
    settings.PRIVACY_CONTROLLER = "Riichi Example e.V."
    page = Client().get("/privacy/").content.decode()
    assert "Riichi Example e.V." in page and "45 days after the tournament" in page
    assert "download it (JSON)" in page and "pseudonym" in page
    assert 'href="/privacy/"' in Client().get("/").content.decode()


def test_a_purged_sign_up_gets_no_mail(mailoutbox: Any) -> None:
    from tournaments.services.signup_mail import send_sign_up_mail

    t = TournamentFactory(status="registration", slug="no-mail")
    record = _sign_up(t, 4)
    SignUp.objects.filter(pk=record.pk).update(email="")
    assert send_sign_up_mail(record.pk, "promoted") is False and mailoutbox == []


@pytest.mark.parametrize(
    ("language", "heading", "rights"),
    [("de", "Datenschutz", "Ihre Rechte"), ("fr", "Confidentialité", "Vos droits")],
)
def test_privacy_page_in_the_readers_language(language: str, heading: str, rights: str) -> None:
    page = Client(headers={"Accept-Language": language}).get("/privacy/").content.decode()
    assert f"<h1>{heading}</h1>" in page and rights in page
