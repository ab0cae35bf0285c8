"""Cached standings answers: built once per standings change, served from the cache after.

A player's phone polls the standings every few seconds while the table only changes when a game
finishes or a penalty is given. Every change of the rows renews `Tournament.standings_version`
in the same transaction (`touch`), so an answer cached under the version a reader just loaded is
never older than that version: no invalidation is needed, old keys simply expire.

The cache fails open: when it does not answer (Redis down), the answer is built from the
database for every reader instead of failing the page (issue 14; /health/ says "degraded").
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterable
from typing import Any

from core import cache as fail_open_cache
from tournaments.models import Tournament

TIMEOUT_SECONDS = 3600


def touch(tournament_ids: int | Iterable[int]) -> None:
    """The standings of these tournaments changed (call inside the writing transaction)."""
    ids = [tournament_ids] if isinstance(tournament_ids, int) else list(tournament_ids)
    if ids:
        Tournament.objects.filter(pk__in=ids).update(standings_version=uuid.uuid4())


def etag(tournament: Tournament) -> str:
    return f'"standings-{tournament.standings_version}"'


def cached(tournament: Tournament, part: str, build: Callable[[], Any]) -> Any:
    """`build()`'s value for this tournament's current standings (`part` names the form:
    the API's JSON, the web table in one language, ...)."""
    key = f"standings:{part}:{tournament.pk}:{tournament.standings_version}"
    value = fail_open_cache.get(key)  # a cache that does not answer is a miss
    if value is None:
        value = build()
        fail_open_cache.set(key, value, TIMEOUT_SECONDS)
    return value
