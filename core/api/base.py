"""What every API view shares: service errors mapped to HTTP answers, and error schemas.

Service errors (core.errors) become:

- ValidationFailed -> 400 {"field", "message", "errors": [...]}
- PermissionDenied -> 403 {"field", "message"}
- ConflictError    -> 409 {"message", "current": <the current state>, "current_version"}
- StateConflict    -> 409 {"field", "message", "errors", "fixes"} (valid, refused for now)
- ServiceUnavailable -> 503 {"field", "message", "errors": []} (the broker is down; retry)

DRF's own validation errors stay 400 with the field names as keys. Input errors of lower-level
libraries that reach a view (the engine's RecordError, the tile evaluator's TileError) are 400
naming the field as well: their owner registers them with `register_input_error` (core imports
no other app of the project, issue 14).
"""

from __future__ import annotations

from typing import Any, Protocol

from django.core.exceptions import ObjectDoesNotExist
from django.core.exceptions import ValidationError as DjangoValidationError
from drf_spectacular.utils import OpenApiResponse, extend_schema_field, inline_serializer
from rest_framework import serializers, status, viewsets
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.errors import (
    ConflictError,
    PermissionDenied,
    ServiceError,
    ServiceUnavailable,
    StateConflict,
    ValidationFailed,
)


class ErrorSerializer(serializers.Serializer):
    """A refused request: the field at fault (if any), a message, and per-row/hand details."""

    field = serializers.CharField(allow_null=True)
    message = serializers.CharField()
    errors = serializers.ListField(  # type: ignore[assignment]  # a field, not Serializer.errors
        child=serializers.DictField(), required=False
    )


class ConflictSerializer(serializers.Serializer):
    """409: the object changed since the client read it; `current` is its state now."""

    message = serializers.CharField()
    field = serializers.CharField(allow_null=True)
    current_version = serializers.IntegerField()
    current = serializers.DictField(allow_null=True)


def errors(*codes: int) -> dict[int, OpenApiResponse]:
    """Schema entries for the error answers an endpoint can give."""
    described = {
        400: OpenApiResponse(ErrorSerializer, description="Invalid input; `field` names it."),
        # Not logged in is 403 too: session auth comes first and sends no WWW-Authenticate.
        403: OpenApiResponse(ErrorSerializer, description="Not logged in, or not allowed."),
        404: OpenApiResponse(ErrorSerializer, description="No such object (or not visible)."),
        409: OpenApiResponse(
            ConflictSerializer, description="Stale `version`: reload `current` and retry."
        ),
        422: OpenApiResponse(
            ErrorSerializer, description="Idempotency-Key reused with a different request."
        ),
        429: OpenApiResponse(
            ErrorSerializer, description="Too many attempts; wait `Retry-After` seconds."
        ),
        503: OpenApiResponse(
            ErrorSerializer, description="The background worker queue is down; retry shortly."
        ),
    }
    return {code: described[code] for code in codes}


MessageSerializer = inline_serializer("Message", {"message": serializers.CharField()})


