"""Locked-out logins (django-axes): one message and Retry-After for the login page and the API
token endpoint, so both tell the user the same thing."""

from __future__ import annotations

import ipaddress
import logging
import math
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from axes.helpers import get_cool_off
from django.conf import settings
from django.contrib.auth.signals import user_login_failed
from django.core.cache import cache
from django.db.models import Sum
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import ngettext

log = logging.getLogger(__name__)

# settings.AXES_COOLOFF_TIME (15 minutes) normally says how long; without it axes would lock
# until an admin resets the account, and we still ask clients to wait this long, not forever.
FALLBACK_COOL_OFF = timedelta(minutes=15)


def retry_after_seconds(request: HttpRequest) -> int:
    """Seconds until the lock lifts: axes restarts the cool-off at each attempt, this one too."""
    cool_off = get_cool_off(request) or FALLBACK_COOL_OFF
    return math.ceil(cool_off.total_seconds())


def lockout_message(request: HttpRequest) -> str:
    minutes = math.ceil(retry_after_seconds(request) / 60)
    return ngettext(
        "This account is locked after %(limit)s failed logins. Try again in %(minutes)s minute.",
        "This account is locked after %(limit)s failed logins. Try again in %(minutes)s minutes.",
        minutes,
    ) % {"limit": settings.AXES_FAILURE_LIMIT, "minutes": minutes}


def locked_out(
    request: HttpRequest, original_response: Any = None, credentials: Any = None
) -> HttpResponse:
    """AXES_LOCKOUT_CALLABLE: the login page's answer while locked out, 429 with Retry-After."""
    context = {"message": lockout_message(request)}
    response = render(request, "registration/locked_out.html", context, status=429)
    response["Retry-After"] = str(retry_after_seconds(request))
    return response


# --- the client's address behind a proxy (issue 16.4) ---------------------------------------


def _networks() -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    return [
        ipaddress.ip_network(item, strict=False)
        for item in getattr(settings, "TRUSTED_PROXIES", [])
    ]


def _address(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(text.strip())
    except ValueError:
        return None


def client_ip(request: HttpRequest) -> str:
    """The client's address (AXES_CLIENT_IP_CALLABLE): the connecting address, unless that is
    one of ``TRUSTED_PROXIES``; then X-Forwarded-For is read from the right, skipping trusted
    proxies, and the first address no trusted proxy owns is the client. A client connecting
    directly cannot pick its address by sending the header: it is read only from a proxy."""
    remote = str(request.META.get("REMOTE_ADDR") or "")
    networks = _networks()
    peer = _address(remote)
    if peer is None or not any(peer in net for net in networks):
        return remote
    hops = [h for h in str(request.META.get("HTTP_X_FORWARDED_FOR") or "").split(",") if h.strip()]
    for hop in reversed(hops):
        address = _address(hop)
        if address is None:
            break  # a malformed hop: trust nothing to the left of it
        if not any(address in net for net in networks):
            return str(address)
    return remote


# --- a throttle per client address, across usernames (issue 16.4) --------------------------

LOGIN_PATHS = ("/accounts/login/", "/api/v1/auth/token/")


def _throttle_key(address: str) -> str:
    return f"login-failures:{address}"


def _window() -> int:
    return int(getattr(settings, "LOGIN_THROTTLE_WINDOW_SECONDS", 900))


def address_failures(address: str) -> int:
    """Failed logins from `address` in the window, across usernames: counted in the cache.

    The cache fails open (issue 30.1: with Redis down every login was a 500): when it does not
    answer, the count comes from django-axes' attempts in the database instead (the failures
    per username from this address whose last failure is within the window), so the throttle
    still holds while the cache is down."""
    try:
        return int(cache.get(_throttle_key(address)) or 0)
    except Exception:
        log.warning("cache unavailable; failed logins of an address counted in the database")
    from axes.models import AccessAttempt  # an installed app's model: imported when needed

    since = timezone.now() - timedelta(seconds=_window())
    total = AccessAttempt.objects.filter(ip_address=address, attempt_time__gte=since).aggregate(
        n=Sum("failures_since_start")
    )["n"]
    return int(total or 0)


def note_failed_login(request: HttpRequest | None) -> None:
    """A failed login from this client address (user_login_failed). With the cache down it is
    not counted here: axes keeps it in the database, which address_failures reads then."""
    if request is None:
        return
    key = _throttle_key(client_ip(request))
    window = _window()
    try:
        if cache.add(key, 1, window):
            return
        try:
            cache.incr(key)
        except ValueError:
            cache.set(key, 1, window)
    except Exception:
        log.warning("cache unavailable; a failed login is counted by axes only")


def address_throttled(request: HttpRequest) -> bool:
    limit = int(getattr(settings, "LOGIN_THROTTLE_PER_ADDRESS", 30))
    return address_failures(client_ip(request)) >= limit


_proxy_warning_due = True


def warn_about_untrusted_proxy(request: HttpRequest) -> None:
    """In production, once per process: requests come through a proxy (they carry
    X-Forwarded-For) but TRUSTED_PROXIES is empty, so every client has the proxy's address
    (issue 30.6: six bad logins with varying X-Forwarded-For locked an account for everyone)."""
    global _proxy_warning_due
    if (
        _proxy_warning_due
        and "HTTP_X_FORWARDED_FOR" in request.META
        and getattr(settings, "PRODUCTION", False)
        and not getattr(settings, "TRUSTED_PROXIES", None)
    ):
        _proxy_warning_due = False
        log.warning(
            "Requests carry X-Forwarded-For (from %s) but TRUSTED_PROXIES is not set: every "
            "client behind the proxy shares its address, and failed logins lock accounts for "
            "all of them. Set TRUSTED_PROXIES to the proxy's addresses or networks (README, "
            "Production).",
            request.META.get("REMOTE_ADDR") or "an unknown address",
        )


class LoginThrottleMiddleware:
    """Refuse login attempts (page and API token) from a client address with too many failed
    logins across any usernames: the per-account lock (username + address) cannot be used to
    lock a victim out from elsewhere, and this stops one address guessing many accounts."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if _proxy_warning_due:
            warn_about_untrusted_proxy(request)
        if request.method == "POST" and request.path in LOGIN_PATHS and address_throttled(request):
            window = int(getattr(settings, "LOGIN_THROTTLE_WINDOW_SECONDS", 900))
            minutes = math.ceil(window / 60)
            message = ngettext(
                "Too many failed logins from your address. Try again in %(minutes)s minute.",
                "Too many failed logins from your address. Try again in %(minutes)s minutes.",
                minutes,
            ) % {"minutes": minutes}
            if request.path.startswith("/api/"):
                response: HttpResponse = JsonResponse(
                    {"field": "username", "message": message, "errors": []}, status=429
                )
            else:
                response = render(
                    request, "registration/locked_out.html", {"message": message}, status=429
                )
            response["Retry-After"] = str(window)
            return response
        return self.get_response(request)


@receiver(user_login_failed)
def _count_failed_login(
    sender: Any, credentials: Any = None, request: Any = None, **kw: Any
) -> None:
    note_failed_login(request)
