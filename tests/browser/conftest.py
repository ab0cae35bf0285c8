"""Playwright against pytest-django's live_server, driving Debian's Chromium headless shell.

The headless shell (package chromium-headless-shell: the same Blink and V8 as `chromium`, built
without the desktop browser around them, and what Playwright itself runs for headless tests)
took 40 % less CPU than the full browser in headless mode: tests/browser -n 0, every process of
the run counted (a cgroup's cpuacct), 276.9 -> 165.7 s. A missing one is a failure with a
clear message, never a skip: CI installs it (scripts/ensure-test-tools.sh).

Every browser test records the console of every page it opens, and fails when the
Content-Security-Policy refused anything (issue 16): an inline script or style, eval, a file
from another site. The browser says so on the console ("... violates the following Content
Security Policy directive ..."), and a `securitypolicyviolation` listener, added by Playwright
outside the page's policy, reports each violation there too.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

# Playwright's sync API runs an event loop; Django's ORM refuses sync calls inside one.
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

CHROMIUM = Path("/usr/bin/chromium-headless-shell")
ARTIFACTS = Path(__file__).resolve().parent.parent / "artifacts"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]


@pytest.fixture(scope="session")
def chromium() -> Iterator[Any]:
    if not CHROMIUM.exists():
        pytest.fail(
            f"Browser tests need Chromium's headless shell at {CHROMIUM}: install it with "
            "`apt-get install -y chromium-headless-shell` (CI does).",
            pytrace=False,
        )
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        yield browser
        browser.close()


# Added to every page by Playwright (not subject to the page's policy): each refusal is logged.
REPORT_CSP_VIOLATIONS = """
document.addEventListener("securitypolicyviolation", function (e) {
  console.error("CSP violation: " + e.violatedDirective + " blocked " + (e.blockedURI || "inline")
    + " at " + e.sourceFile + ":" + e.lineNumber + " on " + document.location.pathname);
});
"""


def is_csp_violation(text: str) -> bool:
    return "Content Security Policy" in text or text.startswith("CSP violation")


class ConsoleLog:
    """The console messages of every page of every context the test opened."""

    def __init__(self) -> None:
        self.messages: list[str] = []

    def watch(self, context: Any) -> Any:
        context.add_init_script(REPORT_CSP_VIOLATIONS)
        context.on("console", lambda message: self.messages.append(message.text))
        return context

    def csp_violations(self) -> list[str]:
        return [m for m in self.messages if is_csp_violation(m)]


@pytest.fixture(autouse=True)
def console_log(chromium: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[ConsoleLog]:
    """Watches every context the test opens (`chromium.new_context`, `chromium.new_page`) and
    fails the test on a CSP violation on any of its pages."""
    log = ConsoleLog()
    new_context = chromium.new_context

    def watched_context(*args: Any, **kwargs: Any) -> Any:
        return log.watch(new_context(*args, **kwargs))

    def watched_page(*args: Any, **kwargs: Any) -> Any:
        return watched_context(*args, **kwargs).new_page()

    browser_type = chromium.browser_type
    launch_persistent = browser_type.launch_persistent_context

    def watched_persistent(*args: Any, **kwargs: Any) -> Any:
        return log.watch(launch_persistent(*args, **kwargs))

    monkeypatch.setattr(chromium, "new_context", watched_context)
    monkeypatch.setattr(chromium, "new_page", watched_page)
    monkeypatch.setattr(browser_type, "launch_persistent_context", watched_persistent)
    yield log
    violations = log.csp_violations()
    assert violations == [], "Content-Security-Policy violations:\n" + "\n".join(violations)


@pytest.fixture(autouse=True)
def _short_seating_search(short_seating_search: None) -> None:
    """The pages' seating plans search less (tests/conftest.py)."""


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


@pytest.fixture(autouse=True)
def _close_pages(chromium: Any) -> Iterator[None]:
    """Close each test's browser contexts: an idle keep-alive connection left open would be
    closed by the live server's thread during a later test, outside the shared connection."""
    yield
    for context in chromium.contexts:
        context.close()
