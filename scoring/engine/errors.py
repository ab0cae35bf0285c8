"""Errors raised by the rules engine; each names the hand and the field at fault."""

from __future__ import annotations


class RecordError(ValueError):
    """A game record (or one hand of it) that contradicts the rules.

    ``hand`` is the index in ``hands`` (None for a top-level field), ``field`` a path such as
    ``"wins[0].fu"``. Nothing is applied when this is raised.
    """

    def __init__(self, message: str, *, hand: int | None = None, field: str = "") -> None:
        super().__init__(message)
        self.hand = hand
        self.field = field
        self.message = message

    def as_dict(self) -> dict[str, object]:
        return {"hand": self.hand, "field": self.field, "message": self.message}

    def __str__(self) -> str:
        where = f"hand {self.hand}: " if self.hand is not None else ""
        return f"{where}{self.field}: {self.message}" if self.field else where + self.message


def as_int(value: object) -> int | None:
    """``value`` if it is a whole number (JSON booleans are not), else None."""
    return value if isinstance(value, int) and not isinstance(value, bool) else None


class RulesError(RecordError):
    """A bad ruleset id or override; ``field`` is e.g. ``"rules.uma"``."""

    def __init__(self, message: str, *, field: str = "rules") -> None:
        super().__init__(message, hand=None, field=field)
