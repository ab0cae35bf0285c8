"""Bad input never crashes the API: schemathesis sends schema-driven and malformed requests to
every operation of the OpenAPI schema (/api/schema/) through the WSGI app, as an organiser (so
writes are exercised), and no answer may be a server error (5xx).

Path parameters point at real objects of a running tournament (a random id would only ever
meet a 404), so bodies reach the serializers and services. The budget is small (20 examples
per operation) so this runs in every CI run.
"""

from __future__ import annotations

from typing import Any, cast

import pytest
import schemathesis
from django.core.wsgi import get_wsgi_application
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode

from club.models import Club, ClubNight
from core.models import Player
from tests.factories import (
    ClubFactory,
    ClubNightFactory,
    MembershipFactory,
    PenaltyFactory,
)
from tests.reliability.reliability_support import Event, make_event
from tournaments.models import Penalty, Registration, SeatingPlan

pytestmark = pytest.mark.xdist_group("reliability")

EXAMPLES_PER_OPERATION = 20


@pytest.fixture
def fuzz_world(transactional_db: None) -> dict[str, Any]:
    event = make_event(tables=2, slug="fuzz-open")
    club = ClubFactory(slug="fuzz-club")
    admin_player = event.players[0]
    admin_player.user = event.organiser
    admin_player.save()
    MembershipFactory(club=club, player=admin_player, role="admin")
    night = cast(ClubNight, ClubNightFactory(club=club))
    penalty = cast(Penalty, PenaltyFactory(tournament=event.tournament, player=event.players[1]))
    plan = SeatingPlan.objects.create(
        tournament=event.tournament, mode=SeatingPlan.Mode.RANDOM, seed=1
    )
    table = event.games[0].table
    assert table is not None
    ids = {
        "games": event.games[0].pk,
        "tournaments": event.tournament.slug,
        "sessions": event.session.pk,
        "tables": table.pk,
        "registrations": Registration.objects.filter(tournament=event.tournament).first().pk,  # type: ignore[union-attr]
        "players": event.players[2].pk,
        "clubs": club.slug,
        "penalties": penalty.pk,
        "seating-plans": plan.pk,
        "nights": night.pk,
    }
    return {"event": event, "ids": ids, "club": club, "night": night}


# Loaded at import (pytest-django has set Django up by then); generating the schema reads no
# database. Each operation is its own pytest item with a readable id, so pytest-xdist can
# schedule them (schemathesis' own @schema.parametrize gives every item the same node id, and
# xdist then silently runs none of them; schemathesis.pytest.from_fixture does not work with
# pytest 9 yet).
schema = schemathesis.openapi.from_wsgi("/api/schema/", get_wsgi_application())
OPERATIONS = {
    f"{op.method.upper()} {op.path}": op
    for op in (result.ok() for result in schema.get_all_operations())
}


def real_path_parameters(operation: Any, ids: dict[str, Any]) -> dict[str, Any]:
    """Ids/slugs of existing objects for the operation's path parameters."""
    chosen: dict[str, Any] = {}
    parts = [p for p in operation.path.split("/") if p]
    for index, part in enumerate(parts):
        if part.startswith("{") and part.endswith("}") and index > 0:
            name, resource = part[1:-1], parts[index - 1]
            if resource in ids:
                chosen[name] = ids[resource]
            elif name == "number":
                chosen[name] = 0
    return chosen


@pytest.mark.parametrize("label", sorted(OPERATIONS))
@settings(
    max_examples=EXAMPLES_PER_OPERATION,
    deadline=None,
    derandomize=True,
    # No shrinking: a failure is reported as found (shrinking costs minutes of requests).
    phases=[Phase.explicit, Phase.generate],
    suppress_health_check=list(HealthCheck),
)
@given(data=st.data())
def test_api_answers_bad_input_without_server_errors(
    label: str, data: st.DataObject, fuzz_world: dict[str, Any]
) -> None:
    operation = OPERATIONS[label]
    fixed = real_path_parameters(operation, fuzz_world["ids"])
    case = data.draw(
        st.one_of(
            operation.as_strategy(GenerationMode.POSITIVE, path_parameters=fixed),
            operation.as_strategy(GenerationMode.NEGATIVE, path_parameters=fixed),
        )
    )
    event: Event = fuzz_world["event"]
    response = case.call(headers={"Authorization": f"Token {event.tokens['organiser']}"})
    assert response.status_code < 500, (
        f"{case.method} {case.formatted_path} query={case.query!r} body={case.body!r} "
        f"-> {response.status_code}: {response.text[:2000]}"
    )


@pytest.mark.parametrize(
    "url",
    [
        # Found by schemathesis (boundary values): 500s before the filters were bounded.
        "/api/v1/tables/?player=9223372036854775808",
        "/api/v1/games/?player=9223372036854775808",
        "/api/v1/games/?session=-9223372036854775809&club_night=99999999999999999999",
        "/api/v1/sessions/{session}/tables/?player=9223372036854775808",
        "/api/v1/tournaments/?year=0.0",
        "/api/v1/tournaments/?year=2147483648.0",
    ],
)
def test_out_of_range_numbers_in_query_strings_are_a_400(
    url: str, fuzz_world: dict[str, Any]
) -> None:
    event: Event = fuzz_world["event"]
    response = event.client("organiser").get(
        url.format(session=event.session.pk, slug=event.tournament.slug)
    )
    assert response.status_code == 400, response.content[:300]


@pytest.mark.parametrize(
    ("path", "body"),
    [
        # Found by schemathesis on PostgreSQL: integer out of range on insert -> 500.
        ("seating-plans/", {"mode": "random", "seed": 873099904820}),
        ("penalties/", {"player": 1, "kind": "other", "points": 2**40, "reason": "x"}),
        ("penalties/", {"player": 1, "kind": "lateness", "minutes_late": 2**20, "reason": "x"}),
    ],
)
def test_out_of_range_numbers_in_bodies_are_a_400(
    path: str, body: dict[str, Any], fuzz_world: dict[str, Any]
) -> None:
    event: Event = fuzz_world["event"]
    response = event.client("organiser").post(
        f"/api/v1/tournaments/{event.tournament.slug}/{path}", body, format="json"
    )
    assert response.status_code == 400, response.content[:300]


def test_the_fuzzed_schema_covers_the_api(fuzz_world: dict[str, Any]) -> None:
    """The schema schemathesis reads has the operations we rely on (it is not empty)."""
    paths = set(schema.raw_schema["paths"])
    assert len(OPERATIONS) >= 40
    assert "/api/v1/games/{id}/hands/" in paths
    assert "/api/v1/tournaments/{slug}/standings/" in paths
    assert "/api/v1/tournaments/{slug}/registrations/import/" in paths
    assert "/api/v1/games/import/" in paths
    assert len(paths) >= 20
    assert Player.objects.exists() and Club.objects.exists() and ClubNight.objects.exists()
