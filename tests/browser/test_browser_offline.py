"""Issue 21: the referee's entry page keeps working when the hall's Wi-Fi drops.

Chromium goes offline (`context.set_offline(True)`) mid-game; hands confirmed meanwhile wait
in the phone's IndexedDB with their Idempotency-Key and the game version they were entered
against, survive a reload, the phone sleeping and a browser restart, and arrive in order,
exactly once, when the connection returns. A second referee's entry meanwhile is a conflict
shown with both sides; a game finalized meanwhile is refused, shown, never overwritten.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from club.models import IdempotencyRecord
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

NAMES = [("Anna", "Adler"), ("Ben", "Berg"), ("Clara", "Claus"), ("David", "Dorn")]


def _table() -> tuple[Any, Any]:
    tournament: Any = TournamentFactory(name="Wi-Fi Cup", slug="wifi-cup")
    players: list[Any] = [PlayerFactory(first_name=f, last_name=last) for f, last in NAMES]
    for p in players:
        RegistrationFactory(tournament=tournament, player=p)
    table: Any = TableFactory(session=SessionFactory(tournament=tournament, number=1), number=1)
    game: Any = GameFactory(table=table, players=players)
    referee: Any = StaffRoleFactory(tournament=tournament, role=StaffRole.Role.REFEREE).user
    return game, referee


def ron(winner: int, loser: int, han: int, fu: int = 30) -> dict[str, Any]:
    return {
        "outcome": "ron",
        "loser": loser,
        "riichi": [],
        "wins": [{"winner": winner, "han": han, "fu": fu}],
    }


def tap_ron(page: Any, winner: int, loser: int, han: int, fu: int = 30) -> None:
    page.locator("label.chip:has(input[name='outcome'][value='ron'])").click()
    page.locator(f"label.chip:has(input[name='winners'][value='{winner}'])").click()
    page.locator(f"label.chip:has(input[name='loser'][value='{loser}'])").click()
    block = page.locator(f".winner-block[data-seat='{winner}']")
    block.locator(f"label.chip:has(input[name='han_{winner}'][value='{han}'])").click()
    block.locator(f"label.chip:has(input[name='fu_{winner}'][value='{fu}'])").click()


def open_entry_online(page: Any, live_server: Any, game: Any) -> None:
    """Open the table list and the entry page online; the service worker then controls it."""
    page.goto(f"{live_server.url}/games/referee/")
    page.wait_for_function(
        "navigator.serviceWorker.controller !== null || navigator.serviceWorker.ready"
    )
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.goto(f"{live_server.url}/games/{game.pk}/entry/")
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    page.wait_for_selector("#net-status[data-state='online']")


def queued(page: Any, count: int) -> None:
    page.wait_for_selector(f"#net-status[data-queued='{count}']")


def test_three_hands_offline_survive_reload_and_sleep_and_arrive_once_in_order(
    chromium: Any, live_server: Any, artifacts: Path
) -> None:
    game, referee = _table()
    page = logged_in_page(chromium, live_server, referee, viewport=PHONE)
    open_entry_online(page, live_server, game)

    page.context.set_offline(True)
    page.wait_for_selector("#net-status[data-state='offline']")
    hands = [ron(1, 2, 2), ron(2, 3, 3), ron(3, 0, 1, 40)]
    for number, hand in enumerate(hands):
        tap_ron(
            page,
            hand["wins"][0]["winner"],
            hand["loser"],
            hand["wins"][0]["han"],
            hand["wins"][0]["fu"],
        )
        page.wait_for_selector(
            "#preview-offline"
        )  # the preview says it returns with the connection
        page.locator("#confirm-hand").click()
        queued(page, number + 1)
    page.screenshot(path=str(artifacts / "offline-queued-390.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert game.hands.count() == 0

    # Reload without a connection: the page comes from the phone, the queue from IndexedDB.
    page.reload()
    page.wait_for_selector("#hand-form")
    queued(page, 3)
    items = page.locator("#offline-queue-list li .grow").all_text_contents()
    assert items == [
        "Ron: Ben Berg 2 han 30 fu from Clara Claus",
        "Ron: Clara Claus 3 han 30 fu from David Dorn",
        "Ron: David Dorn 1 han 40 fu from Anna Adler",
    ]
    # The phone sleeps (the page is frozen) and wakes up, still offline.
    cdp = page.context.new_cdp_session(page)
    cdp.send("Page.setWebLifecycleState", {"state": "frozen"})
    cdp.send("Page.setWebLifecycleState", {"state": "active"})
    queued(page, 3)
    assert game.hands.count() == 0

    page.context.set_offline(False)
    page.wait_for_selector("#net-status[data-state='online'][data-queued='0']")
    page.wait_for_selector("#offline-flash:not([hidden])")
    game.refresh_from_db()
    assert [h.data for h in game.hands.order_by("number")] == hands
    assert game.version == 3
    assert IdempotencyRecord.objects.filter(user=referee).count() == 3
    # The reloaded page shows the server's table with the three hands.
    assert page.locator(".hands-list li").count() == 3
