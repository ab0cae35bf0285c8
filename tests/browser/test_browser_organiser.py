"""An organiser generates a seating plan, watches it finish, applies it and starts session 1."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser.pages import logged_in_page
from tests.factories import PlayerFactory, RegistrationFactory, StaffRoleFactory, TournamentFactory
from tournaments.models import Session, StaffRole, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_organiser_seats_a_session(chromium: Any, live_server: Any, artifacts: Path) -> None:
    tournament: Any = TournamentFactory(
        name="Seating Cup",
        slug="seating-cup",
        sessions_planned=2,
        status=Tournament.Status.REGISTRATION,
    )
    for i in range(8):
        RegistrationFactory(
            tournament=tournament, player=PlayerFactory(first_name=f"P{i}", last_name=f"Player{i}")
        )
    organiser: Any = StaffRoleFactory(tournament=tournament, role=StaffRole.Role.ORGANISER).user

    page = logged_in_page(chromium, live_server, organiser, viewport={"width": 1024, "height": 800})
    page.goto(f"{live_server.url}/t/seating-cup/console/seating/")
    page.select_option("#id_mode", "random")
    page.fill("#id_seed", "7")
    page.locator("#generate").click()
    # The progress bar polls the plan until it is done; then the quality report shows.
    page.wait_for_selector("#apply-plan", timeout=60_000)
    assert "Done" in page.locator("#plan-state").inner_text()
    page.screenshot(path=str(artifacts / "organiser-seating-plan.png"), full_page=True)
    page.locator("#apply-plan").click()
    page.wait_for_selector(".messages li.success")

    session = Session.objects.get(tournament=tournament, number=1)
    assert session.status == Session.Status.SEATED
    assert session.tables.count() == 2

    page.goto(f"{live_server.url}/t/seating-cup/console/sessions/1/")
    page.locator("#start-session").click()
    page.wait_for_selector("#countdown")
    page.screenshot(path=str(artifacts / "organiser-session-running.png"), full_page=True)
    session.refresh_from_db()
    assert session.status == Session.Status.RUNNING

    # Players find their table on the public page.
    page.goto(f"{live_server.url}/t/seating-cup/seating/?q=Player3")
    text = page.locator("#seating-tables").inner_text()
    assert "P3 Player3" in text
