"""Issue 21: the referee's entry page keeps working when the hall's Wi-Fi drops.

Chromium goes offline (`context.set_offline(True)`) mid-game; hands confirmed meanwhile wait
in the phone's IndexedDB with their Idempotency-Key and the game version they were entered
against, survive a reload, the phone sleeping and a browser restart, and arrive in order,
exactly once, when the connection returns. A second referee's entry meanwhile is a conflict
shown with both sides; a game finalized meanwhile is refused, shown, never overwritten.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError

from core.models import IdempotencyRecord
from scoring.models import Game
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS
from tests.browser.pages import PHONE, logged_in_page, wait_until
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

# Without Background Sync only the page sends the queue (page.route sees every request).
NO_BACKGROUND_SYNC = (
    "Object.defineProperty(ServiceWorkerRegistration.prototype, 'sync', { get: () => undefined });"
)
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
    assert page.evaluate("navigator.serviceWorker.ready.then(() => true)")  # installed
    page.goto(f"{live_server.url}/games/{game.pk}/entry/")
    wait_until(page, "navigator.serviceWorker.controller !== null")
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
        # Issue 33: offline, the phone previews the hand from its own payment table.
        page.wait_for_selector("#preview-table")
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
    assert page.locator("#hands tbody tr").count() == 3


def _go_offline_with(page: Any, hands: list[dict[str, Any]]) -> None:
    page.context.set_offline(True)
    page.wait_for_selector("#net-status[data-state='offline']")
    for number, hand in enumerate(hands):
        win = hand["wins"][0]
        tap_ron(page, win["winner"], hand["loser"], win["han"], win["fu"])
        page.locator("#confirm-hand").click()
        queued(page, number + 1)


def test_another_referees_entry_meanwhile_is_a_conflict_with_both_sides(
    chromium: Any, live_server: Any, artifacts: Path
) -> None:
    from scoring.services import enter_hand

    game, referee = _table()
    page = logged_in_page(chromium, live_server, referee, viewport=PHONE)
    open_entry_online(page, live_server, game)
    mine = [ron(1, 2, 2), ron(2, 3, 3)]
    _go_offline_with(page, mine)

    # Meanwhile a second referee at the same table enters a hand of their own.
    second: Any = StaffRoleFactory(
        tournament=game.table.session.tournament, role=StaffRole.Role.REFEREE
    ).user
    theirs = ron(0, 1, 4)
    enter_hand(actor=second, game=game, hand=theirs, expected_version=0)

    page.context.set_offline(False)
    conflict = page.locator("#offline-conflict[data-kind='conflict']")
    conflict.wait_for()
    page.wait_for_selector("#net-status[data-state='conflict'][data-queued='2']")
    assert "Another referee changed this game meanwhile." in conflict.inner_text()
    # Both sides: the server's new hand (and scores), and the phone's two hands.
    assert page.locator("#offline-server-hands li").all_text_contents() == [
        "Ron: Anna Adler 4 han 30 fu from Ben Berg"
    ]
    assert "Scores: 42000 / 18000 / 30000 / 30000" in conflict.inner_text()
    assert page.locator("#offline-your-hands li").all_text_contents() == [
        "Ron: Ben Berg 2 han 30 fu from Clara Claus",
        "Ron: Clara Claus 3 han 30 fu from David Dorn",
    ]
    page.screenshot(path=str(artifacts / "offline-conflict-390.png"), full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    # Nothing of the phone's was applied: only the other referee's hand is on the server.
    game.refresh_from_db()
    assert [h.data for h in game.hands.order_by("number")] == [theirs]

    # The referee keeps the server's hand and sends theirs after it.
    page.locator("#offline-send-mine").click()
    page.wait_for_selector("#net-status[data-state='online'][data-queued='0']")
    game.refresh_from_db()
    assert [h.data for h in game.hands.order_by("number")] == [theirs, *mine]
    assert game.version == 3


def test_a_conflict_resolved_by_discarding_the_phones_hands(
    chromium: Any, live_server: Any
) -> None:
    from scoring.services import enter_hand

    game, referee = _table()
    page = logged_in_page(chromium, live_server, referee, viewport=PHONE)
    open_entry_online(page, live_server, game)
    _go_offline_with(page, [ron(1, 2, 2)])
    theirs = ron(1, 2, 2, 40)  # the same hand, entered right (40 fu) by the other referee
    enter_hand(actor=referee, game=game, hand=theirs, expected_version=0)

    page.context.set_offline(False)
    page.locator("#offline-conflict[data-kind='conflict']").wait_for()
    page.locator("#offline-discard-mine").click()
    page.wait_for_selector("#net-status[data-state='online'][data-queued='0']")
    page.wait_for_selector("#offline-queue[hidden]", state="attached")
    game.refresh_from_db()
    assert [h.data for h in game.hands.order_by("number")] == [theirs]
    assert page.locator("#hands tbody tr").count() == 1


def test_a_game_finalized_meanwhile_refuses_the_waiting_hands_and_says_so(
    chromium: Any, live_server: Any, artifacts: Path
) -> None:
    from scoring.services import enter_hand, finalize_game

    game, referee = _table()
    page = logged_in_page(chromium, live_server, referee, viewport=PHONE)
    open_entry_online(page, live_server, game)
    _go_offline_with(page, [ron(2, 3, 2)])
    organiser: Any = StaffRoleFactory(
        tournament=game.table.session.tournament, role=StaffRole.Role.ORGANISER
    ).user
    enter_hand(actor=organiser, game=game, hand=ron(3, 0, 1, 40), expected_version=0)
    game.refresh_from_db()
    # EMA 2025 7.4: the organiser stops the game on time before the signal, with a reason.
    finalize_game(
        actor=organiser,
        game=game,
        expected_version=game.version,
        end="time",
        reason="Head referee stopped the table",
    )

    page.context.set_offline(False)
    conflict = page.locator("#offline-conflict[data-kind='finalized']")
    conflict.wait_for()
    assert "This game was finalized meanwhile" in conflict.inner_text()
    assert page.locator("#offline-your-hands li").all_text_contents() == [
        "Ron: Clara Claus 2 han 30 fu from David Dorn"
    ]
    # No way to push the hand into a finished game from here: only discard.
    assert page.locator("#offline-send-mine").count() == 0
    page.screenshot(path=str(artifacts / "offline-finalized-390.png"), full_page=True)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.hands.count() == 1
    page.locator("#offline-discard-mine").click()
    page.wait_for_selector("#net-status[data-state='online'][data-queued='0']")
    page.wait_for_selector("text=This game is finalized.")
    assert game.hands.count() == 1


def test_a_lost_answer_is_retried_with_the_same_key_and_applied_once(
    chromium: Any, live_server: Any
) -> None:
    """The hand reaches the server but its answer is lost: the retry carries the same
    Idempotency-Key, gets the stored answer back, and the hand is there once (core.idempotency)."""
    game, referee = _table()
    page = logged_in_page(chromium, live_server, referee, viewport=PHONE)
    # The page sends (the route below sees its requests); no Background Sync from the worker.
    page.context.add_init_script(NO_BACKGROUND_SYNC)
    open_entry_online(page, live_server, game)
    _go_offline_with(page, [ron(1, 2, 2), ron(2, 3, 3)])

    seen: list[tuple[str, str]] = []

    def lose_first_answer(route: Any) -> None:
        request = route.request
        seen.append((request.headers.get("idempotency-key", ""), request.post_data or ""))
        response = route.fetch()  # the server applies the hand...
        if len(seen) == 1:
            route.abort("connectionreset")  # ...but the phone never hears back
        else:
            route.fulfill(response=response)

    page.route("**/api/v1/games/*/hands/", lose_first_answer)
    page.context.set_offline(False)
    page.wait_for_selector("#net-status[data-state='online'][data-queued='0']")
    game.refresh_from_db()
    assert [h.data for h in game.hands.order_by("number")] == [ron(1, 2, 2), ron(2, 3, 3)]
    assert game.version == 2
    # Three requests: the lost one, its retry with the same key and body, then the second hand.
    assert len(seen) == 3
    assert seen[0] == seen[1]
    assert seen[2][0] != seen[0][0]
    assert IdempotencyRecord.objects.filter(user=referee).count() == 2


def _persistent_context(chromium: Any, live_server: Any, user: Any, profile: Path) -> Any:
    """A browser with a profile on disk (as a phone keeps one), logged in as `user`."""
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(user)
    context = chromium.browser_type.launch_persistent_context(
        str(profile),
        executable_path=str(CHROMIUM),
        headless=True,
        args=CHROMIUM_ARGS,
        viewport=PHONE,
        locale="en-GB",
    )
    context.add_cookies(
        [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                "url": live_server.url,
                "expires": time.time() + 3600,  # a persistent cookie, kept across restarts
            }
        ]
    )
    return context


def test_the_queue_survives_a_browser_restart(
    chromium: Any, live_server: Any, tmp_path: Path
) -> None:
    game, referee = _table()
    profile = tmp_path / "profile"

    def launch() -> Any:
        return _persistent_context(chromium, live_server, referee, profile)

    context = launch()
    page = context.pages[0] if context.pages else context.new_page()
    open_entry_online(page, live_server, game)
    _go_offline_with(page, [ron(1, 2, 2), ron(2, 3, 3)])
    context.close()  # the browser is closed with two hands waiting
    assert game.hands.count() == 0

    context = launch()
    try:
        context.set_offline(True)
        page = context.pages[0] if context.pages else context.new_page()
        page.goto(f"{live_server.url}/games/{game.pk}/entry/")  # from the phone's cache
        page.wait_for_selector("#net-status[data-state='offline']")
        # Playwright's offline switch reaches the page, not always the service worker: the
        # background sync left pending before the restart may deliver part of the queue while
        # the browser starts (seen in CI). Either way each hand must arrive once, in order.
        context.set_offline(False)
        page.wait_for_selector("#net-status[data-state='online'][data-queued='0']")
        game.refresh_from_db()
        assert [h.data for h in game.hands.order_by("number")] == [ron(1, 2, 2), ron(2, 3, 3)]
    finally:
        context.close()


# The Wi-Fi shows "connected" but carries nothing: the page believes it is online.
LIE_FI = "Object.defineProperty(Navigator.prototype, 'onLine', { get: () => true });"


@pytest.mark.parametrize("arrived", [False, True], ids=["lost", "arrived-answer-lost"])
def test_a_confirm_that_fails_on_a_dead_connection_is_kept_and_sent_once(
    chromium: Any, live_server: Any, arrived: bool
) -> None:
    """Confirm posts the form (the page thinks it is online) and the POST fails: the hand is
    kept in the queue (issue 33: by the page, whose request it is) and shown waiting.
    If the POST did reach the server, the hand is found there and not entered twice."""
    from scoring.services import enter_hand

    game, referee = _table()
    page = logged_in_page(chromium, live_server, referee, viewport=PHONE)
    page.context.add_init_script(LIE_FI)
    open_entry_online(page, live_server, game)
    page.context.set_offline(True)
    tap_ron(page, 1, 2, 2)
    # Issue 33: Confirm is the page's own request now (no navigation): its failure keeps the
    # hand on the phone at once, as the service worker keeps a failed form POST.
    page.locator("#confirm-hand").click()
    page.wait_for_selector("#hand-form")
    queued(page, 1)
    assert page.locator("#offline-queue-list li .grow").all_text_contents() == [
        "Ron: Ben Berg 2 han 30 fu from Clara Claus"
    ]
    assert game.hands.count() == 0
    if arrived:
        enter_hand(actor=referee, game=game, hand=ron(1, 2, 2), expected_version=0)

    page.context.set_offline(False)
    try:
        page.evaluate("window.dispatchEvent(new Event('online'))")
    except PlaywrightError as error:
        # Chromium's own "online" event may have sent the queue and reloaded the page first
        # (static/js/offline.js): then there is no page left to tell. (Flaky before: 1 in 4.)
        if "Execution context was destroyed" not in str(error):
            raise
    page.wait_for_selector("#net-status[data-state='online'][data-queued='0']")
    game.refresh_from_db()
    assert [h.data for h in game.hands.order_by("number")] == [ron(1, 2, 2)]
    assert game.version == 1
    assert page.locator("#offline-conflict:not([hidden])").count() == 0


def test_the_table_list_keeps_its_tables_for_offline_use(chromium: Any, live_server: Any) -> None:
    """Opening the table list online is enough: its tables' entry pages open offline."""
    game, referee = _table()
    page = logged_in_page(chromium, live_server, referee, viewport=PHONE)
    page.goto(f"{live_server.url}/games/referee/")
    wait_until(page, "navigator.serviceWorker.controller !== null")
    entry = f"{live_server.url}/games/{game.pk}/entry/"
    # The worker fetched and kept the entry page (versioned cache names).
    assert page.evaluate(
        """async (url) => {
            while (!(await caches.match(url))) await new Promise((r) => setTimeout(r, 50));
            return true;
        }""",
        entry,
    )
    names = page.evaluate("caches.keys()")
    assert any(n.startswith("hanchan-static-") for n in names)
    assert any(n.startswith("hanchan-pages-") for n in names)
    page.context.set_offline(True)
    page.goto(entry)
    page.wait_for_selector("#hand-form")
    page.wait_for_selector("#net-status[data-state='offline']")
    # A page never opened online says how to get it.
    page.goto(f"{live_server.url}/games/{game.pk + 1000}/entry/")
    page.wait_for_selector("#offline-page")


