"""Input limits shared by the web pages and the API (issue 16.2, 16.3, 16.7, 16.8).

- Request bodies: at most ``MAX_REQUEST_BODY_BYTES`` (Content-Length checked before anything
  is read: API -> 413 with the JSON error body, web -> a 413 page).
- Uploaded files: at most ``MAX_UPLOAD_BYTES``, counted while the upload streams in; a larger
  file is never kept (``LimitedUploadHandler``), so the form or serializer refuses it by size.
- JSON: nesting at most ``MAX_JSON_DEPTH`` levels (checked on the text before parsing, so a
  deep document cannot exhaust the parser's recursion), no NaN/Infinity, and numbers within
  +-(2**53 - 1) (what every JSON reader agrees on); each refusal names the field. Each field
  has its own, narrower bounds in the serializers and the engine.

docs/security.md lists the limits with their numbers.
"""

from __future__ import annotations

import io
import json
import math
import re
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.files.uploadedfile import UploadedFile
from django.core.files.uploadhandler import FileUploadHandler
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from core.errors import ValidationFailed

MB = 1024 * 1024
MAX_JSON_DEPTH: int = getattr(settings, "MAX_JSON_DEPTH", 20)
MAX_JSON_INT = 2**53 - 1


def max_request_body_bytes() -> int:
    return int(getattr(settings, "MAX_REQUEST_BODY_BYTES", 6 * MB))


def max_upload_bytes() -> int:
    """The largest file any upload may be (an online game log); CSV and JSON uploads have
    their own, smaller limit (``MAX_TEXT_UPLOAD_BYTES``), checked by size before reading."""
    return int(getattr(settings, "MAX_UPLOAD_BYTES", 5 * MB))


MAX_TEXT_UPLOAD_BYTES = 2 * MB  # CSV registrations and plans, JSON game records

# Sessions per tournament: session numbers are small integers in the database, and no
# riichi event plays more than a few dozen sessions.
MAX_SESSIONS = 50


def megabytes(n: int) -> str:
    return f"{n / MB:g} MB"


# --- JSON --------------------------------------------------------------------------------------

# Strings (a key when a colon follows), brackets and commas: all a depth scan needs to see.
_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"(\s*:)?|[\[\]{},]')


def _path(stack: list[list[Any]]) -> str:
    out = ""
    for kind, at in stack:
        if kind == "[":
            out += f"[{at}]"
        elif at is not None:
            out += f".{at}" if out else str(at)
    return out


def check_json_depth(text: str | bytes, *, limit: int | None = None) -> None:
    """Refuse a document nested deeper than ``limit`` before any parser recurses into it.

    The error names the field where the nesting gets too deep, e.g. ``hands[0].wins``.
    """
    limit = MAX_JSON_DEPTH if limit is None else limit
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    if text.count("[") + text.count("{") <= limit:
        return  # cannot be deeper than its number of brackets
    stack: list[list[Any]] = []  # [bracket, last key or array index]
    for token in _TOKENS.finditer(text):
        t = token.group(0)
        if t in "[{":
            if len(stack) >= limit:
                field = _path(stack) or "body"
                raise ValidationFailed(
                    _("The JSON is nested deeper than %(n)s levels.") % {"n": limit},
                    field=field,
                )
            stack.append([t, 0 if t == "[" else None])
        elif t in "]}":
            if stack:
                stack.pop()
        elif t == ",":
            if stack and stack[-1][0] == "[":
                stack[-1][1] += 1
        elif token.group(1) and stack and stack[-1][0] == "{":
            stack[-1][1] = t[1 : t.rindex('"')]


def _parse_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value) or abs(value) > MAX_JSON_INT:
        raise _NumberOutOfRange(text)
    return value


def _parse_int(text: str) -> int:
    if len(text) > 20:
        raise _NumberOutOfRange(text)
    value = int(text)
    if abs(value) > MAX_JSON_INT:
        raise _NumberOutOfRange(text)
    return value


def _parse_constant(text: str) -> Any:
    raise _NumberOutOfRange(text)  # NaN, Infinity, -Infinity are not JSON numbers


class _NumberOutOfRange(ValueError):
    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text


def _field_of_number(text: str, number: str) -> str:
    """Where ``number`` first appears in the document, as a field path (best effort)."""
    at = text.find(number)
    if at < 0:
        return "body"
    stack: list[list[Any]] = []
    for token in _TOKENS.finditer(text, 0, at):
        t = token.group(0)
        if t in "[{":
            stack.append([t, 0 if t == "[" else None])
        elif t in "]}":
            if stack:
                stack.pop()
        elif t == ",":
            if stack and stack[-1][0] == "[":
                stack[-1][1] += 1
        elif token.group(1) and stack and stack[-1][0] == "{":
            stack[-1][1] = t[1 : t.rindex('"')]
    return _path(stack) or "body"


