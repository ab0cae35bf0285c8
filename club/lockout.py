"""Locked-out logins (django-axes): one message and Retry-After for the login page and the API
token endpoint, so both tell the user the same thing."""

from __future__ import annotations

import math
from datetime import timedelta
from typing import Any

from axes.helpers import get_cool_off
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import ngettext

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
