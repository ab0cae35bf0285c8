"""Issue 21.6, measured: time from tapping Confirm to "saved" online, and from reconnect to
"all sent" for 10 hands queued offline. The numbers go to tests/artifacts/offline-timings.json
(and the test output); the assertions are about the hands, which must all arrive in order."""

from __future__ import annotations

import json
import statistics
import time
from pathlib import Path
from typing import Any

import pytest

from tests.browser.pages import PHONE, logged_in_page
from tests.browser.test_browser_offline import _table, open_entry_online, queued, ron, tap_ron

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _dealer_rons(count: int) -> list[dict[str, Any]]:
    """The dealer (seat 0) keeps winning small hands, so the game goes on (renchan)."""
    return [ron(0, 1 + n % 3, 1 + n % 2) for n in range(count)]


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 1)


def test_confirm_to_saved_online_and_reconnect_to_all_sent(
    chromium: Any, live_server: Any, artifacts: Path
) -> None:
    # Online: Confirm sends the form in one request and swaps in the saved table (issue 33.4);
    # "saved" is the server's "Hand saved." there with the new hand's row.
    game, referee = _table()
    page = logged_in_page(chromium, live_server, referee, viewport=PHONE)
    open_entry_online(page, live_server, game)
    online = _dealer_rons(10)
    confirm_to_saved = []
    for hand in online:
        win = hand["wins"][0]
        tap_ron(page, 0, hand["loser"], win["han"], win["fu"])
        page.wait_for_selector("#preview table")
        page.evaluate("document.querySelectorAll('#main > .messages').forEach(n => n.remove())")
        start = time.perf_counter()
        page.locator("#confirm-hand").click()
        page.wait_for_selector(".messages li.success")
        confirm_to_saved.append(time.perf_counter() - start)
        page.wait_for_selector(f"#hands tbody tr:nth-child({len(confirm_to_saved)})")
    game.refresh_from_db()
    assert [h.data for h in game.hands.order_by("number")] == online

    # Offline: 10 hands kept on the phone, then the connection returns.
    game2, _ = _table_for(referee)
    page.goto(f"{live_server.url}/games/{game2.pk}/entry/")
    page.wait_for_selector("#net-status[data-state='online']")
    page.context.set_offline(True)
    page.wait_for_selector("#net-status[data-state='offline']")
    offline = _dealer_rons(10)
    confirm_to_queued = []
    for number, hand in enumerate(offline):
        win = hand["wins"][0]
        tap_ron(page, 0, hand["loser"], win["han"], win["fu"])
        start = time.perf_counter()
        page.locator("#confirm-hand").click()
        queued(page, number + 1)
        confirm_to_queued.append(time.perf_counter() - start)
    start = time.perf_counter()
    page.context.set_offline(False)
    page.wait_for_selector("#net-status[data-state='online'][data-queued='0']")
    all_sent = time.perf_counter() - start
    page.wait_for_selector("#offline-flash:not([hidden])")  # the reloaded table
    table_shown = time.perf_counter() - start
    game2.refresh_from_db()
    assert [h.data for h in game2.hands.order_by("number")] == offline

    timings = {
        "confirm_to_saved_online_ms": {
            "median": _ms(statistics.median(confirm_to_saved)),
            "max": _ms(max(confirm_to_saved)),
            "n": len(confirm_to_saved),
        },
        "confirm_to_queued_offline_ms": {
            "median": _ms(statistics.median(confirm_to_queued)),
            "max": _ms(max(confirm_to_queued)),
            "n": len(confirm_to_queued),
        },
        "reconnect_to_all_sent_10_hands_ms": _ms(all_sent),
        "reconnect_to_table_reloaded_ms": _ms(table_shown),
    }
    (artifacts / "offline-timings.json").write_text(json.dumps(timings, indent=1))
    print(json.dumps(timings))


def _table_for(referee: Any) -> tuple[Any, Any]:
    """A second table of the first table's tournament, refereed by the same referee."""
    from tests.factories import GameFactory, PlayerFactory, RegistrationFactory, TableFactory
    from tournaments.models import Session, Tournament

    tournament = Tournament.objects.get(slug="wifi-cup")
    session = Session.objects.get(tournament=tournament, number=1)
    players = [PlayerFactory() for _ in range(4)]
    for p in players:
        RegistrationFactory(tournament=tournament, player=p)
    return GameFactory(table=TableFactory(session=session, number=2), players=players), referee
