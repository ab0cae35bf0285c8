"""The OpenAPI document keeps its contract (issue 29.3): the tournament API was split into
resource ViewSets without changing what a client sees.

`openapi_before_29.json` is /api/schema/ as it was before the split. Every path and method it
has must still exist with the same parameters, request body and responses, and every component
it names must still be there, the same. Only operation ids and tags may differ (they follow
the view sets' names); links are compared by the operation they point to, not its id.

It is a superset check: later work may add paths, methods, optional parameters, fields,
enum values and links without touching the snapshot (extend, never break).
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db

SNAPSHOT = Path(__file__).with_name("openapi_before_29.json")
METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")


def live_document() -> dict[str, Any]:
    response = APIClient().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    if "json" in response["Content-Type"]:
        return response.json()
    return yaml.safe_load(response.content)


def normalised(document: dict[str, Any]) -> dict[str, Any]:
    """The document without operation ids and tags; each link keyed by (and pointing to)
    "METHOD path" of its target operation instead of the target's operation id."""
    doc = copy.deepcopy(document)
    names = {
        operation["operationId"]: f"{method.upper()} {path}"
        for path, item in doc["paths"].items()
        for method, operation in item.items()
        if method in METHODS and "operationId" in operation
    }
    for item in doc["paths"].values():
        for method, operation in item.items():
            if method not in METHODS:
                continue
            operation.pop("operationId", None)
            operation.pop("tags", None)
            for response in operation.get("responses", {}).values():
                links = response.get("links")
                if isinstance(links, dict):
                    response["links"] = {
                        names.get(key, key): {
                            **link,
                            "operationId": names.get(link.get("operationId")),
                        }
                        for key, link in links.items()
                    }
    return doc


# The bounds Django derives from the database's integer column sizes (SQLite's are all 64-bit,
# PostgreSQL's 16/32/64): the same model gives a different schema on each backend, and the
# snapshot was taken on SQLite. They are dropped from both sides before the comparison, with
# the `format` (int32/int64) drf-spectacular infers from them; any other bound is compared.
STORAGE_BOUNDS = {limit for bits in (15, 31, 63) for limit in (2**bits - 1, -(2**bits))}


def without_storage_bounds(node: Any) -> Any:
    if isinstance(node, list):
        return [without_storage_bounds(item) for item in node]
    if not isinstance(node, dict):
        return node
    node = {key: without_storage_bounds(value) for key, value in node.items()}
    if node.get("type") == "integer":
        for key in ("maximum", "minimum"):
            if node.get(key) in STORAGE_BOUNDS:
                del node[key]
        if node.get("format") in ("int32", "int64"):
            del node["format"]
    return node


def _keyed(rows: list[Any]) -> dict[Any, Any] | None:
    """Parameters (a list of objects named by `name` and `in`) by that key; else None."""
    if rows and all(isinstance(r, dict) and "name" in r and "in" in r for r in rows):
        return {(r["in"], r["name"]): r for r in rows}
    return None


def breaks(old: Any, new: Any, where: str = "") -> list[str]:
    """Where `new` does not extend `old`: a key, list item or value of `old` missing or changed
    in `new`. Lists of plain values (enum, required, type) may grow; parameters may gain
    optional ones; other lists (allOf, oneOf, ...) keep their length, item by item."""
    if isinstance(old, dict):
        if not isinstance(new, dict):
            return [f"{where}: was an object"]
        found: list[str] = []
        for key, value in old.items():
            if key not in new:
                found.append(f"{where}/{key}: missing")
            else:
                found += breaks(value, new[key], f"{where}/{key}")
        return found
    if isinstance(old, list):
        if not isinstance(new, list):
            return [f"{where}: was a list"]
        old_keyed, new_keyed = _keyed(old), _keyed(new) if new else {}
        if old_keyed is not None and new_keyed is not None:
            found = []
            for key, value in old_keyed.items():
                if key not in new_keyed:
                    found.append(f"{where}/{key}: missing")
                else:
                    found += breaks(value, new_keyed[key], f"{where}/{key}")
            added = [key for key in new_keyed if key not in old_keyed]
            found += [
                f"{where}/{key}: new and required"
                for key in added
                if new_keyed[key].get("required")
            ]
            return found
        if all(not isinstance(v, dict | list) for v in old):
            return [f"{where}: {v!r} missing" for v in old if v not in new]
        if len(old) != len(new):
            return [f"{where}: {len(old)} items, now {len(new)}"]
        return [
            p
            for i, (o, n) in enumerate(zip(old, new, strict=True))
            for p in breaks(o, n, f"{where}/{i}")
        ]
    return [] if old == new else [f"{where}: {old!r} is now {new!r}"]


def contract_breaks(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    before = without_storage_bounds(normalised(before))
    after = without_storage_bounds(normalised(after))
    found: list[str] = []
    for path, item in before["paths"].items():
        for method, operation in item.items():
            if method not in METHODS:
                continue
            now = after["paths"].get(path, {}).get(method)
            if now is None:
                found.append(f"{method.upper()} {path}: missing")
                continue
            for part in ("parameters", "requestBody", "responses"):
                if part in operation or part in now:
                    found += breaks(
                        operation.get(part, {} if part != "parameters" else []),
                        now.get(part, {} if part != "parameters" else []),
                        f"{method.upper()} {path} {part}",
                    )
    found += breaks(before.get("components", {}), after.get("components", {}), "components")
    return found


def test_live_schema_extends_the_snapshot_taken_before_issue_29() -> None:
    snapshot = json.loads(SNAPSHOT.read_text(encoding="utf-8"))
    assert contract_breaks(snapshot, live_document()) == []


def test_the_check_sees_a_broken_contract() -> None:
    """The comparison itself: it passes an added endpoint, field and optional parameter, and
    names a removed path, a changed response, a new required parameter and a lost field."""
    snapshot = json.loads(SNAPSHOT.read_text(encoding="utf-8"))
    grown = copy.deepcopy(snapshot)
    grown["paths"]["/api/v1/new-thing/"] = {"get": {"operationId": "x", "responses": {}}}
    any_schema = next(iter(grown["components"]["schemas"].values()))
    any_schema.setdefault("properties", {})["added_later"] = {"type": "string"}
    hands = grown["paths"]["/api/v1/games/{id}/hands/"]["post"]
    hands["parameters"].append({"in": "query", "name": "extra", "schema": {"type": "string"}})
    hands["tags"] = ["elsewhere"]
    # A renamed operation: its id changes everywhere, in the links that point to it too.
    old_id = json.dumps(hands["operationId"])
    grown = json.loads(json.dumps(grown).replace(old_id, '"renamed_operation"'))
    assert contract_breaks(snapshot, grown) == []

    broken = copy.deepcopy(snapshot)
    del broken["paths"]["/api/v1/tiles/evaluate/"]
    hands = broken["paths"]["/api/v1/games/{id}/hands/"]["post"]
    del hands["responses"]["409"]
    hands["parameters"].append({"in": "query", "name": "must", "required": True})
    name, schema = next(
        (n, s) for n, s in broken["components"]["schemas"].items() if s.get("properties")
    )
    lost = next(iter(schema["properties"]))
    del schema["properties"][lost]
    found = contract_breaks(snapshot, broken)
    assert any(p.startswith("POST /api/v1/tiles/evaluate/: missing") for p in found), found
    assert "POST /api/v1/games/{id}/hands/ responses/409: missing" in found
    assert "POST /api/v1/games/{id}/hands/ parameters/('query', 'must'): new and required" in found
    assert f"components/schemas/{name}/properties/{lost}: missing" in found
