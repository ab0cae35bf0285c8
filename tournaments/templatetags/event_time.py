"""`{% load event_time %}`: the time zone a page shows its times of day in (issue 33).

`base.html` renders its main block inside `{% timezone tournament|event_time_zone %}`: on a
tournament's pages (console, public pages, hall) every time of day is in the event's zone;
elsewhere (None) in settings.TIME_ZONE.
"""

from __future__ import annotations

from typing import Any

from django import template

register = template.Library()


@register.filter
def event_time_zone(tournament: Any) -> str | None:
    zone = getattr(tournament, "time_zone", None)
    return zone if isinstance(zone, str) and zone else None
