"""Errors raised by service functions; the API and views map them to responses.

- ValidationFailed -> 400 {"field": .., "message": .., "errors": [..]}
- ConflictError    -> 409 {"message": .., "current": <current state>}
- StateConflict    -> 409 {"field": .., "message": .., "errors": [..], "fixes": [..]}
- PermissionDenied -> 403
- ServiceUnavailable -> 503 {"field": .., "message": .., "errors": []}
"""

from __future__ import annotations

from typing import Any


class ServiceError(Exception):
    """Base class: a business operation refused, with a message fit to show the user."""

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field

    def as_dict(self) -> dict[str, Any]:
        return {"field": self.field, "message": self.message}

    def __str__(self) -> str:
        return f"{self.field}: {self.message}" if self.field else self.message


class ValidationFailed(ServiceError):
    """Invalid input. `errors` lists several problems (CSV rows, hands, fields) when there are."""

    def __init__(
        self,
        message: str,
        *,
        field: str | None = None,
        errors: list[dict[str, Any]] | None = None,
    ) -> None:
        super().__init__(message, field=field)
        self.errors: list[dict[str, Any]] = list(errors or [])

    def as_dict(self) -> dict[str, Any]:
        return {"field": self.field, "message": self.message, "errors": self.errors}


class StateConflict(ValidationFailed):
    """Valid input that the current state refuses until something else is done first (409 on
    the API, with the ways out in `fixes`): e.g. a session that cannot start while a dropped
    player's seat has no substitute. A ValidationFailed, so forms show it as one."""

    def __init__(
        self,
        message: str,
        *,
        field: str | None = None,
        errors: list[dict[str, Any]] | None = None,
        fixes: list[dict[str, Any]] | None = None,
    ) -> None:
        super().__init__(message, field=field, errors=errors)
        self.fixes: list[dict[str, Any]] = list(fixes or [])

    def as_dict(self) -> dict[str, Any]:
        return {**super().as_dict(), "fixes": self.fixes}


class ConflictError(ServiceError):
    """The object changed since the client read it (optimistic concurrency): reload and retry."""

    def __init__(
        self, message: str, *, current_version: int, field: str | None = "expected_version"
    ) -> None:
        super().__init__(message, field=field)
        self.current_version = current_version

    def as_dict(self) -> dict[str, Any]:
        return {
            "field": self.field,
            "message": self.message,
            "current_version": self.current_version,
        }


class PermissionDenied(ServiceError):
    """The actor may not do this."""

    def __init__(self, message: str = "You may not do this.", *, field: str | None = None) -> None:
        super().__init__(message, field=field)


class ServiceUnavailable(ServiceError):
    """A part the request needs (the task broker) is down; nothing was saved: retry shortly."""
