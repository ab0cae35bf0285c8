"""Issue 33: a referee's tap was lost right after a Confirm. A tap is a press and a release on
the same chip; when the page moved between the two, the release landed on another element, the
browser clicked their common ancestor and the chip stayed as it was. Two things moved it: the
sticky scoreboard folding 117 px shorter once the page scrolled past 40 px (a focus scroll on
the press was enough), and Confirm's answer arriving during the press (the page jumped back to
the top and "Hand saved." pushed the form down). Here each happens between press and release,
with the mouse held down (page.mouse, no retries): the chip is checked and nothing in the form
moved (PerformanceObserver 'layout-shift', counted with or without recent input)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.pages import PHONE, logged_in_page
from tests.browser.test_browser_offline import _table
from tests.browser.test_browser_offline_scoreboard import HANDS, tap

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Every layout shift that moves something in the hand form (sources are the shifted nodes).
WATCH_FORM_SHIFTS = """() => {
  window.formShifts = [];
  const form = document.getElementById('hand-form');
  new PerformanceObserver(list => list.getEntries().forEach(entry => {
    const moved = entry.sources.some(s => s.node && form.contains(s.node));
    if (moved) window.formShifts.push(entry.value);
  })).observe({type: 'layout-shift'});
}"""
TWO_FRAMES = "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"
CHIP = "label.chip:has(input[name='outcome'][value='draw'])"
CHIP_TOP = (
    "() => document.querySelector(\"input[name='outcome'][value='draw']\")"
    ".getBoundingClientRect().top + scrollY"
)


def _entry(chromium: Any, live_server: Any) -> Any:
    game, referee = _table()
    page = logged_in_page(chromium, live_server, referee, viewport=PHONE)
    page.goto(f"{live_server.url}/games/{game.pk}/entry/")
    page.wait_for_selector("#net-status[data-state='online']")
    return page


def _press(page: Any) -> None:
    box = page.locator(CHIP).bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()


def _released_on_the_chip(page: Any, top: float) -> None:
    assert page.evaluate(CHIP_TOP) == top  # the chip stayed where it was in the page
    assert page.evaluate("window.formShifts") == []  # nothing in the form moved meanwhile
    page.mouse.up()
    assert page.locator("input[name='outcome'][value='draw']").is_checked()


def test_a_tap_pressed_as_the_scoreboard_folds_lands_on_its_chip(
    chromium: Any, live_server: Any
) -> None:
    page = _entry(chromium, live_server)
    page.evaluate("window.scrollTo(0, 35)")
    page.evaluate(TWO_FRAMES)
    assert "compact" not in page.locator("#scoreboard").get_attribute("class")
    top = page.evaluate(CHIP_TOP)
    page.evaluate(WATCH_FORM_SHIFTS)
    _press(page)
    page.evaluate("window.scrollTo(0, 45)")  # as a focus scroll on the press does: 10 px
    page.evaluate(TWO_FRAMES)
    assert "compact" in page.locator("#scoreboard").get_attribute("class")
    assert page.evaluate("scrollY") == 45
    _released_on_the_chip(page, top)


def test_a_tap_pressed_while_confirm_is_answered_lands_on_its_chip(
    chromium: Any, live_server: Any
) -> None:
    page = _entry(chromium, live_server)
    held: list[Any] = []
    # Confirm's answer waits until the test releases it.
    page.route("**/entry/hands/", lambda route: held.append(route))
    tap(page, HANDS[0])
    with page.expect_request("**/entry/hands/"):
        page.locator("#confirm-hand").click()
    page.evaluate(TWO_FRAMES)
    top = page.evaluate(CHIP_TOP)
    page.evaluate(WATCH_FORM_SHIFTS)
    _press(page)  # the next hand's first tap, pressed while the answer is on its way
    held[0].fulfill(response=held[0].fetch())
    page.wait_for_selector(".messages li.success")
    page.evaluate(TWO_FRAMES)
    _released_on_the_chip(page, top)
    page.unroute("**/entry/hands/")
