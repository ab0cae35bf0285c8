"""Idempotent POSTs: a retried request with the same `Idempotency-Key` is answered, not re-applied.

A client (say, a referee's phone on a flaky connection) sends `Idempotency-Key: <unique string>`
with a POST. The first request runs and its response is stored in `IdempotencyRecord` inside the
same transaction as the write, so the record exists exactly when the write was committed. A retry
with the same key and the same body gets the stored status and body back, with the header
`Idempotent-Replayed: true`, and nothing is applied again. The same key with a different body (or
another endpoint) is a client bug and gets 422.

Only responses returned normally (2xx) are stored: a request that fails raises, the transaction
rolls back, and a retry runs again (and fails again the same way, or succeeds if the cause went
away). Keys are per user; anonymous requests are not tracked.

Cost (issue 14.7): the key is not looked up before the request runs. A first request (nearly
every request) costs one INSERT beside its write; a retry runs again inside its transaction and
is recognised by what follows: its own INSERT clashes with the stored key, or it fails (say, on
a game version it already moved on), or it answers with an error; then the transaction is
rolled back whole and the stored answer is replayed (422 when the body differs). A clash with
no stored answer to replay (another request with the key is still open) is 409.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Callable
from contextvars import ContextVar
from typing import Any, ParamSpec, TypeVar

from django.db import IntegrityError, transaction
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.utils.encoders import JSONEncoder

from core import limits
from core.errors import ValidationFailed
from core.models import IdempotencyRecord

HEADER = "Idempotency-Key"  # the one place the header is named (API schema: IDEMPOTENCY_PARAMETER)
REPLAYED_HEADER = "Idempotent-Replayed"
MAX_KEY_LENGTH = 200

ViewMethod = TypeVar("ViewMethod", bound=Callable[..., Response])
P = ParamSpec("P")
R = TypeVar("R")

# True while an idempotent view runs inside the transaction `idempotent` opened: any exception
# leaving the view rolls that transaction back whole (see write_transaction).
_undone_whole: ContextVar[bool] = ContextVar("idempotent_undone_whole", default=False)


def write_transaction(service: Callable[P, R]) -> Callable[P, R]:
    """`transaction.atomic` for a write service that an idempotent API view calls directly and
    whose errors that view lets through (the hand entry): inside `idempotent`'s transaction it
    needs no savepoint of its own, since an error undoes the whole transaction anyway; that
    saves a SAVEPOINT and a RELEASE per request. Anywhere else (web pages, tasks, tests, services
    it calls) it is `transaction.atomic` as usual, savepoint included."""

    @functools.wraps(service)
    def inner(*args: P.args, **kwargs: P.kwargs) -> R:
        savepoint = not _undone_whole.get()
        token = _undone_whole.set(False)  # what this service calls keeps its savepoints
        try:
            with transaction.atomic(savepoint=savepoint):
                return service(*args, **kwargs)
        finally:
            _undone_whole.reset(token)

    return inner


def request_fingerprint(request: Request) -> str:
    """A hash of what the request asks for: method, path and body (JSON compared canonically)."""
    raw: bytes = request._request.body  # read before DRF parses the stream; cached by Django
    body: bytes = raw
    if raw and "json" in (request.content_type or ""):
        try:  # within the JSON limits: a deep document must not recurse here (issue 16.3)
            body = json.dumps(limits.loads(raw), sort_keys=True, separators=(",", ":")).encode()
        except (ValueError, ValidationFailed):
            body = raw  # not valid JSON: the view will answer 400; hash the bytes as they are
    digest = hashlib.sha256()
    for part in (request.method or "", request.path, request.content_type or ""):
        digest.update(part.encode())
        digest.update(b"\0")
    digest.update(body)
    return digest.hexdigest()


class _SameKeyRace(Exception):
    """Two requests with one key ran at once; the later one must not keep its write."""


def _jsonable(data: Any) -> Any:
    return json.loads(json.dumps(data, cls=JSONEncoder)) if data is not None else None


def _error(status_code: int, field: str, message: str) -> Response:
    return Response({"field": field, "message": message, "errors": []}, status=status_code)


def idempotent(method: ViewMethod) -> ViewMethod:
    """Decorate an API view's `post` (or action) so it honours `Idempotency-Key`."""

    @functools.wraps(method)
    def wrapper(view: Any, request: Request, *args: Any, **kwargs: Any) -> Response:
        key = request.headers.get(HEADER, "").strip()
        user = request.user
        if not key or request.method != "POST" or not getattr(user, "is_authenticated", False):
            return method(view, request, *args, **kwargs)
        if len(key) > MAX_KEY_LENGTH:
            return _error(
                status.HTTP_400_BAD_REQUEST,
                HEADER,
                f"An Idempotency-Key has at most {MAX_KEY_LENGTH} characters.",
            )
        fingerprint = request_fingerprint(request)
        user_id: int = user.pk  # type: ignore[assignment]  # authenticated: has a pk
        try:
            with transaction.atomic():
                token = _undone_whole.set(True)
                try:
                    response = method(view, request, *args, **kwargs)
                finally:
                    _undone_whole.reset(token)
                if not 200 <= response.status_code < 300:
                    # An error answer: a retry of a request that succeeded gets that success.
                    stored = _stored(user_id, key)
                    if stored is not None:
                        transaction.set_rollback(True)
                        return _replay(stored, fingerprint)
                    return response
                # Stored in the write's transaction: both commit, or neither does. No
                # savepoint of its own: a clash leaves the outer block, undoing it whole.
                try:
                    with transaction.atomic(savepoint=False):
                        IdempotencyRecord.objects.create(
                            key=key,
                            user_id=user_id,
                            method=request.method or "",
                            path=request.path[:300],
                            request_hash=fingerprint,
                            status_code=response.status_code,
                            response_body=_jsonable(response.data),
                        )
                except IntegrityError as exc:
                    raise _SameKeyRace from exc  # leaves the outer block: undo the write
                return response
        except _SameKeyRace:
            # The key was stored first by a retried request or one running at the same time;
            # this request was rolled back whole.
            stored = _stored(user_id, key)
            if stored is not None:
                return _replay(stored, fingerprint)
            return _error(
                status.HTTP_409_CONFLICT,
                HEADER,
                "Another request with this Idempotency-Key was processed at the same time; "
                "retry to get its response.",
            )
        except Exception:
            # Failed and rolled back: the retry of a request that succeeded (say, a hand on a
            # game version it already moved on) gets that request's answer.
            try:
                stored = _stored(user_id, key)
            except Exception:
                stored = None  # the database itself failed: the original error tells more
            if stored is None:
                raise
            return _replay(stored, fingerprint)

    return wrapper  # type: ignore[return-value]


def _stored(user_id: int, key: str) -> IdempotencyRecord | None:
    return IdempotencyRecord.objects.filter(user_id=user_id, key=key).first()


def _replay(stored: IdempotencyRecord, fingerprint: str) -> Response:
    if stored.request_hash != fingerprint:
        return _error(
            status.HTTP_422_UNPROCESSABLE_ENTITY,
            HEADER,
            "This Idempotency-Key was already used for a different request (another body or "
            "endpoint). Use a new key for a new request.",
        )
    response = Response(stored.response_body, status=stored.status_code)
    response[REPLAYED_HEADER] = "true"
    return response


# The header as the OpenAPI schema documents it on every idempotent endpoint.
IDEMPOTENCY_PARAMETER = OpenApiParameter(
    HEADER,
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    required=False,
    description="Retry-safe POST: a repeat with the same key and body returns the first answer.",
)
