"""Screens for the playing hall: the session clock and the standings, for a projector.

Public like the standings (drafts only to their staff); they refresh themselves.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from tournaments.clock import SIGNAL_MINUTES, hall_session, session_clock, table_ends_at
from tournaments.models import Session
from tournaments.standings.selectors import public_standings
from tournaments.views.visibility import visible_tournament


def hall_clock(request: HttpRequest, slug: str) -> HttpResponse:
    """`/t/<slug>/clock/`: the running session's clock, full screen, with the 15-minute
    signal (EMA 2025 7.4); it asks the server again every 10 s, so a pause or an extension
    from the console shows at once."""
    tournament = visible_tournament(request, slug)
    session = hall_session(list(tournament.sessions.order_by("number")))
    clock = session_clock(session) if session is not None else None
    context = {
        "tournament": tournament,
        "session": session,
        "clock": clock,
        "signal_minutes": SIGNAL_MINUTES,
        "table_times": table_times(session, clock) if session is not None else [],
    }
    if request.headers.get("HX-Request"):
        return render(request, "tournaments/hall/_clock.html", context)
    return render(request, "tournaments/hall/clock.html", context)


def table_times(session: Session, clock: dict[str, Any] | None) -> list[dict[str, Any]]:
    """The tables with their own time (issue 35.3): extra minutes (their own end) or one more
    hand, in table order."""
    tables = session.tables.filter(Q(extra_minutes__gt=0) | Q(one_more_hand=True))
    ends_at = clock["ends_at"] if clock is not None else None
    return [
        {
            "number": t.number,
            "extra_minutes": t.extra_minutes,
            "ends_at": table_ends_at(t, ends_at) if t.extra_minutes else None,
            "one_more_hand": t.one_more_hand,
        }
        for t in tables.order_by("number")
    ]


def projector_standings(request: HttpRequest, slug: str) -> HttpResponse:
    """The standings in large print, a screenful at a time: the page turns by itself every
    few seconds (`?seconds=`, 4 to 60, default 10) and fetches fresh rows after the last."""
    tournament = visible_tournament(request, slug)
    try:
        seconds = min(max(int(request.GET.get("seconds", "10")), 4), 60)
    except ValueError:
        seconds = 10
    public = public_standings(tournament)
    context = {
        "tournament": tournament,
        "rows": public.rows,
        "hidden_from": public.hidden_from,
        "seconds": seconds,
        "provisional": tournament.status != tournament.Status.PUBLISHED,
    }
    if request.headers.get("HX-Request"):
        return render(request, "tournaments/hall/_standings_rows.html", context)
    return render(request, "tournaments/hall/standings.html", context)
