"""Helpers for the browser tests: a logged-in page, the phone viewport."""

from __future__ import annotations

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
