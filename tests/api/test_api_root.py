"""Issue 37: GET /api/v1/ answers the API's root (README and docs/api.md point there): every
resource collection by its path and absolute URL, with the documentation and the schema."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db

# The routers' collections (registrations, sessions, penalties and seating plans are read
# under their tournament and have no collection of their own).
COLLECTIONS = ["clubs", "games", "players", "tables", "tournaments"]


def test_api_root_lists_the_resources_with_docs_and_schema(client: Client) -> None:
    response = client.get("/api/v1/", HTTP_ACCEPT="application/json")
    assert response.status_code == 200
    body = response.json()
    for name in COLLECTIONS:
        assert body[name] == f"http://testserver/api/v1/{name}/"
    assert body["auth/token"] == "http://testserver/api/v1/auth/token/"
    assert body["tiles/evaluate"] == "http://testserver/api/v1/tiles/evaluate/"
    assert body["docs"] == "http://testserver/api/docs/"
    assert body["schema"] == "http://testserver/api/schema/"
    # Each listed collection answers (anyone may read public data, docs/api.md).
    for name in COLLECTIONS:
        assert client.get(body[name]).status_code == 200, name


def test_api_root_is_browsable(client: Client) -> None:
    response = client.get("/api/v1/", HTTP_ACCEPT="text/html")
    assert response.status_code == 200
    assert "/api/v1/tournaments/" in response.content.decode()


def test_api_root_is_not_an_operation_of_the_schema(client: Client) -> None:
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    assert "/api/v1/" not in schema["paths"]
