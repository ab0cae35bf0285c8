"""Issue 35.4: the player's own page on a phone (no login) renews itself: once the next
session is seated, its table shows without a reload (the panel polls every 20 s).

The page runs on Playwright's clock: the test moves it past the poll's interval instead of
waiting 20 s, and the page's own timer (htmx's `every 20s`) sends the poll."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.pages import PHONE
from tests.factories import (
    PlayerFactory,
    RegistrationFactory,
    SeatFactory,
    SessionFactory,
    TableFactory,
    TournamentFactory,
)
from tournaments.models import Session, Tournament
from tournaments.my_seat import player_token
from tournaments.views.my_seat import POLL_SECONDS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_my_seat_shows_the_next_session_by_itself(
    chromium: Any, live_server: Any, artifacts: Path
) -> None:
    tournament: Any = TournamentFactory(slug="seat-cup", status=Tournament.Status.RUNNING)
    players = [PlayerFactory() for _ in range(4)]
    for p in players:
        RegistrationFactory(tournament=tournament, player=p)
    first = SessionFactory(tournament=tournament, number=1, status=Session.Status.RUNNING)
    table = TableFactory(session=first, number=3)
    for wind, p in enumerate(players):
        SeatFactory(table=table, wind=wind, player=p)
    me = players[2]
    context = chromium.new_context(viewport=PHONE)
    phone = context.new_page()
    phone.clock.install()  # the page's timers run on a clock the test moves
    url = f"{live_server.url}/t/seat-cup/me/{player_token(tournament, me)}/"
    phone.goto(url)
    expect(phone.locator(".my-table")).to_contain_text("Table 3")
    expect(phone.locator(".my-wind")).to_have_text("West")
    phone.evaluate("window.notReloaded = true")
    polls: list[str] = []
    phone.on("request", lambda r: polls.append(r.url) if r.url == url else None)

    Session.objects.filter(pk=first.pk).update(status=Session.Status.CLOSED)
    second = SessionFactory(tournament=tournament, number=2, status=Session.Status.SEATED)
    table = TableFactory(session=second, number=9)
    for wind, p in enumerate(reversed(players)):
        SeatFactory(table=table, wind=wind, player=p)
    assert polls == []  # seconds into the 20 s interval: no poll yet
    expect(phone.locator(".my-table")).to_contain_text("Table 3")
    # No reload: the next poll brings session 2 (South: the third of four, reversed).
    with phone.expect_response(url):
        phone.clock.run_for(POLL_SECONDS * 1000)
    expect(phone.locator(".my-table")).to_contain_text("Table 9")
    expect(phone.locator(".my-wind")).to_have_text("South")
    expect(phone.locator("#my-seat")).to_contain_text("Session 2")
    assert polls == [url]
    assert phone.evaluate("window.notReloaded") is True
    phone.screenshot(path=str(artifacts / "my-seat-phone.png"))
    context.close()
