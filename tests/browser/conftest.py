"""Playwright against pytest-django's live_server, driving Debian's Chromium.

A missing /usr/bin/chromium is a failure with a clear message, never a skip: CI installs it.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

# Playwright's sync API runs an event loop; Django's ORM refuses sync calls inside one.
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

CHROMIUM = Path("/usr/bin/chromium")
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
            f"Browser tests need Chromium at {CHROMIUM}: install it with "
            "`apt-get install -y chromium` (CI does).",
            pytrace=False,
        )
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        yield browser
        browser.close()


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
