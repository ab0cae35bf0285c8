"""Tile evaluation is plain Python: these tests run without Django (``-p no:django``)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from scoring.engine.rules import Ruleset, load_ruleset
from scoring.tiles import Evaluation, Situation, evaluate

Score = Callable[..., Evaluation]


@pytest.fixture(autouse=True)
def _eager_celery_unless_broker_test() -> Iterator[None]:
    """Overrides the project-wide Celery fixture, which needs Django settings."""
    yield


@pytest.fixture(scope="session")
def ema() -> Ruleset:
    return load_ruleset("ema-2025")


@pytest.fixture(scope="session")
def ari() -> Ruleset:
    return load_ruleset("ari-ari")


@pytest.fixture(scope="session")
def score(ema: Ruleset) -> Score:
    """score(notation, rules=ema, **situation) -> Evaluation."""

    def run(notation: str, rules: Ruleset = ema, **situation: Any) -> Evaluation:
        return evaluate(notation, rules=rules, situation=Situation(**situation))

    return run
