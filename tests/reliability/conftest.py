"""Fixtures of the reliability tests (helpers live in reliability_support.py)."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.reliability.reliability_support import Event, RedisServer, make_event


@pytest.fixture
def private_redis() -> Iterator[RedisServer]:
    """A redis-server of our own on a spare loopback port (never the shared one)."""
    directory = Path(tempfile.mkdtemp(prefix="hanchan-redis-"))
    server = RedisServer(directory)
    server.start()
    try:
        yield server
    finally:
        server.stop()
        shutil.rmtree(directory, ignore_errors=True)


@pytest.fixture
def event(db: None) -> Event:
    return make_event()
