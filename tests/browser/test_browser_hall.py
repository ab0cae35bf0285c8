"""Issue 18 (3): the hall clock follows a pause and an extension made in the console; the
projector standings page turns its pages by itself."""

from __future__ import annotations

import datetime
import re
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from tests.browser.pages import logged_in_page
from tests.factories import PlayerFactory, SessionFactory, StaffRoleFactory, TournamentFactory
from tournaments.models import Session, StaffRole, StandingRow, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PROJECTOR = {"width": 1280, "height": 720}


def test_hall_clock_follows_the_console(chromium: Any, live_server: Any, artifacts: Path) -> None:
    """EMA 2025 7.4: the clock shows the time left and the 15-minute signal."""
    tournament: Any = TournamentFactory(
        name="Clock Cup", slug="clock-cup", status=Tournament.Status.RUNNING
    )
    SessionFactory(
        tournament=tournament,
        number=1,
        status=Session.Status.RUNNING,
        duration_minutes=90,
        started_at=timezone.now() - datetime.timedelta(minutes=30),
    )
    organiser: Any = StaffRoleFactory(tournament=tournament, role=StaffRole.Role.ORGANISER).user
    console = logged_in_page(
        chromium, live_server, organiser, viewport={"width": 1280, "height": 800}
    )
    hall = console.context.browser.new_context(viewport=PROJECTOR).new_page()
    hall.goto(f"{live_server.url}/t/clock-cup/clock/")
    countdown = hall.locator("#hall-countdown")
    # The page ticks: 60 minutes left, shown as minutes:seconds.
    expect(hall.locator("#hall-countdown")).to_have_text(re.compile(r"^(59|60):\d\d$"))
    hall.screenshot(path=str(artifacts / "hall-clock.png"))

    console.goto(f"{live_server.url}/t/clock-cup/console/sessions/1/")
    console.locator("#pause-clock").click()
    console.wait_for_selector("#resume-clock")
    hall.reload()
    assert "The clock is paused." in hall.locator("#hall-clock").inner_text()
    console.locator("#resume-clock").click()
    console.wait_for_selector("#pause-clock")
    console.fill("#extend-minutes", "20")
    console.locator("#extend-clock").click()
    console.wait_for_selector(".messages li.success")
    assert "20 minutes added." in console.locator(".messages").inner_text()
    hall.reload()
    expect(hall.locator("#hall-countdown")).to_have_text(re.compile(r"^1:(19|20):\d\d$"))
    assert re.match(r"^1:(19|20):\d\d$", countdown.inner_text())


def test_projector_standings_pages_through_the_rows(
    chromium: Any, live_server: Any, artifacts: Path
) -> None:
    tournament: Any = TournamentFactory(
        name="Big Open", slug="big-open", status=Tournament.Status.RUNNING
    )
    for rank in range(1, 41):
        StandingRow.objects.create(
            tournament=tournament,
            player=PlayerFactory(first_name="Player", last_name=f"Number{rank:02d}"),
            rank=rank,
            total=50_000 - 1000 * rank,
            games=3,
        )
    page = chromium.new_context(viewport=PROJECTOR).new_page()
    page.goto(f"{live_server.url}/t/big-open/standings/projector/?seconds=60")
    visible = page.locator("#hall-standings tbody tr:not([hidden])")
    first = visible.count()
    assert 5 <= first < 40  # a screenful, not everything
    assert visible.first.inner_text().startswith("1")
    assert re.match(r"Page 1 of \d+", page.locator("#hall-page").inner_text())
    # Every visible row is inside the window: nothing to scroll on a projector.
    last_bottom = visible.last.bounding_box()["y"] + visible.last.bounding_box()["height"]
    assert last_bottom <= PROJECTOR["height"]
    page.screenshot(path=str(artifacts / "hall-standings.png"))
    page.evaluate("window.hallStandingsNext()")
    assert page.locator("#hall-page").inner_text().startswith("Page 2 of")
    assert visible.first.inner_text().startswith(str(first + 1))
