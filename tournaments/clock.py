"""The session clock (EMA 2025 7.4): where a timed session stands, pauses and extensions
included. A pure function of the session row, shared by the console, the hall clock and the
API.

A session runs `duration_minutes` from the start signal plus the time it was paused; the
signal sounds when 15 minutes of playing time remain.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.utils import timezone

from tournaments.models import Session

SIGNAL_MINUTES = 15  # EMA 2025 7.4: a clear signal when 15 minutes remain


def paused_so_far(session: Session, now: datetime) -> timedelta:
    """All the time the session was paused, the current pause included."""
    paused = timedelta(seconds=session.paused_seconds or 0)
    if session.paused_at is not None:
        paused += max(now - session.paused_at, timedelta(0))
    return paused


def session_clock(session: Session, now: datetime | None = None) -> dict[str, Any]:
    """Where a timed session stands (EMA 2025 7.4).

    ``state``: "not_started"; "playing"; "paused" (the organiser stopped the clock);
    "signal" (15 minutes or less left: finish the current hand, then play one more);
    "time_up" (no signal at the end: tables finish the hands above); "closed".
    ``remaining`` is in seconds; ``ends_at``/``signal_at`` are where the clock would stand
    if it ran on from now (while paused they move with every second).
    """
    now = now or timezone.now()
    if session.started_at is None:
        return {
            "state": "not_started",
            "remaining": None,
            "ends_at": None,
            "signal_at": None,
            "paused": False,
            "duration_minutes": session.duration_minutes,
        }
    ends_at = (
        session.started_at
        + timedelta(minutes=session.duration_minutes)
        + paused_so_far(session, now)
    )
    signal_at = ends_at - timedelta(minutes=SIGNAL_MINUTES)
    remaining = int((ends_at - now).total_seconds())
    if session.closed_at is not None or session.status == Session.Status.CLOSED:
        state = "closed"
    elif session.paused_at is not None:
        state = "paused"
    elif now < signal_at:
        state = "playing"
    elif now < ends_at:
        state = "signal"
    else:
        state = "time_up"
    return {
        "state": state,
        "remaining": max(remaining, 0),
        "ends_at": ends_at,
        "signal_at": signal_at,
        "paused": session.paused_at is not None,
        "duration_minutes": session.duration_minutes,
    }


def hall_session(sessions: list[Session]) -> Session | None:
    """The session a hall screen shows: the running one, else the next seated, else the last
    closed (sessions in number order)."""
    for status in (Session.Status.RUNNING, Session.Status.SEATED):
        found = [s for s in sessions if s.status == status]
        if found:
            return found[0]
    closed = [s for s in sessions if s.status == Session.Status.CLOSED]
    return closed[-1] if closed else None


def table_ends_at(table: Any, session_ends_at: datetime | None) -> datetime | None:
    """A table's own end (issue 35.3): the session's plus the table's extra minutes."""
    if session_ends_at is None:
        return None
    return session_ends_at + timedelta(minutes=getattr(table, "extra_minutes", 0) or 0)


def table_signal_at(table: Any, session_signal_at: datetime | None) -> datetime | None:
    """A table's own time signal (issue 35.3): the session's plus the table's extra minutes
    (`Table.extra_minutes`, given by a referee, e.g. after a referee call delayed it)."""
    if session_signal_at is None:
        return None
    return session_signal_at + timedelta(minutes=getattr(table, "extra_minutes", 0) or 0)