def test_a_refused_hand_is_shown_and_can_be_discarded_alone(
    chromium: Any, live_server: Any
) -> None:
    """The server's check stays the authority: a hand the engine refuses stops the queue with
    its message; discarding it sends the hands after it."""
    game, referee = _table()
    page = logged_in_page(chromium, live_server, referee, viewport=PHONE)
    open_entry_online(page, live_server, game)
    page.context.set_offline(True)
    page.wait_for_selector("#net-status[data-state='offline']")
    # Pao on a 2-han win: the phone lets it through, the engine refuses it (WDMC: yakuman only).
    tap_ron(page, 1, 2, 2)
    page.locator(".winner-block[data-seat='1'] select[name='pao_1']").select_option("3")
    page.locator("#confirm-hand").click()
    queued(page, 1)
    _go_offline_with(page, [])
    tap_ron(page, 2, 3, 3)
    page.locator("#confirm-hand").click()
    queued(page, 2)

    page.context.set_offline(False)
    refused = page.locator("#offline-conflict[data-kind='refused']")
    refused.wait_for()
    assert "pao" in page.locator("#offline-conflict-message").inner_text()
    assert game.hands.count() == 0
    page.locator("#offline-discard-one").click()
    page.wait_for_selector("#net-status[data-state='online'][data-queued='0']")
    game.refresh_from_db()
    assert [h.data for h in game.hands.order_by("number")] == [ron(2, 3, 3)]


