"""Bad input on every write endpoint: 400 naming the field, and nothing saved (counts unchanged)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.db.models import Model

from club.models import Club, ClubNight, League, Membership
from core.models import AuditEntry, IdempotencyRecord, Player
from scoring.models import Game, GameSeat, Hand
from tests.api.conftest import World, client_for
from tests.factories import HandFactory, PlayerFactory, ron
from tournaments.models import (
    Penalty,
    Registration,
    SeatingPlan,
    Session,
    StaffRole,
    Table,
    Tournament,
)

pytestmark = pytest.mark.django_db

COUNTED: list[type[Model]] = [
    AuditEntry,
    IdempotencyRecord,
    Player,
    ClubNight,
    League,
    Membership,
    Club,
    Tournament,
    StaffRole,
    Registration,
    SeatingPlan,
    Session,
    Table,
    Penalty,
    Game,
    GameSeat,
    Hand,
]


def counts() -> dict[str, int]:
    return {model.__name__: model._default_manager.count() for model in COUNTED}


def names_field(body: Any, field: str) -> bool:
    """Service errors: {"field": "x", ...}; DRF validation errors: {"x": [...]}."""
    if not isinstance(body, dict):
        return False
    named = body.get("field")
    if isinstance(named, str) and (named == field or named.startswith(f"{field}.")):
        return True
    if field in body:
        return True
    return any(isinstance(e, dict) and e.get("field") == field for e in body.get("errors", []))


@dataclass(frozen=True)
class Bad:
    name: str
    method: str
    url: Callable[[World], str]
    body: Callable[[World], Any]
    field: str
    role: str = "organiser"
    setup: Callable[[World], None] | None = None


T = "/api/v1/tournaments/open"
G = "/api/v1/games"
HAND = ron(winner=1, loser=2, han=2)
IMPOSSIBLE_HAND = {  # 1 han 20 fu by ron: no such hand (game-record format, "Hands")
    "outcome": "ron",
    "loser": 2,
    "wins": [{"winner": 1, "han": 1, "fu": 20}],
    "riichi": [],
}


def _pending_plan(world: World) -> None:
    world.extra["plan"] = SeatingPlan.objects.create(
        tournament=world.tournament, mode=SeatingPlan.Mode.RANDOM
    )


def _hand(world: World) -> None:
    HandFactory(game=world.game, number=0, data=HAND)


BAD = [
    Bad(
        "player without first name",
        "post",
        lambda w: "/api/v1/players/",
        lambda w: {"first_name": "", "last_name": "Lovelace"},
        "first_name",
    ),
    Bad(
        "player with a short EMA number",
        "post",
        lambda w: "/api/v1/players/",
        lambda w: {"first_name": "Ada", "last_name": "Lovelace", "ema_number": "123"},
        "ema_number",
    ),
    Bad(
        "player with a taken EMA number",
        "post",
        lambda w: "/api/v1/players/",
        lambda w: {"first_name": "Ada", "last_name": "L", "ema_number": w.players[1].ema_number},
        "ema_number",
    ),
    Bad(
        "player country not ISO",
        "patch",
        lambda w: f"/api/v1/players/{w.players[0].pk}/",
        lambda w: {"country": "Germany"},
        "country",
        role="player",
    ),
    Bad(
        "club night without a date",
        "post",
        lambda w: "/api/v1/clubs/dragons/nights/",
        lambda w: {"date": "yesterday"},
        "date",
        role="admin",
    ),
    Bad(
        "league ending before it starts",
        "post",
        lambda w: "/api/v1/clubs/dragons/leagues/",
        lambda w: {"name": "S", "starts_on": "2026-03-01", "ends_on": "2026-01-01"},
        "ends_on",
        role="admin",
    ),
    Bad(
        "club game with three players",
        "post",
        lambda w: f"{G}/",
        lambda w: {
            "club_night": w.night.pk,
            "players": [s.player_id for s in w.club_game.seats.all()][:3],
        },
        "players",
        role="admin",
    ),
    Bad(
        "club without a name",
        "post",
        lambda w: "/api/v1/clubs/",
        lambda w: {"name": " "},
        "name",
        role="admin",
    ),
    Bad(
        "member who already is one",
        "post",
        lambda w: "/api/v1/clubs/dragons/members/",
        lambda w: {"player": w.club_game.seats.first().player_id},
        "player",
        role="admin",
    ),
    Bad("zero sessions", "post", lambda w: f"{T}/sessions/", lambda w: {"count": 0}, "count"),
    Bad(
        "seating plan CSV with a bad row",
        "post",
        lambda w: f"{T}/seating-plans/upload/",
        lambda w: {"text": "round,table,east,south,west,north\n1,1,1,2,3,3\n"},
        "file",
    ),
    Bad(
        "reopen a session without a reason",
        "post",
        lambda w: f"/api/v1/sessions/{w.session.pk}/reopen/",
        lambda w: {},
        "reason",
    ),
    Bad(
        "tournament ending before it starts",
        "post",
        lambda w: "/api/v1/tournaments/",
        lambda w: {"name": "X", "slug": "x", "starts_on": "2026-04-04", "ends_on": "2026-04-01"},
        "ends_on",
    ),
    Bad(
        "tournament with a taken slug",
        "post",
        lambda w: "/api/v1/tournaments/",
        lambda w: {"name": "X", "slug": "open", "starts_on": "2026-04-04", "ends_on": "2026-04-05"},
        "slug",
    ),
    Bad(
        "unknown status", "post", lambda w: f"{T}/status/", lambda w: {"status": "bogus"}, "status"
    ),
    Bad(
        "status transition not allowed",
        "post",
        lambda w: f"{T}/status/",
        lambda w: {"status": "published"},
        "status",
    ),
    Bad(
        "staff: unknown user",
        "post",
        lambda w: f"{T}/staff/",
        lambda w: {"user": "nobody", "role": "referee"},
        "user",
    ),
    Bad(
        # Found by CI's stateful fuzzing: PostgreSQL refuses NUL in text, so the lookup was a 500.
        "staff: a username with a NUL character",
        "post",
        lambda w: f"{T}/staff/",
        lambda w: {"user": "ref\x00eree", "role": "referee"},
        "user",
    ),
    Bad(
        "registration with a bad EMA number",
        "post",
        lambda w: f"{T}/registrations/",
        lambda w: {"first_name": "A", "last_name": "B", "ema_number": "12"},
        "ema_number",
    ),
    Bad(
        "drop without a reason",
        "post",
        lambda w: f"/api/v1/registrations/{w.tournament.registrations.earliest('id').pk}/drop/",
        lambda w: {},
        "reason",
    ),
    Bad(
        "seating plan with an unknown option",
        "post",
        lambda w: f"{T}/seating-plans/",
        lambda w: {"mode": "random", "options": {"bogus": 1}},
        "options",
    ),
    Bad(
        "apply a plan that is not ready",
        "post",
        lambda w: f"/api/v1/seating-plans/{w.extra['plan'].pk}/apply/",
        lambda w: {"from_session": 2},
        "plan",
        setup=_pending_plan,
    ),
    Bad(
        "start a running session",
        "post",
        lambda w: f"/api/v1/sessions/{w.session.pk}/start/",
        lambda w: None,
        "status",
    ),
    Bad(
        "close with unfinished games",
        "post",
        lambda w: f"/api/v1/sessions/{w.session.pk}/close/",
        lambda w: None,
        "games",
    ),
    Bad(
        "swap with an unknown player",
        "post",
        lambda w: f"/api/v1/sessions/{w.session.pk}/swap/",
        lambda w: {"a": 999999, "b": w.players[1].pk},
        "a",
    ),
    Bad(
        "penalty without a reason",
        "post",
        lambda w: f"{T}/penalties/",
        lambda w: {"player": w.players[1].pk, "kind": "obstruction", "points": 8000, "reason": ""},
        "reason",
        role="referee",
    ),
    Bad(
        "penalty in an unknown session",
        "post",
        lambda w: f"{T}/penalties/",
        lambda w: {
            "player": w.players[1].pk,
            "kind": "lateness",
            "minutes_late": 3,
            "session": 9,
            "reason": "late",
        },
        "session",
        role="referee",
    ),
    Bad(
        "hand without version",
        "post",
        lambda w: f"{G}/{w.game.pk}/hands/",
        lambda w: {"hand": HAND},
        "version",
        role="referee",
    ),
    Bad(
        "hand without outcome",
        "post",
        lambda w: f"{G}/{w.game.pk}/hands/",
        lambda w: {"hand": {"riichi": []}, "version": 0},
        "outcome",
        role="referee",
    ),
    Bad(
        "impossible hand",
        "post",
        lambda w: f"{G}/{w.game.pk}/hands/",
        lambda w: {"hand": IMPOSSIBLE_HAND, "version": 0},
        "wins[0].fu",
        role="referee",
    ),
    Bad(
        "correction without reason",
        "put",
        lambda w: f"{G}/{w.game.pk}/hands/0/",
        lambda w: {"hand": HAND, "version": 0},
        "reason",
        role="referee",
        setup=_hand,
    ),
    Bad(
        "deletion without version",
        "delete",
        lambda w: f"{G}/{w.game.pk}/hands/0/",
        lambda w: {"reason": "typo"},
        "version",
        role="referee",
        setup=_hand,
    ),
    Bad(
        "preview of an impossible hand",
        "post",
        lambda w: f"{G}/{w.game.pk}/preview/",
        lambda w: {"hand": IMPOSSIBLE_HAND},
        "wins[0].fu",
        role="referee",
    ),
    Bad(
        "finalize a game the rules have not ended",
        "post",
        lambda w: f"{G}/{w.game.pk}/finalize/",
        lambda w: {"version": 0},
        "end",
        role="referee",
        setup=_hand,
    ),
    Bad(
        "final scores not adding up",
        "post",
        lambda w: f"{G}/{w.game.pk}/final-scores/",
        lambda w: {"scores": [40000, 30000, 25000, 24000], "version": 0},
        "scores",
        role="referee",
    ),
    Bad(
        "substitute for a seat that does not exist",
        "post",
        lambda w: f"{G}/{w.game.pk}/substitutes/",
        lambda w: {"seat": 7, "substitute": w.extra["sub"].pk, "reason": "ill", "version": 0},
        "seat",
        role="referee",
        setup=lambda w: w.extra.update(sub=PlayerFactory()),
    ),
    Bad(
        "import of a record with an impossible hand",
        "post",
        lambda w: f"{G}/import/",
        lambda w: {
            "record": {
                "format": "riichi-game-record/1",
                "ruleset": "wdmc-2019",
                "players": ["A", "B", "C", "D"],
                "hands": [HAND, IMPOSSIBLE_HAND],
            },
            "players": [s.player_id for s in w.club_game.seats.all()],
            "club_night": w.night.pk,
        },
        "wins[0].fu",
        role="admin",
    ),
    Bad(
        "import without table or club night",
        "post",
        lambda w: f"{G}/import/",
        lambda w: {
            "record": {"ruleset": "wdmc-2019", "hands": []},
            "players": [p.pk for p in w.players],
        },
        "table",
        role="admin",
    ),
    Bad(
        "tiles that are not a hand",
        "post",
        lambda w: "/api/v1/tiles/evaluate/",
        lambda w: {"notation": "123m"},
        "tiles",
        role="anonymous",
    ),
]


@pytest.mark.parametrize("bad", [pytest.param(b, id=b.name) for b in BAD])
def test_bad_input_is_400_naming_the_field_and_saves_nothing(world: World, bad: Bad) -> None:
    if bad.setup is not None:
        bad.setup(world)
    before = counts()
    game_before = Game.objects.values("version", "status", "final_scores").get(pk=world.game.pk)
    player_before = Player.objects.values().get(pk=world.players[0].pk)
    tournament_before = Tournament.objects.values("status").get(pk=world.tournament.pk)
    client = world.client(bad.role)
    response = getattr(client, bad.method)(
        bad.url(world), bad.body(world), format="json", HTTP_IDEMPOTENCY_KEY=f"key-{bad.name}"
    )
    assert response.status_code == 400, response.content
    assert names_field(response.json(), bad.field), response.json()
    assert counts() == before
    assert Game.objects.values("version", "status", "final_scores").get(pk=world.game.pk) == (
        game_before
    )
    assert Player.objects.values().get(pk=world.players[0].pk) == player_before
    assert Tournament.objects.values("status").get(pk=world.tournament.pk) == tournament_before


def test_csv_import_reports_each_bad_row_and_imports_nothing(world: World) -> None:
    before = Registration.objects.count(), Player.objects.count()
    text = (
        "first_name,last_name,ema_number,country\n"
        "Ada,Byron,,GB\n"
        "Bad,Number,123,DE\n"
        "No,Country,,Germany\n"
    )
    response = world.client("organiser").post(
        f"{T}/registrations/import/", {"text": text}, format="json"
    )
    assert response.status_code == 400
    rows = {e.get("row") for e in response.json()["errors"]}
    assert len(rows) >= 2, response.json()
    assert (Registration.objects.count(), Player.objects.count()) == before


def test_csv_import_as_a_file_upload(world: World) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    upload = SimpleUploadedFile(
        "players.csv", b"name,ema_number,country\nAda Byron,04000002,GB\n", "text/csv"
    )
    response = world.client("organiser").post(
        f"{T}/registrations/import/", {"file": upload}, format="multipart"
    )
    assert response.status_code == 201, response.content
    assert response.json()["imported"] == 1
    assert Registration.objects.filter(player__ema_number="04000002").exists()


def test_malformed_json_is_400(world: World) -> None:
    response = client_for(world.users["referee"]).generic(
        "POST", f"{G}/{world.game.pk}/hands/", "{not json", content_type="application/json"
    )
    assert response.status_code == 400
    assert Hand.objects.count() == 0


def test_a_club_named_longer_than_an_address_gets_an_address_cut_at_a_word(world: World) -> None:
    """A name may have 200 characters, an address (slug) 50: the one made from the name is cut
    at a word instead of failing in the database (a 500 the fuzz run's stateful phase found)."""
    name = " ".join(["Riichi"] * 28)  # 195 characters
    response = world.client("admin").post("/api/v1/clubs/", {"name": name}, format="json")
    assert response.status_code == 201, response.content
    slug = response.json()["slug"]
    assert slug == "-".join(["riichi"] * 7) and len(slug) <= 50


def test_a_csv_cell_over_the_csv_modules_limit_is_a_400_naming_the_file_and_column(
    world: World,
) -> None:
    """Issue 30.4: a cell longer than the csv module's 131,072 characters was a 500
    (_csv.Error) in the registration import and in the seating plan upload."""
    before = Registration.objects.count(), Player.objects.count()
    long_club = "x" * 131_073
    text = f"name,country,club\nAda Byron,GB,Dragons\nBo Long,DE,{long_club}\n"
    response = world.client("organiser").post(
        f"{T}/registrations/import/", {"text": text}, format="json"
    )
    assert response.status_code == 400, response.content[:300]
    body = response.json()
    assert body["field"] == "file"
    assert body["message"].startswith("Row 3, column 'club': a cell is longer than 131,072")
    assert (Registration.objects.count(), Player.objects.count()) == before
    plan = f"round,table,east,south,west,north\n1,1,1,2,3,{'4' * 131_073}\n"
    response = world.client("organiser").post(
        f"{T}/seating-plans/upload/", {"text": plan}, format="json"
    )
    assert response.status_code == 400, response.content[:300]
    assert response.json()["field"] == "file"
    assert "row 2: a cell is longer than 131,072" in response.json()["message"].lower()
    assert not SeatingPlan.objects.filter(tournament=world.tournament).exists()
