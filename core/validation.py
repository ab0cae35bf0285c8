"""Input checks shared by the services of every app: each failure names its field.

A ruleset choice is checked by `scoring.validation.check_rules` (it asks the engine)."""

from __future__ import annotations

import datetime
from typing import Any

from django.utils.text import slugify

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


# SlugField's default length: the web address part of a club or tournament.
SLUG_LENGTH = 50


def slug_from(slug: str, name: str) -> str:
    """The address for `slug`, or made from `name` when none is given: a name may be longer than
    an address can be (200 against 50 characters), so the one made from it is cut at a word."""
    made = slugify(slug or name)
    if len(made) > SLUG_LENGTH:
        cut = made[:SLUG_LENGTH]
        made = (cut.rsplit("-", 1)[0] if "-" in cut else cut).strip("-_")
    return made
