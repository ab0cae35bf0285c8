"""Issue 35.2: a call from a player's phone (the table's own page, no login) appears on the
console by itself (the calls fragment polls every 5 s), and the organiser acknowledges it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.pages import logged_in_page
from tests.factories import (
    GameFactory,
    PlayerFactory,
    SessionFactory,
    StaffRoleFactory,
    TableFactory,
    TournamentFactory,
)
from tournaments.models import RefereeCall, Session, StaffRole, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}


def test_call_from_a_phone_appears_in_the_console(
    chromium: Any, live_server: Any, artifacts: Path
) -> None:
    tournament: Any = TournamentFactory(
        name="Call Cup", slug="call-cup", status=Tournament.Status.RUNNING
    )
    session = SessionFactory(tournament=tournament, number=1, status=Session.Status.RUNNING)
    TableFactory(session=session, number=1)
    table = TableFactory(session=session, number=7)
    game = GameFactory(table=table, players=[PlayerFactory() for _ in range(4)])
    organiser: Any = StaffRoleFactory(tournament=tournament, role=StaffRole.Role.ORGANISER).user
    console = logged_in_page(
        chromium, live_server, organiser, viewport={"width": 1280, "height": 800}
    )
    console.goto(f"{live_server.url}/t/call-cup/console/")
    expect(console.locator("#referee-calls")).to_contain_text("No open calls.")

    phone = console.context.browser.new_context(viewport=PHONE).new_page()
    phone.goto(f"{live_server.url}/games/{game.pk}/")
    phone.locator("#call-referee").click()
    expect(phone.locator(".messages")).to_contain_text("A referee has been called to table 7.")
    phone.screenshot(path=str(artifacts / "referee-call-phone.png"))

    # The console shows it without a reload: table number and since when.
    call = console.locator("#referee-calls .referee-call")
    expect(call).to_contain_text("Table 7", timeout=12_000)
    expect(call).to_contain_text("since")
    console.screenshot(path=str(artifacts / "referee-call-console.png"))
    call.get_by_role("button", name="Acknowledge").click()
    expect(
        console.locator('#referee-calls .referee-call[data-status="acknowledged"]')
    ).to_be_visible()
    assert RefereeCall.objects.get().status == "acknowledged"


def test_call_made_offline_is_kept_and_sent_when_the_connection_returns(
    chromium: Any, live_server: Any, artifacts: Path
) -> None:
    tournament: Any = TournamentFactory(
        name="Offline Call Cup", slug="offline-call", status=Tournament.Status.RUNNING
    )
    session = SessionFactory(tournament=tournament, number=1, status=Session.Status.RUNNING)
    table = TableFactory(session=session, number=4)
    game = GameFactory(table=table, players=[PlayerFactory() for _ in range(4)])
    context = chromium.new_context(viewport=PHONE)
    phone = context.new_page()
    phone.goto(f"{live_server.url}/games/{game.pk}/")
    context.set_offline(True)
    phone.locator("#call-referee").click()
    status = phone.locator(".call-referee .call-status")
    expect(status).to_contain_text("kept on this phone")
    assert not RefereeCall.objects.exists()
    phone.screenshot(path=str(artifacts / "referee-call-offline.png"))

    context.set_offline(False)  # the browser's "online" event sends the kept call
    expect(status).to_contain_text("Your kept call has been sent")
    call = RefereeCall.objects.get()
    assert call.table_id == table.pk and call.status == "open"
    context.close()