def test_an_ended_session_asks_to_log_in_and_keeps_the_hands(
    chromium: Any, live_server: Any
) -> None:
    from django.contrib.sessions.models import Session

    game, referee = _table()
    page = logged_in_page(chromium, live_server, referee, viewport=PHONE)
    open_entry_online(page, live_server, game)
    _go_offline_with(page, [ron(1, 2, 2)])
    # While offline, "Edit the last hand" etc. wait for the connection (none here yet: no
    # hands on the server), and the login ends on the server.
    Session.objects.all().delete()

    page.context.set_offline(False)
    page.locator("#offline-conflict[data-kind='auth']").wait_for()
    assert page.locator("#offline-conflict a.button").get_attribute("href") == (
        f"/accounts/login/?next=%2Fgames%2F{game.pk}%2Fentry%2F"
    )
    page.wait_for_selector("#net-status[data-queued='1']")
    assert game.hands.count() == 0


def test_a_no_store_page_request_offline_fails_instead_of_the_kept_copy(
    chromium: Any, live_server: Any
) -> None:
    """The queue's fresh-token request (`cache: "no-store"`) must reach the server: the kept
    entry page carries the token of its visit, so a 403 after it read as "refused" (offering
    to discard the hand) where the session had ended. Plain navigations still get the copy."""
    game, referee = _table()
    page = logged_in_page(chromium, live_server, referee, viewport=PHONE)
    open_entry_online(page, live_server, game)
    page.context.set_offline(True)
    entry = f"/games/{game.pk}/entry/"
    kept = page.evaluate(
        "url => fetch(url, {credentials: 'same-origin'}).then(r => r.status)", entry
    )
    assert kept == 200  # the worker answers with the page it keeps
    fresh = page.evaluate(
        """url => fetch(url, {credentials: 'same-origin', cache: 'no-store', redirect: 'manual'})
            .then(r => 'answered ' + r.status, e => 'failed')""",
        entry,
    )
    assert fresh == "failed"


