"""Input checks shared by the services of every app: each failure names its field."""

from __future__ import annotations

import datetime
from typing import Any

from core.errors import ValidationFailed
from scoring.engine import RulesError, load_ruleset


def check_rules(ruleset: str, overrides: dict[str, Any] | None) -> None:
    """A preset id plus overrides the engine accepts (unknown keys and bad values refused)."""
    try:
        load_ruleset(ruleset, overrides or None)
    except RulesError as error:
        raise ValidationFailed(error.message, field=error.field or "ruleset") from error


def parse_date(value: Any, *, field: str) -> datetime.date:
    if value is None or value == "":
        raise ValidationFailed("A date is required.", field=field)
    if isinstance(value, datetime.datetime):
        return value.date()
    if isinstance(value, datetime.date):
        return value
    try:
        return datetime.date.fromisoformat(str(value))
    except ValueError as error:
        raise ValidationFailed("Use a date like 2026-03-05.", field=field) from error


def parse_optional_date(value: Any, *, field: str) -> datetime.date | None:
    return None if value in (None, "") else parse_date(value, field=field)
