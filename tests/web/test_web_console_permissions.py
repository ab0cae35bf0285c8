"""Every page and write of the organiser console is its tournament's organisers' alone (least
privilege): a referee of the tournament is refused (403), an anonymous visitor is sent to log
in, another tournament's organiser is refused, and an object of another tournament is not
found (404) even by an organiser. Nothing is written by a refused request (audit trail)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from core.models import AuditEntry
from tests.factories import (
    PenaltyFactory,
    RegistrationFactory,
    SessionFactory,
    StaffRoleFactory,
    TournamentFactory,
)
from tournaments.models import SeatingPlan, StaffRole, Tournament

pytestmark = pytest.mark.django_db

# URL name -> its arguments after the slug (objects made by `objects`), and whether GET is a page.
PAGES = ["console", "registrations", "staff", "seating_console", "penalties"]
OBJECT_PAGES = {"registration_edit": "registration", "seating_plan": "plan", "session": "session"}
POSTS = [
    "set_status",
    "standings_settings",
    "time_zone_settings",
    "publish",
    "seating_swap",
    "seating_upload",
]
POSTS += ["penalty_table"]
OBJECT_POSTS = {
    "drop": "registration",
    "staff_remove": "staff",
    "penalty_cancel": "penalty",
    "session_clock": "session",
}


def objects(tournament: Tournament) -> dict[str, Any]:
    return {
        "registration": RegistrationFactory(tournament=tournament).pk,
        "staff": StaffRoleFactory(tournament=tournament, role=StaffRole.Role.REFEREE).pk,
        "penalty": PenaltyFactory(tournament=tournament).pk,
        "session": SessionFactory(tournament=tournament, number=1).number,
        "plan": SeatingPlan.objects.create(tournament=tournament, mode="random").pk,
    }


def urls(tournament: Tournament, of: dict[str, Any]) -> list[tuple[str, str, bool]]:
    """(method, URL, whether it names an object) of every console page and write."""
    slug = tournament.slug
    found = [("get", reverse(f"tournaments:{n}", args=[slug]), False) for n in PAGES]
    found += [("post", reverse(f"tournaments:{n}", args=[slug]), False) for n in PAGES + POSTS]
    for name, kind in {**OBJECT_PAGES, **OBJECT_POSTS}.items():
        url = reverse(f"tournaments:{name}", args=[slug, of[kind]])
        found += [("post", url, True)] + ([("get", url, True)] if name in OBJECT_PAGES else [])
    for action in ("start", "close", "reopen"):
        url = reverse("tournaments:session_action", args=[slug, of["session"], action])
        found.append(("post", url, True))
    return found


DATA = {"reason": "x", "action": "pause", "status": "running", "minutes": "5"}


def test_referees_anonymous_and_other_organisers_are_refused(
    referee_client: Client, client: Client, tournament: Tournament
) -> None:
    of = objects(tournament)
    elsewhere = StaffRoleFactory(role=StaffRole.Role.ORGANISER).user
    other_organiser = Client()
    other_organiser.force_login(elsewhere)
    audited = AuditEntry.objects.count()
    for method, url, _object in urls(tournament, of):
        data = DATA if method == "post" else {}
        assert getattr(referee_client, method)(url, data).status_code == 403, url
        assert getattr(other_organiser, method)(url, data).status_code == 403, url
        answer = getattr(client, method)(url, data)
        assert answer.status_code == 302 and "/login" in answer["Location"], url
    assert AuditEntry.objects.count() == audited


def test_another_tournaments_objects_are_not_found_by_an_organiser(
    organiser_client: Client, tournament: Tournament
) -> None:
    other = TournamentFactory(slug="elsewhere")
    of = objects(other)  # their ids, asked for under this tournament's slug
    audited = AuditEntry.objects.count()
    for method, url, names_object in urls(other, of):
        if names_object:
            url = url.replace("/elsewhere/", f"/{tournament.slug}/")
            assert getattr(organiser_client, method)(url, DATA).status_code == 404, url
    assert AuditEntry.objects.count() == audited


def test_writes_without_a_page_take_posts_only(
    organiser_client: Client, tournament: Tournament
) -> None:
    of = objects(tournament)
    for name in POSTS:
        url = reverse(f"tournaments:{name}", args=[tournament.slug])
        assert organiser_client.get(url).status_code == 405, url
    for name, kind in OBJECT_POSTS.items():
        url = reverse(f"tournaments:{name}", args=[tournament.slug, of[kind]])
        assert organiser_client.get(url).status_code == 405, url