def test_corrections_wait_for_the_connection_and_the_queue(chromium: Any, live_server: Any) -> None:
    from scoring.services import enter_hand

    game, referee = _table()
    enter_hand(actor=referee, game=game, hand=ron(1, 2, 2), expected_version=0)
    page = logged_in_page(chromium, live_server, referee, viewport=PHONE)
    open_entry_online(page, live_server, game)
    _go_offline_with(page, [ron(2, 3, 3)])
    url = page.url
    page.get_by_role("link", name="Edit the last hand").click()
    page.wait_for_selector("#offline-flash:has-text('This needs the connection')")
    assert page.url == url


def test_the_referee_pages_are_installable(chromium: Any, live_server: Any, tmp_path: Path) -> None:
    """Chromium's own installability check finds nothing missing (manifest, icons, worker)."""
    game, referee = _table()
    context = _persistent_context(chromium, live_server, referee, tmp_path / "profile")
    try:
        page = context.pages[0] if context.pages else context.new_page()
        open_entry_online(page, live_server, game)
        cdp = context.new_cdp_session(page)
        manifest = cdp.send("Page.getAppManifest")
        assert manifest["url"].endswith("/games/manifest.webmanifest")
        assert manifest["errors"] == []
        assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
    finally:
        context.close()


def test_the_worker_sends_the_queue_with_the_page_closed(chromium: Any, live_server: Any) -> None:
    """Background Sync: the referee closed the page with hands waiting; when the connection
    returns the browser wakes the service worker, which sends them in order, once."""
    game, referee = _table()
    page = logged_in_page(chromium, live_server, referee, viewport=PHONE)
    open_entry_online(page, live_server, game)
    _go_offline_with(page, [ron(1, 2, 2), ron(2, 3, 3)])
    context = page.context
    page.close()
    context.set_offline(False)

    # The browser's "connection is back" wake-up, fired through the DevTools protocol.
    other = context.new_page()
    other.goto(f"{live_server.url}/t/")  # outside the worker's scope: this page sends nothing
    cdp = context.new_cdp_session(other)
    registrations: list[dict[str, Any]] = []
    cdp.on(
        "ServiceWorker.workerRegistrationUpdated",
        lambda event: registrations.extend(event["registrations"]),
    )
    cdp.send("ServiceWorker.enable")
    scope = f"{live_server.url}/games/"

    def live_registration() -> dict[str, Any] | None:
        found = (r for r in registrations if r["scopeURL"] == scope and not r["isDeleted"])
        return next(found, None)

    deadline = time.monotonic() + 10
    while live_registration() is None and time.monotonic() < deadline:
        other.wait_for_timeout(50)  # let the protocol events arrive
    registration = live_registration()
    assert registration is not None
    cdp.send(
        "ServiceWorker.dispatchSyncEvent",
        {
            "origin": live_server.url,
            "registrationId": registration["registrationId"],
            "tag": "hanchan-queue",
            "lastChance": False,
        },
    )
    count = other.evaluate(
        """async (url) => {
            const deadline = Date.now() + 20000;
            for (;;) {
                const response = await fetch(url, { headers: { Accept: "application/json" } });
                const game = response.ok ? await response.json() : { hands: [] };
                if (game.hands.length >= 2 || Date.now() > deadline) return game.hands.length;
                await new Promise((r) => setTimeout(r, 100));
            }
        }""",
        f"/api/v1/games/{game.pk}/",
    )
    assert count == 2
    game.refresh_from_db()
    assert [h.data for h in game.hands.order_by("number")] == [ron(1, 2, 2), ron(2, 3, 3)]
    assert IdempotencyRecord.objects.filter(user=referee).count() == 2


