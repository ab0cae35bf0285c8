"""The OpenAPI schema: served, valid OpenAPI 3, warning-free, and describing the error bodies."""

from __future__ import annotations

import io

import pytest
import yaml
from django.core.management import call_command
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db


def test_schema_generation_validates_without_warnings() -> None:
    """`manage.py spectacular --validate --fail-on-warn` (raises on a warning or error)."""
    out = io.StringIO()
    call_command("spectacular", "--validate", "--fail-on-warn", stdout=out)
    schema = yaml.safe_load(out.getvalue())
    assert schema["openapi"].startswith("3.")


def test_schema_endpoint_describes_the_api() -> None:
    response = APIClient().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    schema = (
        response.json() if "json" in response["Content-Type"] else yaml.safe_load(response.content)
    )
    paths = schema["paths"]
    hands = paths["/api/v1/games/{id}/hands/"]["post"]
    assert {"201", "400", "403", "404", "409", "422"} <= set(hands["responses"])
    conflict = hands["responses"]["409"]["content"]["application/json"]["schema"]["$ref"]
    assert conflict.endswith("/Conflict")
    body = hands["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    hand_input = schema["components"]["schemas"][body.rsplit("/", 1)[-1]]
    assert {"hand", "version"} <= set(hand_input["required"])
    assert any(p["name"] == "Idempotency-Key" for p in hands["parameters"])
    assert "/api/v1/tiles/evaluate/" in paths
    assert "/api/v1/auth/token/" in paths
    plan = paths["/api/v1/tournaments/{slug}/seating-plans/"]["post"]
    assert {"202", "503"} <= set(plan["responses"])  # 503: the broker is down (reliability.md)
    assert "429" in paths["/api/v1/auth/token/"]["post"]["responses"]  # locked out


def test_list_filters_are_deprecated_on_object_routes() -> None:
    """core.api.filters: the filters choose what a list shows and object routes ignore them
    (test_api_object_routes_ignore_filters.py); the schema keeps them there (extend, never
    break: test_api_schema_contract.py) but marks them deprecated, and only there."""
    schema = APIClient().get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    paths = (schema.json() if "json" in schema["Content-Type"] else yaml.safe_load(schema.content))[
        "paths"
    ]

    def query(path: str, method: str = "get") -> dict[str, bool]:
        parameters = paths[path][method].get("parameters", [])
        return {p["name"]: p.get("deprecated", False) for p in parameters if p["in"] == "query"}

    assert query("/api/v1/tournaments/") == {
        "country": False,
        "page": False,
        "status": False,
        "year": False,
    }
    assert query("/api/v1/tournaments/{slug}/registrations/") == {
        "country": True,
        "status": True,
        "year": True,
    }
    assert query("/api/v1/tournaments/{slug}/standings/") == {
        "country": True,
        "format": False,  # the route's own parameter
        "status": True,
        "year": True,
    }
    assert set(query("/api/v1/games/{id}/hands/").values()) == {True}
    assert not any(query("/api/v1/games/").values())