def loads(text: str | bytes, *, limit: int | None = None) -> Any:
    """``json.loads`` within the limits; ValidationFailed (naming the field) otherwise.

    Plain invalid JSON is left to raise ``ValueError`` as ``json.loads`` does.
    """
    if isinstance(text, bytes):
        text = text.decode("utf-8")
    check_json_depth(text, limit=limit)
    try:
        return json.loads(
            text,
            parse_float=_parse_float,
            parse_int=_parse_int,
            parse_constant=_parse_constant,
        )
    except _NumberOutOfRange as error:
        raise ValidationFailed(
            _("%(value)s is out of range: numbers must be finite and at most %(max)s.")
            % {"value": error.text[:30], "max": f"{MAX_JSON_INT:,}"},
            field=_field_of_number(text, error.text),
        ) from None
    except RecursionError:  # pragma: no cover - the depth check runs first
        raise ValidationFailed(_("The JSON is nested too deeply."), field="body") from None


# --- request bodies and uploads ------------------------------------------------------------


def _wants_json(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


def body_too_large(request: HttpRequest, limit: int) -> HttpResponse:
    message = _("The request is larger than %(size)s.") % {"size": megabytes(limit)}
    if _wants_json(request):
        return JsonResponse({"field": None, "message": message, "errors": []}, status=413)
    return render(request, "413.html", {"message": message}, status=413)


class RequestSizeLimitMiddleware:
    """Refuse a body over ``MAX_REQUEST_BODY_BYTES`` by its Content-Length, unread."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        limit = max_request_body_bytes()
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        if length > limit:
            return body_too_large(request, limit)
        return self.get_response(request)


class RefusedUpload(UploadedFile):
    """What is left of a refused upload: its name and true size, none of its data.
    ``refused`` says why: "too_large" or "not_text"."""

    def __init__(
        self, name: str, content_type: str, size: int, charset: str | None, refused: str
    ) -> None:
        super().__init__(io.BytesIO(b""), name, content_type, size, charset)
        self.refused = refused


def upload_problem(upload: Any, limit: int = MAX_TEXT_UPLOAD_BYTES) -> str | None:
    """Why an upload is refused (a message fit for the form), or None: checked by size and by
    what the upload handler saw while reading, never by reading the file again."""
    limit = min(limit, max_upload_bytes())
    if getattr(upload, "refused", None) == "too_large" or (upload.size or 0) > limit:
        return _("The file is larger than %(size)s.") % {"size": megabytes(limit)}
    if getattr(upload, "refused", None) == "not_text":
        return _("The file is not text (it contains binary data); upload a CSV or JSON file.")
    return None


class LimitedUploadHandler(FileUploadHandler):
    """First of FILE_UPLOAD_HANDLERS: checks each file while it streams in. Past
    ``MAX_UPLOAD_BYTES``, or at a NUL byte (every upload here is text: CSV or JSON), the rest is
    read and dropped, never kept in memory or on disk, and the file arrives as a
    ``RefusedUpload`` carrying its size, so the form or serializer refuses it. A gzip file
    (an online game log may be one) is the one binary upload allowed."""

    def new_file(self, *args: Any, **kwargs: Any) -> None:
        super().new_file(*args, **kwargs)
        self.seen = 0
        self.refused: str | None = None
        self.gzip = False

    def receive_data_chunk(self, raw_data: bytes, start: int) -> bytes | None:
        if self.seen == 0:
            self.gzip = raw_data[:2] == b"\x1f\x8b"
        self.seen += len(raw_data)
        if self.refused is None:
            if self.seen > max_upload_bytes():
                self.refused = "too_large"
            elif not self.gzip and b"\x00" in raw_data:
                self.refused = "not_text"
        return None if self.refused else raw_data

    def file_complete(self, file_size: int) -> UploadedFile | None:
        if self.refused is None:
            return None  # the next handler (memory or temporary file) has the data
        return RefusedUpload(
            self.file_name or "", self.content_type or "", self.seen, self.charset, self.refused
        )


# --- the API's JSON parser -----------------------------------------------------------------


def _json_parser_class() -> type:
    # DRF reads Django's settings when imported; the middleware above loads before that.
    from rest_framework.exceptions import ParseError
    from rest_framework.parsers import JSONParser

    class BoundedJSONParser(JSONParser):
        """DRF's JSON parser within the limits above; a refusal is the documented 400 body
        ``{"field", "message", "errors"}`` naming the field."""

        def parse(
            self, stream: Any, media_type: str | None = None, parser_context: Any = None
        ) -> Any:
            parser_context = parser_context or {}
            encoding = parser_context.get("encoding", settings.DEFAULT_CHARSET)
            raw = stream.read() if stream is not None else b""
            try:
                return loads(raw.decode(encoding))
            except ValidationFailed as error:
                raise ParseError(
                    {"field": error.field, "message": error.message, "errors": []}
                ) from None
            except ValueError as exc:
                raise ParseError(f"JSON parse error - {exc}") from None

    return BoundedJSONParser


BoundedJSONParser = _json_parser_class()
