"""The cache, failing open: a cache that does not answer (Redis down) is a miss, never an error.

Readers build the answer from the database instead (issue 14: with Redis down, pages and
standings are served from the database; /health/ says "degraded").
"""

from __future__ import annotations

import logging
from typing import Any

from django.core.cache import cache

log = logging.getLogger(__name__)


def get(key: str) -> Any:
    """The cached value, or None when missing or when the cache does not answer."""
    try:
        return cache.get(key)
    except Exception:
        log.warning("cache unavailable; %s read from the database", key)
        return None


def set(key: str, value: Any, timeout: int) -> None:
    """Keep `value`; nothing happens when the cache does not answer."""
    try:
        cache.set(key, value, timeout)
    except Exception:
        log.warning("cache unavailable; %s not kept", key)


def add(key: str, value: Any, timeout: int) -> bool | None:
    """Keep `value` only if `key` is not there yet (atomic in Redis and in the local-memory
    cache): True when kept, False when the key was there, None when the cache does not answer."""
    try:
        return bool(cache.add(key, value, timeout))
    except Exception:
        log.warning("cache unavailable; %s not added", key)
        return None


def delete(key: str) -> None:
    """Forget `key`; nothing happens when the cache does not answer."""
    try:
        cache.delete(key)
    except Exception:
        log.warning("cache unavailable; %s not deleted", key)