# Bounds for id filters in query strings: an id past 64 bits is a 400, not an overflow crash
# in the database driver.
def parse(serializer_class: type, request: Request, data: Any = None) -> dict[str, Any]:
    """Validate input with a per-endpoint serializer; DRF answers 400 naming the fields."""
    serializer = serializer_class(data=request.data if data is None else data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


ID_BOUNDS: dict[str, int] = {"min_value": 0, "max_value": 2**63 - 1}


def _api_field(field: str | None) -> str | None:
    """Services name the version `expected_version`; the API's requests call it `version`."""
    return "version" if field == "expected_version" else field


class InputError(Protocol):
    """An exception that names the input at fault: `field`, `message` and `as_dict()`."""

    field: str | None
    message: str

    def as_dict(self) -> dict[str, Any]: ...


_input_errors: list[type[Exception]] = []


def register_input_error(error_class: type[Exception]) -> None:
    """Answer `error_class` (an InputError) with 400 naming its field; apps call this in
    their AppConfig.ready() (scoring: RecordError, TileError)."""
    if error_class not in _input_errors:
        _input_errors.append(error_class)


class ServiceErrorsMixin:
    """Maps service errors to answers (see the module docstring); put it before APIView."""

    def conflict_state(self, error: ConflictError) -> dict[str, Any] | None:
        """The current state to send with a 409, read after the conflict as one committed state
        (views over games: the game, read under its lock); its `version`, if it has one, is
        the answer's `current_version`."""
        return None

    def handle_exception(self, exc: Exception) -> Response:
        if isinstance(exc, ConflictError):
            current = self.conflict_state(exc)
            # The state is read after the conflict: another write may have landed since, so
            # the version sent is the state's own, never one that does not match it.
            version = current.get("version") if isinstance(current, dict) else None
            return Response(
                {
                    "message": exc.message,
                    "field": _api_field(exc.field),
                    "current_version": version if isinstance(version, int) else exc.current_version,
                    "current": current,
                },
                status=status.HTTP_409_CONFLICT,
            )
        if isinstance(exc, PermissionDenied):
            return Response(exc.as_dict(), status=status.HTTP_403_FORBIDDEN)
        if isinstance(exc, ValidationFailed):
            body = {**exc.as_dict(), "field": _api_field(exc.field)}
            refused = isinstance(exc, StateConflict)  # valid, but the state refuses it for now
            return Response(
                body,
                status=status.HTTP_409_CONFLICT if refused else status.HTTP_400_BAD_REQUEST,
            )
        if isinstance(exc, ServiceError):
            body = {"field": exc.field, "message": exc.message, "errors": []}
            unavailable = isinstance(exc, ServiceUnavailable)  # the broker is down: retry
            code = (
                status.HTTP_503_SERVICE_UNAVAILABLE if unavailable else status.HTTP_400_BAD_REQUEST
            )
            return Response(body, status=code)
        if isinstance(exc, tuple(_input_errors)):
            bad: InputError = exc  # type: ignore[assignment]  # registered as InputError
            body = {"field": bad.field or None, "message": bad.message, "errors": [bad.as_dict()]}
            return Response(body, status=status.HTTP_400_BAD_REQUEST)
        if isinstance(exc, ObjectDoesNotExist):
            # An object vanished between lookup and write (e.g. deleted meanwhile).
            body = {"field": None, "message": str(exc) or "Not found.", "errors": []}
            return Response(body, status=status.HTTP_404_NOT_FOUND)
        if isinstance(exc, DjangoValidationError):
            fields = getattr(exc, "message_dict", None) or {}
            field = next(iter(fields), None)
            message = "; ".join(exc.messages)
            return Response(
                {"field": field, "message": message, "errors": []},
                status=status.HTTP_400_BAD_REQUEST,
            )
        return super().handle_exception(exc)  # type: ignore[misc]


class ServiceAPIView(ServiceErrorsMixin, APIView):
    """Base of the API's plain views."""


class ServiceViewSet(ServiceErrorsMixin, viewsets.GenericViewSet):
    """Base of the API's view sets: list/retrieve come from mixins, writes are actions."""


def inline_choice_field(choices: Any, **kwargs: Any) -> serializers.ChoiceField:
    """A choice field whose enum stays inline in the schema.

    Several models have a `status` (or `role`) with different choices. As named enum components
    their names would collide (drf-spectacular warns and invents hashed names), so these enums
    are written in place, wrapped in `allOf`, which the enum post-processing leaves alone.
    """
    values = [choice[0] if isinstance(choice, tuple | list) else choice for choice in choices]

    @extend_schema_field({"allOf": [{"type": "string", "enum": values}]})
    class InlineChoiceField(serializers.ChoiceField):
        pass

    return InlineChoiceField(choices=choices, **kwargs)