class WorkerWatch:
    """Every running status the page's service worker goes through (DevTools)."""

    def __init__(self, page: Any) -> None:
        self.page, self.since = page, 0
        self.statuses: list[str] = []
        self.cdp = page.context.new_cdp_session(page)
        self.cdp.on("ServiceWorker.workerVersionUpdated", self._updated)
        self.cdp.send("ServiceWorker.enable")

    def _updated(self, event: dict[str, Any]) -> None:
        self.statuses.extend(v["runningStatus"] for v in event["versions"])

    def stop(self) -> None:
        """Stop the worker, as a phone's browser does after 30 s without an event."""
        self.cdp.send("ServiceWorker.stopAllWorkers")
        deadline = time.monotonic() + 10
        while not (self.statuses and self.statuses[-1] == "stopped"):
            assert time.monotonic() < deadline, self.statuses
            self.page.wait_for_timeout(20)
        self.since = len(self.statuses)

    def wait_running(self) -> None:
        deadline = time.monotonic() + 10
        while not (self.statuses and self.statuses[-1] == "running"):
            assert time.monotonic() < deadline, self.statuses
            self.page.wait_for_timeout(20)

    def woke(self) -> bool:
        """Whether it started since the last stop()."""
        self.cdp.send("ServiceWorker.enable")  # a round trip: every status sent before is here
        return any(s in ("starting", "running") for s in self.statuses[self.since :])


