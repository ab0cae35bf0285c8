"""Cached standings answers: built once per standings change, served from the cache after.

A player's phone polls the standings every few seconds while the table only changes when a game
finishes or a penalty is given. Every change of the rows renews `Tournament.standings_version`
in the same transaction (`touch`), so an answer cached under the version a reader just loaded is
never older than that version: no invalidation is needed, old keys simply expire.

The answers most asked for are also rendered ahead (`prerender`): the standings services
build them inside the transaction that renews the version, under the new version's key, so the
first readers of a new table find it made instead of each building it
(issue 14.7: four web processes used to build every new table at once).

The cache fails open: when it does not answer (Redis down), the answer is built from the
database for every reader instead of failing the page (issue 14; /health/ says "degraded").
"""

from __future__ import annotations

import hashlib
import time
import uuid
from collections.abc import Callable, Iterable
from typing import Any

from core import cache as fail_open_cache
from tournaments.models import Tournament

from .asof import effective_hidden_from, hidden_from, view_marker

TIMEOUT_SECONDS = 3600
# cached_built_once: a builder that died keeps the others waiting at most this long (its lock
# expires), and a waiter builds the value itself after WAIT_SECONDS rather than fail the page.
LOCK_SECONDS = 120
WAIT_SECONDS = 60
POLL_SECONDS = 0.05


# The standings API's JSON (tournaments.api: the part registered for prerendering).
API_JSON = "api-json"
# part -> build(tournament id): the answers rendered with every new table (see above).
_PRERENDERED: dict[str, Callable[[int], Any]] = {}


def prerender(part: str, build: Callable[[int], Any]) -> None:
    """Render `part` with every new standings table (called once, from an app's ready())."""
    _PRERENDERED[part] = build


def touch(tournament_ids: int | Iterable[int]) -> uuid.UUID:
    """The standings of these tournaments changed (call inside the writing transaction): their
    new version."""
    ids = [tournament_ids] if isinstance(tournament_ids, int) else list(tournament_ids)
    version = uuid.uuid4()
    if ids:
        Tournament.objects.filter(pk__in=ids).update(standings_version=version)
    return version


def renew(tournament_id: int) -> None:
    """`touch` for the standings services, which rewrote the rows: also renders the prerendered
    parts from the new rows. They are cached at once, under the new version: no reader can
    ask for that version before the transaction commits, and if it rolls back, nobody ever
    will (the entry just expires)."""
    version = touch(tournament_id)
    if not _PRERENDERED:
        return
    hidden = Tournament.objects.filter(pk=tournament_id).values_list(
        "standings_hidden_from", "status"
    )
    marker = view_marker(effective_hidden_from(*hidden[0])) if hidden else "all"
    for part, build in _PRERENDERED.items():
        fail_open_cache.set(
            _key(part, tournament_id, version, marker), build(tournament_id), TIMEOUT_SECONDS
        )


def _key(part: str, tournament_id: int, version: Any, marker: str) -> str:
    return f"standings:{part}:{tournament_id}:{version}:{marker}"


def _key_of(tournament: Tournament, part: str) -> str:
    return _key(
        part, tournament.pk, tournament.standings_version, view_marker(hidden_from(tournament))
    )


def etag(tournament: Tournament, body: bytes | None = None, *, kind: str = "standings") -> str:
    """The ETag of a public standings answer (`kind`: the players' or the teams'). While
    results are hidden (issue 32.3) it is the hash of the answer `body` itself: the version
    changes with every hidden game, and an ETag changing with it would tell who polls that
    something hidden happened."""
    if body is not None and hidden_from(tournament) is not None:
        return f'"{kind}-as-of-{hashlib.sha256(body).hexdigest()[:32]}"'
    return f'"{kind}-{tournament.standings_version}"'


def cached(tournament: Tournament, part: str, build: Callable[[], Any]) -> Any:
    """`build()`'s value for this tournament's current standings (`part` names the form:
    the API's JSON, the web table in one language, ...)."""
    key = _key_of(tournament, part)
    value = fail_open_cache.get(key)  # a cache that does not answer is a miss
    if value is None:
        value = build()
        fail_open_cache.set(key, value, TIMEOUT_SECONDS)
    return value


def _pause(seconds: float) -> None:
    """A waiter's pause between two looks at the cache (a seam for the tests)."""
    time.sleep(seconds)


def cached_built_once(tournament: Tournament, part: str, build: Callable[[], Any]) -> Any:
    """As `cached`, for an answer that takes seconds to build (the results PDF): of the
    requests that miss at once, one builds it under a lock in the cache (`add` is atomic) and
    the others wait for it and serve the cached value, instead of each building it too.

    Fails open like `cached`: with the cache down every request builds its own answer, and a
    waiter whose builder never delivers builds the answer itself after WAIT_SECONDS.
    """
    key = _key_of(tournament, part)
    value = fail_open_cache.get(key)
    if value is not None:
        return value
    lock_key = f"lock:{key}"
    token = uuid.uuid4().hex
    deadline = time.monotonic() + WAIT_SECONDS
    while True:
        acquired = fail_open_cache.add(lock_key, token, LOCK_SECONDS)
        if acquired is not False or time.monotonic() > deadline:
            break  # ours to build: the lock is held, the cache is down, or the wait is over
        _pause(POLL_SECONDS)
        value = fail_open_cache.get(key)
        if value is not None:
            return value
    try:
        if acquired:  # built by the previous holder between our first look and the lock?
            value = fail_open_cache.get(key)
        if value is None:
            value = build()
            fail_open_cache.set(key, value, TIMEOUT_SECONDS)
        return value
    finally:
        if acquired and fail_open_cache.get(lock_key) == token:
            fail_open_cache.delete(lock_key)
