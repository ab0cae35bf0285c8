"""schemathesis hooks of bench/fuzz.py (issue 37): generated requests meet fresh objects.

Loaded by schemathesis' CLI through SCHEMATHESIS_HOOKS=fuzz_hooks (bench/ on PYTHONPATH), with
HANCHAN_FUZZ_STATE naming the JSON file fuzz.py writes: the server, the organiser's token, the
seeded world and the pools of `seed_pools()`.

An operation that changes an object once (drop a registration, start a session, cancel a
penalty, make a user staff, add a club member, delete a game's last hand) answered 400 ("already
dropped") to every generated request after its example, however good the data, and one that
must name the game's current version (hand entry) to all but the first. So schemathesis warned
that they "mostly rejected generated data". Before each *positive* request of the coverage,
fuzzing and stateful phases (data that fits the schema) `before_call` gives it the next fresh
object of its pool, the game's current version, a unique slug: what a real client would send.
Negative requests and the generated field values otherwise go out as generated, so the API's
validation is still fuzzed; the examples phase is left as fuzz.py wrote it.
"""

from __future__ import annotations

import json
import os
import urllib.request
from collections import Counter
from collections.abc import Callable
from typing import Any

STATE_ENV = "HANCHAN_FUZZ_STATE"
ALL_TENPAI_DRAW = {"outcome": "draw", "tenpai": [0, 1, 2, 3], "riichi": []}

_state: dict[str, Any] | None = None
_drawn: Counter[str] = Counter()


def state() -> dict[str, Any]:
    global _state
    if _state is None:
        with open(os.environ[STATE_ENV], encoding="utf-8") as handle:
            _state = json.load(handle)
    return _state


def _next(pool: str) -> Any:
    """The next object of `pool`, round the pool again once all were used."""
    items = state()["pools"][pool]
    item = items[_drawn[pool] % len(items)]
    _drawn[pool] += 1
    return item


