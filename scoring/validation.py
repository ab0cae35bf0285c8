"""A ruleset choice checked by the engine, for the services above (tournaments, clubs): each
failure names its field."""

from __future__ import annotations

from typing import Any

from core.errors import ValidationFailed
from scoring.engine import RulesError, load_ruleset


def check_rules(ruleset: str, overrides: dict[str, Any] | None) -> None:
    """A preset id plus overrides the engine accepts (unknown keys and bad values refused)."""
    try:
        load_ruleset(ruleset, overrides or None)
    except RulesError as error:
        raise ValidationFailed(error.message, field=error.field or "ruleset") from error
