"""A referee enters a whole game on a phone-sized screen; the standings page shows it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser.pages import PHONE, logged_in_page
from tests.factories import (
    GameFactory,
    PlayerFactory,
    RegistrationFactory,
    SessionFactory,
    StaffRoleFactory,
    TableFactory,
    TournamentFactory,
)
from tournaments.models import StaffRole

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def tap_seat(page: Any, group: str, seat: int) -> None:
    page.locator(f"input[name='{group}'][value='{seat}']").check()


def test_referee_enters_a_full_game_on_a_phone(
    chromium: Any, live_server: Any, artifacts: Path
) -> None:
    tournament: Any = TournamentFactory(name="Phone Cup", slug="phone-cup")
    names = [("Anna", "Adler"), ("Ben", "Berg"), ("Clara", "Claus"), ("David", "Dorn")]
    players: list[Any] = [PlayerFactory(first_name=first, last_name=last) for first, last in names]
    for p in players:
        RegistrationFactory(tournament=tournament, player=p)
    table: Any = TableFactory(session=SessionFactory(tournament=tournament, number=1), number=1)
    game: Any = GameFactory(table=table, players=players)
    referee: Any = StaffRoleFactory(tournament=tournament, role=StaffRole.Role.REFEREE).user

    page = logged_in_page(chromium, live_server, referee, viewport=PHONE)
    page.goto(f"{live_server.url}/games/referee/")
    page.get_by_role("link", name="Table 1").click()
    page.wait_for_selector("#hand-form")
    page.screenshot(path=str(artifacts / "referee-table-390.png"))
    # No horizontal scrolling at 390 px.
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    # Eight hands, each won by the seat after the dealer: a complete east-south game;
    # seat s wins with s + 1 han, so the totals differ.
    for number in range(8):
        dealer = number % 4
        winner, loser = (dealer + 1) % 4, (dealer + 2) % 4
        page.locator("label.chip:has(input[name='outcome'][value='ron'])").click()
        page.locator(f"label.chip:has(input[name='winners'][value='{winner}'])").click()
        page.locator(f"label.chip:has(input[name='loser'][value='{loser}'])").click()
        block = page.locator(f".winner-block[data-seat='{winner}']")
        block.locator(f"label.chip:has(input[name='han_{winner}'][value='{winner + 1}'])").click()
        block.locator("label.chip:has(input[value='30'])").click()
        page.wait_for_selector("#preview table")  # the htmx payment preview arrived
        if number == 0:
            page.screenshot(path=str(artifacts / "referee-entry-390.png"))
        page.locator("#confirm-hand").click()
        page.wait_for_selector(".messages li.success")

    assert game.hands.count() == 8
    page.screenshot(path=str(artifacts / "referee-game-over-390.png"), full_page=True)
    page.locator("#finalize").click()
    page.wait_for_selector("text=This game is finalized.")

    page.goto(f"{live_server.url}/t/phone-cup/standings/")
    page.wait_for_selector("table.standings")
    text = page.locator("#standings").inner_text()
    for first, last in names:
        assert f"{first} {last}" in text
    ranks = page.locator("#standings td.rank").all_inner_texts()
    assert sorted(ranks) == ["1", "2", "3", "4"]
    page.screenshot(path=str(artifacts / "standings-390.png"), full_page=True)
    # The player's page draws the score through the game as inline SVG.
    page.locator("#standings a").first.click()
    page.wait_for_selector("svg.chart")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.screenshot(path=str(artifacts / "player-390.png"), full_page=True)
