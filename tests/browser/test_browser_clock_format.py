"""Issue 33 item 6: the console clock showed "94:51" while the hall clock showed "1:34:43".
Both scripts now write the time left the same way (h:mm:ss from an hour on); the paused clock
(data-remaining) too. Run on a bare page in Chromium with each clock's own markup."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytestmark = [pytest.mark.browser]

JS = Path(__file__).resolve().parents[2] / "static" / "js"


def _shown(chromium: Any, markup: str, script: str, remaining: int) -> str:
    page = chromium.new_page()
    try:
        page.set_content(
            f"<!doctype html><body>{markup.format(remaining=remaining)}</body>",
        )
        page.add_script_tag(path=str(JS / script))
        return str(page.evaluate("document.querySelector('[data-remaining]').textContent"))
    finally:
        page.context.close()


CONSOLE = '<div id="countdown" data-remaining="{remaining}" data-paused="1"></div>'
HALL = (
    '<div id="hall-clock" data-state="paused"><div id="hall-countdown" data-ends="x" '
    'data-remaining="{remaining}" data-paused="1"></div></div>'
)


@pytest.mark.parametrize(
    ("remaining", "text"), [(94 * 60 + 51, "1:34:51"), (3600, "1:00:00"), (14 * 60 + 5, "14:05")]
)
def test_console_and_hall_show_the_time_left_alike(
    chromium: Any, remaining: int, text: str
) -> None:
    assert _shown(chromium, CONSOLE, "session-clock.js", remaining) == text
    assert _shown(chromium, HALL, "hall-clock.js", remaining) == text
