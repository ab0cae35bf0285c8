"""Issue 33 (a follow-up of issue 22): the entry page's scroll padding is the sticky bars'
height. A focused control is scrolled clear of the confirm bar (bottom) and the scoreboard
(top) by the page's scroll padding; the stylesheet's fallback said 96 px (6rem) while the
confirm bar is 59 px without a preview line and 78 or 94 px with one, and the script kept
the padding in step only on a scroll, a resize or a focus, so after a tap that grew the bar
(the preview line appears, then wraps to two lines) it stayed at the bar's old height.

Now the padding is the bar's height plus the page's --sticky-gap at every frame (a
ResizeObserver on both bars), and without JavaScript the stylesheet derives it from the same
custom properties the bar's height is built from.

Issue 18's limit holds in every preview state: the bar is at most 80 px at 390 px. Four
payments were wrapped to a second line (94 px); they now share one line, each figure whole and
a long name ending in an ellipsis."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.pages import PHONE, logged_in_page
from tests.browser.test_browser_offline import _table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# After the next frame (a ResizeObserver's callback runs before it is painted): the padding,
# the bars' heights and the gap, in CSS pixels.
MEASURE = """async (frame) => {
  if (frame) await new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)));
  const root = getComputedStyle(document.documentElement);
  const board = document.getElementById('scoreboard');
  return {
    bottom: parseFloat(root.scrollPaddingBottom),
    top: parseFloat(root.scrollPaddingTop),
    gap: parseFloat(root.getPropertyValue('--sticky-gap')),
    bar: document.querySelector('.confirm-bar').getBoundingClientRect().height,
    board: board.getBoundingClientRect().height,
    line: document.getElementById('preview-line').getClientRects().length > 0
      ? document.getElementById('preview-line').getBoundingClientRect().height : 0,
  };
}"""


# Each payment on the preview line: its figure whole (not clipped by the line or its payment),
# its name at least a few letters; the payment's text as written (name and figure).
READABLE = """() => [...document.querySelectorAll('#preview-line .pay')].map(pay => {
  const line = document.getElementById('preview-line').getBoundingClientRect();
  const box = pay.getBoundingClientRect();
  const amt = pay.querySelector('.amt'), who = pay.querySelector('.who');
  const a = amt.getBoundingClientRect();
  const whole = amt.scrollWidth <= amt.clientWidth + 0.5 && a.left >= box.left - 0.5
    && a.right <= box.right + 0.5 && a.left >= line.left - 0.5 && a.right <= line.right + 0.5;
  const named = who.getBoundingClientRect().width >= 24;
  return (whole && named ? '' : 'cut: ') + pay.textContent;
})"""


def readable(page: Any) -> list[str]:
    return list(page.evaluate(READABLE))


def chip(page: Any, name: str, value: Any) -> None:
    page.locator(f"label.chip:has(input[name='{name}'][value='{value}'])").click()


def agree(page: Any, what: str) -> dict[str, float]:
    m = page.evaluate(MEASURE, True)
    assert m["gap"] == 16, m
    # offsetHeight is whole pixels, the box is not: within a pixel.
    assert abs(m["bottom"] - (m["bar"] + m["gap"])) <= 1, (what, m)
    assert abs(m["top"] - (m["board"] + m["gap"])) <= 1, (what, m)
    return m


def test_the_scroll_padding_is_the_bars_height_after_every_tap(
    chromium: Any, live_server: Any
) -> None:
    game, referee = _table()
    page = logged_in_page(chromium, live_server, referee, viewport=PHONE)
    page.goto(f"{live_server.url}/games/{game.pk}/entry/")
    page.wait_for_selector("#net-status[data-state='online']")
    seen = {"load": agree(page, "load")}
    assert seen["load"]["line"] == 0  # no preview line yet: the bar is the button alone
    chip(page, "outcome", "draw")
    seen["one line"] = agree(page, "one line")  # "No points change hands."
    chip(page, "tenpai", 1)
    seen["four payments"] = agree(page, "four payments")  # wrapped to two lines: 94 px
    assert seen["load"]["bar"] < seen["one line"]["bar"]
    # Issue 18: the bar is at most 80 px in every state; four payments stay on one line.
    assert seen["four payments"]["line"] == seen["one line"]["line"]
    assert max(m["bar"] for m in seen.values()) <= 80, seen
    assert readable(page) == [
        f"{name} {amount}"
        for name, amount in zip(
            ("Anna Adler", "Ben Berg", "Clara Claus", "David Dorn"),
            ("-1000", "+3000", "-1000", "-1000"),
            strict=True,
        )
    ]
    page.evaluate("window.scrollTo(0, 300)")
    folded = agree(page, "folded")  # the scoreboard folds to one line once scrolled
    assert folded["board"] < seen["load"]["board"]
    chip(page, "outcome", "ron")  # "Not complete yet": one line, the bar as short as ever
    assert agree(page, "ron")["bar"] <= 80


def test_without_javascript_the_stylesheet_pads_by_the_bars_height(
    chromium: Any, live_server: Any
) -> None:
    """No script sets the padding: the stylesheet's own value, derived from the bar's custom
    properties, is the bar's height (no preview line without JavaScript) and the gap."""
    game, referee = _table()
    page = logged_in_page(chromium, live_server, referee, viewport=PHONE)
    context = chromium.new_context(
        viewport=PHONE, java_script_enabled=False, storage_state=page.context.storage_state()
    )
    try:
        plain = context.new_page()
        plain.goto(f"{live_server.url}/games/{game.pk}/entry/")
        assert plain.locator("#confirm-hand").count() == 1
        m = plain.evaluate(MEASURE, False)  # no frames are awaited without JavaScript
        assert m["line"] == 0 and m["gap"] == 16
        assert abs(m["bottom"] - (m["bar"] + m["gap"])) <= 0.5, m
    finally:
        context.close()
