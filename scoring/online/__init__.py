"""Online game logs (Tenhou, Mahjong Soul) as game records, and the check against the site.

Plain Python like the engine (no Django): ``parse_log(data)`` recognises the log, turns it
into a ``riichi-game-record/1`` document (players by their site names) plus what the site
paid, and ``compare(game)`` replays the record with our engine and lists every place where
our points differ from the site's. The Django side (``scoring.services.online``) maps the
names to club members and imports the record.

Accepted logs (``docs/online-import.md``): the Tenhou mjlog XML (``<mjloggm ...>``, plain
or gzipped), the tenhou.net/6 JSON (``{"name": [...], "log": [...]}``) and the Mahjong Soul
JSON export (``{"head": {...}, "data"|"records"|"actions": [{"name": "RecordNewRound",
"data": {...}}, ...]}``).
"""

from __future__ import annotations

import json
import zlib
from typing import Any

from core.errors import ValidationFailed
from core.limits import check_json_depth

from .common import LogError, OnlineGame, compare, compare_paid
from .mahjongsoul import parse_mahjongsoul
from .tenhou import parse_mjlog, parse_tenhou6

__all__ = ["LogError", "OnlineGame", "compare", "compare_paid", "parse_log"]


# A gzipped log unpacks to at most this (a real log is tens of kilobytes): a small "zip bomb"
# must not unpack to gigabytes in the web worker (issue 16.8).
MAX_UNZIPPED_BYTES = 20 * 1024 * 1024


def _gunzip(data: bytes) -> bytes:
    unpack = zlib.decompressobj(16 + zlib.MAX_WBITS)
    try:
        out = unpack.decompress(data, MAX_UNZIPPED_BYTES + 1)
    except zlib.error as exc:
        raise LogError(f"the gzip file is broken: {exc}") from exc
    if len(out) > MAX_UNZIPPED_BYTES or unpack.unconsumed_tail:
        raise LogError(f"the log unpacks to more than {MAX_UNZIPPED_BYTES // (1024 * 1024)} MB")
    if not unpack.eof:
        raise LogError("the gzip file is broken: it ends early")
    return out


def parse_log(data: bytes | str) -> OnlineGame:
    """Recognise and parse one log; LogError says why a log is not accepted."""
    if isinstance(data, bytes):
        if data[:2] == b"\x1f\x8b":
            data = _gunzip(data)
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise LogError("the log is not UTF-8 text") from exc
    else:
        text = data
    head = text.lstrip()[:200]
    if head.startswith("<"):
        if "<mjloggm" not in head:
            raise LogError("an XML file that is not a Tenhou mjlog (<mjloggm>)")
        return parse_mjlog(text)
    if not head.startswith("{"):
        raise LogError("not a Tenhou mjlog, tenhou.net/6 JSON or Mahjong Soul JSON log")
    try:
        check_json_depth(text)  # a deep document must not recurse in the parser (issue 16.3)
        doc: Any = json.loads(text)
    except ValidationFailed as exc:
        raise LogError(f"{exc.field}: {exc.message}") from exc
    except json.JSONDecodeError as exc:
        raise LogError(f"broken JSON: {exc}") from exc
    if isinstance(doc, dict) and "log" in doc and "name" in doc:
        return parse_tenhou6(doc)
    if isinstance(doc, dict) and "head" in doc:
        return parse_mahjongsoul(doc)
    raise LogError(
        'unknown JSON log: a tenhou.net/6 log has "name" and "log", a Mahjong Soul export'
        ' has "head" and its records'
    )
