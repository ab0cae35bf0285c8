"""Seating is plain Python: these tests run without Django (``-p no:django``)."""

from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True)
def _eager_celery_unless_broker_test() -> Iterator[None]:
    """Overrides the project-wide Celery fixture, which needs Django settings."""
    yield
