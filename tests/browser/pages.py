"""Helpers for the browser tests: a logged-in page, the phone viewport."""

from __future__ import annotations

import time
from typing import Any

PHONE = {"width": 390, "height": 844}


def logged_in_page(chromium: Any, live_server: Any, user: Any, *, viewport: dict[str, int]) -> Any:
    """A page whose browser context carries a session cookie for `user` (no login form)."""
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    context = chromium.new_context(viewport=viewport, locale="en-GB")
    context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": cookie.value, "url": live_server.url}]
    )
    return context.new_page()


def wait_until(page: Any, expression: str, *, timeout: float = 15.0) -> Any:
    """Poll `expression` (JavaScript) in the page until it is truthy, and return its value.

    Not `page.wait_for_function`: Playwright runs that predicate through `new Function`, which
    the Content-Security-Policy (no 'unsafe-eval', issue 16) refuses. `page.evaluate` is sent
    through the DevTools protocol, outside the page's policy.
    """
    deadline = time.monotonic() + timeout
    while True:
        value = page.evaluate(expression)
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"still false after {timeout} s: {expression}")
        page.wait_for_timeout(50)