def test_the_pages_own_post_of_a_hand_leaves_the_worker_asleep(
    chromium: Any, live_server: Any
) -> None:
    """Issue 33: Confirm is the page's own fetch POST, which the worker never answers (its
    fetch event passes it on), yet a stopped worker was started for it and the hand waited
    for its fetch event (15 ms median here, more on a phone, whose worker sleeps between
    hands). Now the browser sends it itself (the worker's static route): the worker stays
    asleep, one POST, the hand saved once. The form's own POST (a navigation, as a refused
    hand is posted again) still reaches the worker, which keeps it when the connection fails
    under it."""
    game, referee = _table()
    page = logged_in_page(chromium, live_server, referee, viewport=PHONE)
    page.context.add_init_script(LIE_FI)
    open_entry_online(page, live_server, game)
    worker = WorkerWatch(page)
    posts: list[str] = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
    for number, (winner, loser) in enumerate([(1, 2), (2, 3)]):
        worker.stop()
        tap_ron(page, winner, loser, 2)
        page.locator("#confirm-hand").click()
        page.wait_for_selector(f"#hands tbody tr:nth-child({number + 1})")
        assert not worker.woke(), worker.statuses
    assert posts == [f"{live_server.url}/games/{game.pk}/entry/hands/"] * 2
    assert [h.data for h in game.hands.order_by("number")] == [ron(1, 2, 2), ron(2, 3, 2)]

    # The form's own POST, on a connection that carries nothing, is still the worker's: it
    # keeps the hand and sends the referee back to the entry page, where it waits (a POST the
    # browser sent itself would fail with the browser's error page).
    tap_ron(page, 3, 0, 2)
    page.evaluate("navigator.serviceWorker.controller.postMessage({type: 'hello'})")
    worker.wait_running()  # Playwright's offline switch hangs on a stopped worker
    page.context.set_offline(True)
    with page.expect_navigation():
        page.evaluate("HTMLFormElement.prototype.submit.call(document.getElementById('hand-form'))")
    queued(page, 1)
    page.context.set_offline(False)
    try:
        page.evaluate("window.dispatchEvent(new Event('online'))")
    except PlaywrightError as error:  # the page's own "online" may have reloaded it first
        if "Execution context was destroyed" not in str(error):
            raise
    page.wait_for_selector("#net-status[data-state='online'][data-queued='0']")
    game.refresh_from_db()
    assert [h.data for h in game.hands.order_by("number")][2:] == [ron(3, 0, 2)]
    assert game.version == 3
