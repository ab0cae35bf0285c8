"""``python manage.py seating_swiss``: Swiss seating for scripts, one JSON line in, one out.

Request (one JSON object per line on standard input)::

    {"players": [id, ...], "points": {"<id>": total before this session, ...},
     "history": [[[E, S, W, N], ...] for each earlier session], "seed": int,
     "groups": {"<id>": "label"}, "table_size": 4 or 3, "sessions": int}

``points`` may be omitted before the first session, ``groups``, ``table_size`` (default 4)
and ``sessions`` always; ``seed`` defaults to 0. ``sessions`` (optional, an addition to issue
17's contract) is how many sessions the event has in all: with it, every player's wind
spread ends at most 1 (it is kept <= 2 on the way); without it, a spread <= 1 is kept where
standing allows. ``history`` may hold ids not in ``players`` (dropped players)
and ``players`` ids not in ``history`` (late arrivals). Ids are JSON integers or strings;
``points`` and ``groups`` are keyed by the id as a string, as JSON objects must be.

Answer (exactly one JSON line per request, flushed): ``{"tables": [[E, S, W, N], ...]}``
seating every id of ``players`` exactly once, leaders' table first, or ``{"error": "..."}``.
Blank lines are skipped. ``--table-size 3`` sets the default for requests without a
``table_size`` (three-player rules, WDMC 2019 5.1). Plain Python: no Django settings,
database or environment needed. When groups cannot all be kept apart (a group larger than
the tables), the answer still seats everyone and a line on standard error says how many
same-group pairs share a table and the least possible; standard output keeps exactly one
answer per request.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from typing import IO, Any

from .core import SeatingError
from .quality import group_pairs
from .swiss import swiss_session

FIELDS = {"players", "points", "history", "seed", "groups", "table_size", "sessions"}


class RequestError(ValueError):
    pass


def _id(value: Any, where: str) -> int | str:
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise RequestError(f"{where}: a player id is an integer or a string, not {value!r}")
    return value


def _keyed(
    request: dict[str, Any], field: str, by_key: dict[str, int | str], kind: type | tuple
) -> dict[int | str, Any]:
    raw = request.get(field)
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise RequestError(f'{field}: an object {{"<id>": ...}}')
    out: dict[int | str, Any] = {}
    for key, value in raw.items():
        if isinstance(value, bool) or not isinstance(value, kind):
            raise RequestError(f"{field}[{key!r}]: {value!r} is not a {kind_name(kind)}")
        if key in by_key:  # ids not playing this session are ignored
            out[by_key[key]] = value
    return out


def kind_name(kind: type | tuple) -> str:
    return "number" if kind == (int, float) else "string"


def parse_request(request: Any) -> dict[str, Any]:
    """Validate one request; RequestError names the field."""
    if not isinstance(request, dict):
        raise RequestError("a request is a JSON object")
    unknown = sorted(set(request) - FIELDS)
    if unknown:
        raise RequestError(f"unknown field {unknown[0]!r}")
    players = request.get("players")
    if not isinstance(players, list) or not players:
        raise RequestError("players: a non-empty list of ids")
    ids = [_id(p, "players") for p in players]
    by_key = {str(p): p for p in ids}
    if len(by_key) != len(ids):
        raise RequestError("players: an id is listed twice")
    history = request.get("history", [])
    if not isinstance(history, list):
        raise RequestError("history: a list of sessions")
    sessions = []
    for s, session in enumerate(history, start=1):
        if not isinstance(session, list):
            raise RequestError(f"history session {s}: a list of tables")
        tables = []
        for t, table in enumerate(session, start=1):
            if not isinstance(table, list):
                raise RequestError(f"history session {s}, table {t}: a list of ids")
            # Ids are matched as strings, so 7 and "7" are one player in points and groups.
            seated = [_id(p, f"history session {s}, table {t}") for p in table]
            tables.append([by_key.get(str(p), p) for p in seated])
        sessions.append(tables)
    seed = request.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise RequestError("seed: an integer")
    table_size = request.get("table_size", 4)
    if table_size not in (3, 4) or isinstance(table_size, bool):
        raise RequestError("table_size: 4 or 3")
    planned = request.get("sessions")
    if planned is not None and (
        isinstance(planned, bool) or not isinstance(planned, int) or planned < 1
    ):
        raise RequestError("sessions: the number of sessions of the event, 1 or more")
    return {
        "players": ids,
        "points": _keyed(request, "points", by_key, (int, float)),
        "groups": _keyed(request, "groups", by_key, str),
        "history": sessions,
        "seed": seed,
        "table_size": table_size,
        "sessions": planned,
    }


def answer(line: str, *, table_size: int = 4, notes: list[str] | None = None) -> dict[str, Any]:
    """The answer object for one request line (`table_size`: when the request has none).
    Same-group pairs the seating could not avoid are described in `notes` (not the answer,
    whose shape the contract fixes)."""
    try:
        request = json.loads(line)
    except ValueError as error:
        return {"error": f"the line is not JSON: {error}"}
    try:
        if isinstance(request, dict) and "table_size" not in request:
            request = {**request, "table_size": table_size}
        parsed = parse_request(request)
        tables = swiss_session(**parsed)
    except (RequestError, SeatingError) as error:
        return {"error": str(error)}
    if parsed["groups"] and notes is not None:
        found, least = group_pairs([tables], parsed["groups"])
        if found:
            notes.append(
                f"{found} same-group pair{'s' if found > 1 else ''} share a table "
                f"(least possible {least})"
            )
    return {"tables": tables}


def serve(
    lines: Iterable[str], out: IO[str], *, table_size: int = 4, err: IO[str] | None = None
) -> int:
    """Answer each non-blank line with one JSON line, flushed; returns the count answered.
    Notes (groups that could not be kept apart) go to `err`, one line each."""
    answered = 0
    for line in lines:
        if not line.strip():
            continue
        notes: list[str] = []
        reply = answer(line, table_size=table_size, notes=notes)
        out.write(json.dumps(reply, separators=(",", ":")) + "\n")
        out.flush()
        answered += 1
        if err is not None:
            for note in notes:
                err.write(f"seating_swiss: request {answered}: {note}\n")
            err.flush()
    return answered


def main(argv: list[str] | None = None) -> int:
    """Options: ``--table-size 3|4``, the table size of requests that give none."""
    args = list(sys.argv[1:] if argv is None else argv)
    if any(a in ("-h", "--help") for a in args):
        sys.stdout.write((__doc__ or "") + USAGE)
        return 0
    table_size = 4
    if args[:1] == ["--table-size"] and len(args) == 2 and args[1] in ("3", "4"):
        table_size, args = int(args[1]), []
    elif len(args) == 1 and args[0] in ("--table-size=3", "--table-size=4"):
        table_size, args = int(args[0][-1]), []
    if args:
        sys.stderr.write(f"seating_swiss: unexpected arguments {' '.join(args)}\n{USAGE}")
        return 2
    serve(sys.stdin, sys.stdout, table_size=table_size, err=sys.stderr)
    return 0


USAGE = "usage: python manage.py seating_swiss [--table-size 3|4] < requests.jsonl\n"
