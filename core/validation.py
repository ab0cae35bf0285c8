"""Input checks shared by the services of every app: each failure names its field.

A ruleset choice is checked by `scoring.validation.check_rules` (it asks the engine)."""

from __future__ import annotations

import datetime
from typing import Any

from core.errors import ValidationFailed


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
