"""Issue 16: the live schemathesis run (bench/fuzz.py, in CI after the load test) reaches past
validation: every path parameter of every operation is given a seeded object, the schema links
created objects to the operations on them (stateful testing), and the report counts, per
operation, how many cases got a 2xx.

The run itself needs a live server (CI: scripts/ci-reliability.sh); these check its parts.
"""

from __future__ import annotations

import importlib.util
import io
import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from django.core.management import call_command
from rest_framework.test import APIClient

from tests.reliability.reliability_support import ROOT

pytestmark = [pytest.mark.xdist_group("reliability"), pytest.mark.django_db]


def _fuzz() -> Any:
    spec = importlib.util.spec_from_file_location("bench_fuzz", ROOT / "bench" / "fuzz.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _schema() -> dict[str, Any]:
    out = io.StringIO()
    call_command("spectacular", "--validate", "--fail-on-warn", stdout=out)
    return dict(yaml.safe_load(out.getvalue()))


def test_created_objects_link_to_the_operations_on_them() -> None:
    schema = _schema()
    paths = schema["paths"]
    created = paths["/api/v1/tournaments/"]["post"]["responses"]["201"]["links"]
    standings = created["v1_tournaments_standings_list"]
    assert standings["parameters"] == {"slug": "$response.body#/slug"}
    registered = paths["/api/v1/tournaments/{slug}/registrations/"]["post"]["responses"]["201"]
    assert registered["links"]["v1_registrations_drop_create"]["parameters"] == {
        "id": "$response.body#/id"
    }
    sessions = paths["/api/v1/tournaments/{slug}/sessions/"]["post"]["responses"]["201"]
    assert sessions["links"]["v1_sessions_start_create"]["parameters"] == {
        "id": "$response.body#/0/id"  # the answer is a list of sessions
    }
    games = paths["/api/v1/games/import/"]["post"]["responses"]["201"]["links"]
    assert games["v1_games_hands_create"]["parameters"] == {"id": "$response.body#/id"}
    operation_ids = {
        op["operationId"] for item in paths.values() for op in item.values() if "operationId" in op
    }
    links = [
        link
        for item in paths.values()
        for op in item.values()
        for response in op.get("responses", {}).values()
        for link in response.get("links", {}).values()
    ]
    assert len(links) >= 60
    assert all(link["operationId"] in operation_ids for link in links)


def test_every_path_parameter_gets_a_seeded_object(tmp_path: Path) -> None:
    """No operation of the fuzz run is left to random ids (issue 16: 21 operations answered only
    404 in CI for lack of test data)."""
    fuzz = _fuzz()
    world = fuzz.seed_fuzz_world()
    schema = _schema()
    for path in schema["paths"]:
        names = {part[1:-1] for part in path.split("/") if part.startswith("{")}
        fixed = fuzz.path_parameters(path, world)
        assert {key.removeprefix("path.") for key in fixed} == names, path
    config = tmp_path / "schemathesis.toml"
    fuzz.write_config(schema, world, config)
    text = config.read_text()
    assert f'Authorization = "Token {world["token"]}"' in text
    assert 'include-name = "PUT /api/v1/games/{id}/hands/{number}/"' in text
    # POST /clubs/ is for site administrators: their token, not the organiser's.
    clubs = text.split('include-name = "POST /api/v1/clubs/"')[1].split("[[operations]]")[0]
    assert f'Authorization = "Token {world["tokens"]["admin"]}"' in clubs


def test_every_seeded_object_answers_the_organiser() -> None:
    """The seeded ids are real: each operation's GET on them is a 200 for the token."""
    fuzz = _fuzz()
    world = fuzz.seed_fuzz_world()
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {world['token']}")
    for path in (
        "/api/v1/tournaments/{slug}/",
        "/api/v1/clubs/{slug}/",
        "/api/v1/games/{id}/",
        "/api/v1/sessions/{id}/",
        "/api/v1/tables/{id}/",
        "/api/v1/registrations/{id}/",
        "/api/v1/players/{id}/",
        "/api/v1/penalties/{id}/",
        "/api/v1/seating-plans/{id}/",
    ):
        fixed = fuzz.path_parameters(path, world)
        url = path
        for key, value in fixed.items():
            url = url.replace("{" + key.removeprefix("path.") + "}", str(value))
        assert client.get(url).status_code == 200, url
    hands = fuzz.path_parameters("/api/v1/games/{id}/hands/{number}/", world)
    game = client.get(f"/api/v1/games/{hands['path.id']}/").json()
    assert len(game["hands"]) > hands["path.number"]


def test_the_report_counts_cases_and_2xx_per_operation(tmp_path: Path) -> None:
    fuzz = _fuzz()

    def scenario(cases: list[tuple[str, str, str, int]]) -> str:
        return json.dumps(
            {
                "ScenarioFinished": {
                    "recorder": {
                        "label": "x",
                        "cases": {
                            cid: {"value": {"method": m, "path": p}} for cid, m, p, _ in cases
                        },
                        "interactions": {
                            cid: {"response": {"status_code": s}} for cid, _, _, s in cases
                        },
                    }
                }
            }
        )

    report = tmp_path / "run.ndjson"
    report.write_text(
        "\n".join(
            [
                json.dumps({"Initialize": {}}),
                scenario(
                    [("a", "POST", "/api/v1/games/", 201), ("b", "POST", "/api/v1/games/", 400)]
                ),
                scenario([("c", "GET", "/api/v1/games/{id}/", 200)]),
                scenario([("a", "POST", "/api/v1/games/", 201)]),  # the same case again
            ]
        )
    )
    counts = fuzz.tally(report)
    assert counts["POST /api/v1/games/"] == {"cases": 2, "2xx": 1, "4xx": 1}
    assert counts["GET /api/v1/games/{id}/"] == {"cases": 1, "2xx": 1}


def _send_examples(order: int) -> dict[str, int]:
    """Every example of the fuzz run's schema (the schema's own and the seeded ones), sent in
    the schema's order (order 1) or backwards (-1), each with its role's token: the status
    answered, per operation."""
    fuzz = _fuzz()
    world = fuzz.seed_fuzz_world()
    schema = fuzz.add_examples(_schema(), world)
    roles = {
        name: example.get("role", "organiser")
        for name, example in fuzz.operation_examples(world).items()
    }
    answered = {}
    for path, method, operation in fuzz._operation_items(schema)[::order]:
        name = f"{method.upper()} {path}"
        client = APIClient()
        client.credentials(
            HTTP_AUTHORIZATION=f"Token {world['tokens'][roles.get(name, 'organiser')]}"
        )
        url, query = path, {}
        for parameter in operation.get("parameters", []):
            if "example" not in parameter:
                continue
            if parameter["in"] == "path":
                url = url.replace("{" + parameter["name"] + "}", str(parameter["example"]))
            elif parameter["in"] == "query":
                query[parameter["name"]] = parameter["example"]
        content = operation.get("requestBody", {}).get("content", {})
        bodies = [
            e["value"] for e in content.get("application/json", {}).get("examples", {}).values()
        ]
        if query:
            url += "?" + "&".join(
                f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in query.items()
            )
        for body in bodies or [None]:
            response = getattr(client, method)(url, body, format="json")
            answered[name] = response.status_code
            assert 200 <= response.status_code < 300, (name, url, response.content[:500])
    return answered


@pytest.mark.parametrize("order", [1, -1], ids=["schema-order", "backwards"])
def test_every_operation_has_an_example_that_succeeds(order: int) -> None:
    """Issue 16: each of the API's operations has a request in the fuzz run's schema that
    reaches its service and gets a 2xx on the seeded objects, in either order (each operation
    that changes state has an object of its own)."""
    answered = _send_examples(order)
    assert set(answered) == {f"{m.upper()} {p}" for p, m, _ in _fuzz()._operation_items(_schema())}
