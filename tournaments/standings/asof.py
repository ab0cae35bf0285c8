"""Which standings the public sees (issue 32.3): the whole table, or the table as it stood
before a session whose results are hidden until they are announced.

Only the rule lives here (no reads): the selectors build the table it names
(`tournaments.standings.selectors.public_standings`), the caches keep their answers apart by it.
"""

from __future__ import annotations

from typing import Any

from tournaments.models import Tournament


def hidden_from(tournament: Tournament) -> int | None:
    """The first session whose results are hidden from the public, or None: nothing hidden
    (no session chosen, or the results are published, which reveals everything)."""
    return effective_hidden_from(tournament.standings_hidden_from, tournament.status)


def effective_hidden_from(session: int | None, status: Any) -> int | None:
    """`hidden_from` from the two fields alone (a tournament read as values)."""
    if session is None or status == Tournament.Status.PUBLISHED:
        return None
    return int(session)


def view_marker(session: int | None) -> str:
    """The part of a cache key naming the view: a hidden view is never served as the whole
    table, nor the other way round, whatever the standings version."""
    return "all" if session is None else f"before-{session}"