def _api(method: str, path: str, body: Any = None) -> tuple[int, Any]:
    s = state()
    request = urllib.request.Request(
        s["base"] + path,
        data=None if body is None else json.dumps(body).encode(),
        method=method,
        headers={"Authorization": f"Token {s['token']}", "Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, None


def _body(parts: dict[str, Any]) -> dict[str, Any] | None:
    body = parts.get("body")
    return body if isinstance(body, dict) else None


def _from_pool(pool: str, name: str = "id") -> Callable[[dict[str, Any]], None]:
    def fix(parts: dict[str, Any]) -> None:
        parts["path"][name] = _next(pool)

    return fix


def _into_body(pool: str, field: str) -> Callable[[dict[str, Any]], None]:
    def fix(parts: dict[str, Any]) -> None:
        body = _body(parts)
        if body is not None:
            body[field] = _next(pool)

    return fix


def _login(parts: dict[str, Any]) -> None:
    """Valid credentials in one request of four (each login hashes the password: seconds on a
    busy machine); the others keep what was generated."""
    body = _body(parts)
    if body is not None and _drawn["login"] % 4 == 0:
        body.update(username=state()["username"], password=state()["password"])
    _drawn["login"] += 1


def _new_tournament(parts: dict[str, Any]) -> None:
    body = _body(parts)
    if body is None:
        return
    body["slug"] = f"fuzz-gen-{state()['tag']}-{_drawn['tournament']}"
    _drawn["tournament"] += 1
    if not str(body.get("name", "")).strip():
        body["name"] = "Fuzz generated"
    starts, ends = body.get("starts_on"), body.get("ends_on")
    if isinstance(starts, str) and isinstance(ends, str) and ends < starts:
        body["ends_on"] = starts


def _new_club(parts: dict[str, Any]) -> None:
    body = _body(parts)
    if body is None:
        return
    body["slug"] = f"fuzz-gen-club-{state()['tag']}-{_drawn['club']}"
    _drawn["club"] += 1
    if not str(body.get("name", "")).strip():
        body["name"] = "Fuzz generated club"


def _csv_registrations(parts: dict[str, Any]) -> None:
    if _body(parts) is not None:
        n = _drawn["csv"]
        _drawn["csv"] += 1
        text = f"first_name,last_name,ema_number,country\nGen{n},Fuzz{state()['tag']},,DE\n"
        parts["body"] = {"text": text}


def _csv_plan(parts: dict[str, Any]) -> None:
    if _body(parts) is not None:
        parts["body"] = {"text": "round,table,east,south,west,north\n1,1,1,2,3,4\n"}


def _delete_last_hand(parts: dict[str, Any]) -> None:
    parts["path"].update(id=_next("delete_hand"), number=0)
    parts["query"]["version"] = 1


# What the hooks know of the games they enter hands in: "version" and the hands' "data", read
# once (GET) and kept current from the answers (after_call), read again after a refusal.
_games: dict[int, dict[str, Any]] = {}


def _game(game: int) -> dict[str, Any] | None:
    if game not in _games:
        status, current = _api("GET", f"/api/v1/games/{game}/")
        if status != 200 or not isinstance(current, dict):
            return None
        _games[game] = {
            "version": current["version"],
            "hands": [(h or {}).get("data") or {} for h in current.get("hands", [])],
        }
    return _games[game]


def game_answered(game: int, status: int, body: Any) -> None:
    """An answer about `game`: a 2xx with the game brings the cache up to date, a refusal
    drops it (read again before the next request)."""
    if 200 <= status < 300 and isinstance(body, dict) and "version" in body:
        known = _games.setdefault(game, {"version": 0, "hands": []})
        known["version"] = body["version"]
        if isinstance(body.get("hands"), list):
            known["hands"] = [(h or {}).get("data") or {} for h in body["hands"]]
    elif status >= 400:
        _games.pop(game, None)


def _enter_hand(parts: dict[str, Any]) -> None:
    """The game's current version; every other request a hand that keeps the game going (all
    tenpai: the dealer stays), the others the generated hand (the engine judges it)."""
    body = _body(parts)
    game = parts["path"].get("id")
    known = _game(game) if body is not None and isinstance(game, int) else None
    if body is None or known is None:
        return
    body["version"] = known["version"]
    if _drawn["hand"] % 2 == 0:
        body["hand"] = dict(ALL_TENPAI_DRAW)
    _drawn["hand"] += 1


def _correct_hand(parts: dict[str, Any]) -> None:
    """The game's current version and a real correction of the hand: its winner's ron from the
    other player than the stored one (a generated hand is not checked against the hands before
    it: no API previews a correction)."""
    body = _body(parts)
    game, number = parts["path"].get("id"), parts["path"].get("number")
    known = _game(game) if body is not None and isinstance(game, int) else None
    if body is None or known is None or not known["hands"]:
        return
    hands = known["hands"]
    if not isinstance(number, int) or not 0 <= number < len(hands):
        number = len(hands) - 1
    parts["path"]["number"] = number
    body["version"] = known["version"]
    loser = 3 if hands[number].get("loser") == 2 else 2
    body["hand"] = {"outcome": "ron", "wins": [{"winner": 1, "han": 2, "fu": 30}], "loser": loser}
    if not str(body.get("reason", "")).strip():
        body["reason"] = "Fuzz: wrong loser"


FIXES: dict[str, Callable[[dict[str, Any]], None]] = {
    "POST /api/v1/registrations/{id}/drop/": _from_pool("drop"),
    "POST /api/v1/registrations/{id}/disqualify/": _from_pool("disqualify"),
    "POST /api/v1/registrations/{id}/reinstate/": _from_pool("reinstate"),
    "POST /api/v1/sessions/{id}/start/": _from_pool("start"),
    "POST /api/v1/sessions/{id}/close/": _from_pool("close"),
    "POST /api/v1/sessions/{id}/reopen/": _from_pool("reopen"),
    "POST /api/v1/penalties/{id}/cancel/": _from_pool("cancel"),
    "POST /api/v1/tournaments/{slug}/staff/": _into_body("staff", "user"),
    "POST /api/v1/clubs/{slug}/members/": _into_body("members", "player"),
    "DELETE /api/v1/games/{id}/hands/{number}/": _delete_last_hand,
    "POST /api/v1/games/{id}/hands/": _enter_hand,
    "POST /api/v1/auth/token/": _login,
    "PUT /api/v1/games/{id}/hands/{number}/": _correct_hand,
    "POST /api/v1/tournaments/": _new_tournament,
    "POST /api/v1/clubs/": _new_club,
    "POST /api/v1/tournaments/{slug}/registrations/import/": _csv_registrations,
    "POST /api/v1/tournaments/{slug}/seating-plans/upload/": _csv_plan,
}


# Bodies with nested objects: sent as JSON (the operations take it) whatever media type the
# generated case had, the examples' too: a form-encoded hand arrives as "outcome is missing".
NESTED_BODIES = {"POST /api/v1/games/{id}/hands/", "PUT /api/v1/games/{id}/hands/{number}/"}


def fix_request(operation: str, parts: dict[str, Any]) -> bool:
    """Apply `operation`'s fix to `parts` ({"path", "query", "body"}, changed in place);
    whether there was one. What `before_call` does, callable without schemathesis."""
    fix = FIXES.get(operation)
    if fix is None:
        return False
    parts.setdefault("path", {})
    parts.setdefault("query", {})
    fix(parts)
    return True


try:
    import schemathesis
    from schemathesis.generation.meta import TestPhase
    from schemathesis.generation.modes import GenerationMode
except ImportError:  # imported for fix_request alone
    schemathesis = None  # type: ignore[assignment]

if schemathesis is not None:

    @schemathesis.hook
    def before_call(context: Any, case: Any, **kwargs: Any) -> None:
        meta = case.meta
        if meta is None or meta.generation.mode != GenerationMode.POSITIVE:
            return
        operation = str(case.operation.label)  # "POST /api/v1/sessions/{id}/start/"
        if operation in NESTED_BODIES and isinstance(case.body, dict):
            case.media_type = "application/json"  # a form cannot carry the hand
        if meta.phase.name == TestPhase.EXAMPLES:
            return
        parts = {
            "path": dict(case.path_parameters or {}),
            "query": dict(case.query or {}),
            "body": case.body if isinstance(case.body, dict) else None,
        }
        if fix_request(operation, parts):
            case.path_parameters = parts["path"]
            case.query = parts["query"]
            if parts["body"] is not None:
                case.body = parts["body"]

    @schemathesis.hook
    def after_call(context: Any, case: Any, response: Any) -> None:
        if str(case.operation.label) not in NESTED_BODIES:
            return
        game = (case.path_parameters or {}).get("id")
        if not isinstance(game, int):
            return
        try:
            body = json.loads(response.content or b"null")
        except ValueError:
            body = None
        game_answered(game, int(response.status_code), body)
