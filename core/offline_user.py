"""Whose pages the offline worker keeps on a phone (issue 30.5: a shared phone showed the last
referee's pages to the next user).

Every HTML page says who is logged in, as an opaque marker (empty when nobody is): the
`X-Hanchan-User` header, which the service worker reads on the pages it fetches, and the
body's `data-offline-user`, which static/js/site.js posts to the worker from every page (the
login and logged-out pages too, which lie outside the worker's scope). The worker keeps the
referee pages in one cache per marker and drops every other user's when the marker changes:
offline it serves a page only from the cache of the user last seen (templates/scoring/sw.js).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.utils.crypto import salted_hmac
from django.utils.functional import SimpleLazyObject

HEADER = "X-Hanchan-User"


def marker(user: Any) -> str:
    """An opaque, stable name of `user` for the phone's caches; "" for nobody."""
    if user is None or not getattr(user, "is_authenticated", False):
        return ""
    return salted_hmac("hanchan.offline-user", str(user.pk)).hexdigest()[:20]


def context(request: HttpRequest) -> dict[str, Any]:
    """Template context processor: `offline_user`, the marker of the request's user."""
    return {"offline_user": SimpleLazyObject(lambda: marker(getattr(request, "user", None)))}


class OfflineUserMiddleware:
    """`X-Hanchan-User` on every HTML response (after authentication)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if str(response.get("Content-Type", "")).startswith("text/html"):
            response.headers.setdefault(HEADER, marker(getattr(request, "user", None)))
        return response
