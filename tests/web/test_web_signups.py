"""The sign-up pages (issue 35.1): the public form, the private status link (withdraw), the
organisers' list and its CSV."""

from __future__ import annotations

import csv
import io
import re

import pytest
from django.test import Client

from tests.factories import StaffRoleFactory, TournamentFactory, UserFactory
from tournaments.models import Registration, SignUp, StaffRole

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser():
    return UserFactory(username="org-web-signups")


@pytest.fixture
def tournament(organiser):
    t = TournamentFactory(status="registration", slug="web-open", capacity=1)
    StaffRoleFactory(tournament=t, user=organiser, role=StaffRole.Role.ORGANISER)
    return t


def form(n: int, **extra):
    return {
        "first_name": f"Cai{n}",
        "last_name": f"Web{n}",
        "country": "FR",
        "email": f"c{n}@example.org",
        "consent": "on",
        "website": "",
        **extra,
    }


def test_sign_up_page_to_status_link_to_withdrawal(
    tournament, organiser, mailoutbox, django_capture_on_commit_callbacks
):
    client = Client()
    page = client.get("/t/web-open/register/")
    assert page.status_code == 200
    text = page.content.decode()
    assert 'name="consent"' in text and "e-mail address is seen by the organisers only" in text
    assert 'name="website"' in text  # the honeypot
    assert "/t/web-open/register/" in client.get("/t/web-open/").content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        done = client.post("/t/web-open/register/", form(1))
        waiting = client.post("/t/web-open/register/", form(2))
    assert done.status_code == 201 and "You are registered" in done.content.decode()
    assert "waiting list (number 1)" in waiting.content.decode()
    link = re.search(r"http://\S+/t/web-open/register/[\w-]+/", mailoutbox[1].body).group(0)
    path = link.split("8000", 1)[1]
    status = client.get(path)
    assert status.status_code == 200 and 'data-status="waiting"' in status.content.decode()
    first_link = re.search(r"/t/web-open/register/[\w-]+/", mailoutbox[0].body).group(0)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(first_link)
    assert 'data-status="withdrawn"' in client.get(first_link).content.decode()
    assert 'data-status="registered"' in client.get(path).content.decode()
    assert mailoutbox[-1].to == ["c2@example.org"]
    assert client.get("/t/web-open/register/not-a-token/").status_code == 404


def test_form_errors_honeypot_and_closed(tournament):
    client = Client()
    missing = client.post("/t/web-open/register/", form(1, consent=""))
    assert missing.status_code == 400 and not SignUp.objects.exists()
    bad = client.post("/t/web-open/register/", form(1, ema_number="123"))
    assert bad.status_code == 400 and "8 digits" in bad.content.decode()
    bot = client.post("/t/web-open/register/", form(1, website="http://spam.example"))
    assert bot.status_code == 200 and not SignUp.objects.exists()
    client.post("/t/web-open/register/", form(1))
    dup = client.post("/t/web-open/register/", form(2, first_name="CAÏ1", last_name="web1"))
    assert dup.status_code == 400 and "already signed up" in dup.content.decode()
    tournament.status = "running"
    tournament.save()
    closed = client.get("/t/web-open/register/")
    assert "not open" in closed.content.decode() and 'name="consent"' not in closed.content.decode()


def test_organisers_list_approve_and_csv(tournament, organiser):
    tournament.signup_approval = True
    tournament.save()
    client = Client()
    client.post("/t/web-open/register/", form(1, ema_number="04000001"))
    client.post("/t/web-open/register/", form(2))
    assert Client().get("/t/web-open/console/sign-ups/").status_code == 302  # login first
    client.force_login(organiser)
    page = client.get("/t/web-open/console/sign-ups/")
    assert page.status_code == 200
    assert "c1@example.org" in page.content.decode()
    assert page.content.decode().count('data-status="pending"') == 2
    pk = SignUp.objects.get(first_name="Cai1").pk
    client.post("/t/web-open/console/sign-ups/", {"action": "approve", "sign_up": pk})
    assert SignUp.objects.get(pk=pk).status == "registered"
    assert Registration.objects.filter(tournament=tournament).count() == 1
    answer = client.get("/t/web-open/console/sign-ups/?format=csv")
    assert answer["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(answer.content.decode())))
    assert rows[0][:7] == [
        "first_name",
        "last_name",
        "country",
        "email",
        "ema_number",
        "club",
        "status",
    ]
    assert [r[6] for r in rows[1:]] == ["registered", "pending"]
    assert rows[1][3] == "c1@example.org" and rows[1][4] == "04000001"


def test_the_team_field_in_team_events_on_the_form_the_list_and_the_csv(tournament, organiser):
    # docs/teams.md: the form asks for the team in a team event only; the organisers' list
    # and its CSV (a last column, after the ones scripts already read) show it.
    client = Client()
    assert 'name="team"' not in client.get("/t/web-open/register/").content.decode()
    tournament.teams_enabled = True
    tournament.save(update_fields=["teams_enabled"])
    assert 'name="team"' in client.get("/t/web-open/register/").content.decode()
    assert client.post("/t/web-open/register/", form(1, team="Dragons")).status_code == 201
    assert Registration.objects.get(tournament=tournament).team.name == "Dragons"
    status = client.get(f"/t/web-open/register/{SignUp.objects.get().token}/").content.decode()
    assert "Team Dragons" in status  # the registrant's private page says which team
    # The next registrant picks from the teams there are (a new name still creates one).
    page = client.get("/t/web-open/register/").content.decode()
    assert 'list="team-names"' in page and '<option value="Dragons">' in page
    client.force_login(organiser)
    assert (
        '<td class="hide-sm">Dragons</td>'
        in client.get("/t/web-open/console/sign-ups/").content.decode()
    )
    answer = client.get("/t/web-open/console/sign-ups/?format=csv")
    rows = list(csv.reader(io.StringIO(answer.content.decode())))
    assert rows[0][-1] == "team" and rows[1][-1] == "Dragons"
