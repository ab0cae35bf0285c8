"""OpenAPI links in the schema (issue 16): a created object's id or slug to the operations on it.

A drf-spectacular postprocessing hook. `POST /api/v1/tournaments/` answers 201 with a
Tournament; its `slug` is the `{slug}` of every `/api/v1/tournaments/{slug}/...` operation that
needs no other path parameter, and so on for each object below. Clients may follow them;
schemathesis' stateful phase (bench/fuzz.py) chains a create into the reads and writes of what
it created, where random ids would only meet 404s.
"""

from __future__ import annotations

from typing import Any

# Response component -> (path prefix of the object's operations, the path parameter, the field).
OBJECTS: dict[str, tuple[str, str, str]] = {
    "Tournament": ("/api/v1/tournaments/{slug}/", "slug", "slug"),
    "Club": ("/api/v1/clubs/{slug}/", "slug", "slug"),
    "Registration": ("/api/v1/registrations/{id}/", "id", "id"),
    "Session": ("/api/v1/sessions/{id}/", "id", "id"),
    "SeatingPlan": ("/api/v1/seating-plans/{id}/", "id", "id"),
    "Penalty": ("/api/v1/penalties/{id}/", "id", "id"),
    "GameDetail": ("/api/v1/games/{id}/", "id", "id"),
    "Player": ("/api/v1/players/{id}/", "id", "id"),
    "Table": ("/api/v1/tables/{id}/", "id", "id"),
}
CREATED = ("201", "202")
METHODS = ("get", "post", "put", "patch", "delete")


def _component(response: dict[str, Any]) -> tuple[str | None, str]:
    """The response's component name, and the JSON pointer to the object (a list: its first)."""
    schema = response.get("content", {}).get("application/json", {}).get("schema", {})
    pointer = ""
    if schema.get("type") == "array":
        schema, pointer = schema.get("items", {}), "/0"
    ref = schema.get("$ref", "")
    name = ref.rsplit("/", 1)[-1] if ref.startswith("#/components/schemas/") else None
    return name, pointer


def _targets(paths: dict[str, Any], prefix: str) -> list[str]:
    """operationIds of the operations under `prefix` that take no other path parameter."""
    found = []
    for path, item in sorted(paths.items()):
        if path.startswith(prefix) and "{" not in path[len(prefix) :]:
            found += [item[m]["operationId"] for m in METHODS if m in item]
    return found


def add_links(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict[str, Any]:
    paths = result.get("paths", {})
    for item in paths.values():
        for method in METHODS:
            operation = item.get(method)
            if not operation:
                continue
            for status, response in operation.get("responses", {}).items():
                component, pointer = _component(response) if status in CREATED else (None, "")
                if component not in OBJECTS:
                    continue
                prefix, parameter, field = OBJECTS[component]
                links = {
                    target: {
                        "operationId": target,
                        "parameters": {parameter: f"$response.body#{pointer}/{field}"},
                    }
                    for target in _targets(paths, prefix)
                }
                if links:
                    response["links"] = links
    return result
