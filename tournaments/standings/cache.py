"""Cached standings answers: built once per standings change, served from the cache after.

A player's phone polls the standings every few seconds while the table only changes when a game
finishes or a penalty is given. Every change of the rows renews `Tournament.standings_version`
in the same transaction (`touch`), so an answer cached under the version a reader just loaded is
never older than that version: no invalidation is needed, old keys simply expire.

The cache fails open: when it does not answer (Redis down), the answer is built from the
database for every reader instead of failing the page (issue 14; /health/ says "degraded").
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable, Iterable
from typing import Any

from django.core.cache import cache

from tournaments.models import Tournament

log = logging.getLogger(__name__)

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
    try:
        value = cache.get(key)
    except Exception:  # the cache is down: serve from the database
        log.warning("standings cache unavailable; building %s from the database", key)
        return build()
    if value is None:
        value = build()
        try:
            cache.set(key, value, TIMEOUT_SECONDS)
        except Exception:
            log.warning("standings cache unavailable; %s not kept", key)
    return value
