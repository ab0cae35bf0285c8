"""Issue 30.5: a phone shared by two referees never shows one referee's kept pages to the other.

The offline worker kept the referee pages per URL: a referee who logged out from a page
without offline.js (the tournament list here) left them on the phone, and offline they were
served to whoever came next. Now every page tells the worker who is logged in, the worker
keeps the pages per user and drops another user's, and offline it serves only the pages of the
user last seen (core/offline_user.py, static/js/site.js, templates/scoring/sw.js).
"""

from __future__ import annotations

from typing import Any

import pytest

from core.offline_user import marker
from tests.browser.pages import PHONE, logged_in_page, wait_until
from tests.browser.test_browser_offline import _table, open_entry_online
from tests.factories import StaffRoleFactory
from tournaments.models import StaffRole

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "shared-phone-30"


def kept_pages(page: Any) -> list[str]:
    return list(
        page.evaluate(
            "caches.keys().then((ks) => ks.filter((k) => k.startsWith('hanchan-pages-')))"
        )
    )


def test_the_next_referee_on_a_shared_phone_never_sees_the_last_ones_pages(
    chromium: Any, live_server: Any
) -> None:
    game, first = _table()
    first.username, first.first_name = "referee-anna", ""
    first.save()
    second: Any = StaffRoleFactory(
        tournament=game.table.session.tournament, role=StaffRole.Role.REFEREE
    ).user
    second.username = "referee-bruno"
    second.set_password(PASSWORD)
    second.save()
    entry = f"{live_server.url}/games/{game.pk}/entry/"

    page = logged_in_page(chromium, live_server, first, viewport=PHONE)
    open_entry_online(page, live_server, game)
    assert kept_pages(page)  # Anna's table list and entry page, kept on the phone
    # Anna logs out from a page that does not load offline.js.
    page.goto(f"{live_server.url}/t/")
    page.locator("form[action$='/logout/'] button").click()
    page.wait_for_selector("a[href$='/accounts/login/']")
    # Bruno logs in on the same phone.
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name='username']", "referee-bruno")
    page.fill("input[name='password']", PASSWORD)
    page.locator("main form.stack button[type='submit']").click()
    page.wait_for_selector("span.who:has-text('referee-bruno')", state="attached")
    # Anna's pages leave the phone (was: kept, and served to Bruno offline).
    wait_until(page, "caches.keys().then((ks) => !ks.some((k) => k.startsWith('hanchan-pages-')))")

    # Offline, Anna's entry page is not served to Bruno: the offline page instead.
    page.context.set_offline(True)
    page.goto(entry)
    page.wait_for_selector("#offline-page")
    assert "referee-anna" not in page.content()

    # Bruno's own pages are kept for him and shown to him offline.
    page.context.set_offline(False)
    open_entry_online(page, live_server, game)
    assert kept_pages(page) and all(k.endswith(marker(second)) for k in kept_pages(page))
    page.context.set_offline(True)
    page.goto(entry)
    page.wait_for_selector("#hand-form")
    assert "referee-bruno" in page.content() and "referee-anna" not in page.content()
