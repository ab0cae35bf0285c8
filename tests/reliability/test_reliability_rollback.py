"""Nothing is saved half-way: a database error inside a service, or a bad row or hand in an
import, leaves no trace (no rows, no version bump, no audit entry, no idempotency record)."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from typing import Any, cast

import pytest
from django.db import IntegrityError

from core.models import AuditEntry, IdempotencyRecord, Player
from scoring import services as game_services
from scoring.models import Game, Hand
from tests.factories import PlayerFactory, ron, tsumo
from tests.reliability.reliability_support import Event, full_game_hands
from tournaments import services as tournament_services
from tournaments.models import Registration

pytestmark = pytest.mark.xdist_group("reliability")


def failing_after(real: Callable[..., Any]) -> Callable[..., Any]:
    """`real`, then a database error: the call has already written everything but commit."""

    def call(*args: Any, **kwargs: Any) -> Any:
        real(*args, **kwargs)
        raise IntegrityError("forced by the reliability test after the writes")

    return call


@pytest.fixture
def audit_fails(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Make the last step of the hand and CSV services, the audit entry's insert, raise once
    it is written. Patched at the insert itself, so every caller of core.audit (audited,
    record_audit imported by name) meets it."""
    monkeypatch.setattr(AuditEntry.objects, "create", failing_after(AuditEntry.objects.create))
    yield


def snapshot(game: Game) -> tuple[int, Any, int, int]:
    game.refresh_from_db()
    return (
        game.version,
        game.summary,
        Hand.objects.filter(game=game).count(),
        AuditEntry.objects.filter(game_id=game.pk).count(),
    )


@pytest.mark.django_db(transaction=True)
def test_database_error_inside_add_hand_rolls_back_every_write(
    event: Event, request: pytest.FixtureRequest
) -> None:
    game = event.games[0]
    game_services.enter_hand(
        actor=event.referee, game=game, hand=ron(winner=1, loser=2, han=2), expected_version=0
    )
    before = snapshot(game)
    audits = AuditEntry.objects.count()
    request.getfixturevalue("audit_fails")

    with pytest.raises(IntegrityError):
        game_services.enter_hand(
            actor=event.referee, game=game, hand=tsumo(winner=1, han=3), expected_version=1
        )

    # The hand row, the new summary and version, and the audit entry were all written
    # before the error; none of them survives.
    assert snapshot(game) == before
    assert AuditEntry.objects.count() == audits


@pytest.mark.django_db(transaction=True)
def test_database_error_behind_the_api_answers_500_keeps_nothing_and_a_retry_applies_once(
    event: Event, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = event.games[0]
    client = event.client()
    client.raise_request_exception = False
    key = str(uuid.uuid4())
    body = {"version": 0, "hand": ron(winner=3, loser=1, han=2, fu=30)}
    url = f"/api/v1/games/{game.pk}/hands/"
    real_create = AuditEntry.objects.create
    monkeypatch.setattr(AuditEntry.objects, "create", failing_after(real_create))

    failed = client.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY=key)

    assert failed.status_code == 500
    assert Hand.objects.filter(game=game).count() == 0
    assert not IdempotencyRecord.objects.filter(key=key).exists()
    assert not AuditEntry.objects.filter(game_id=game.pk).exists()

    monkeypatch.setattr(AuditEntry.objects, "create", real_create)
    retried = client.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY=key)
    assert retried.status_code == 201, retried.content
    assert Hand.objects.filter(game=game).count() == 1
    assert AuditEntry.objects.filter(game_id=game.pk, action="hand.add").count() == 1


@pytest.mark.django_db(transaction=True)
def test_database_error_during_csv_import_registers_nobody(event: Event, audit_fails: None) -> None:
    tournament = event.tournament
    registrations = Registration.objects.filter(tournament=tournament).count()
    players = Player.objects.count()
    text = "name;ema_number;country\nAiko Tanaka;;JP\nBen Weber;;DE\nCara Dubois;;FR\n"

    with pytest.raises(IntegrityError):
        tournament_services.import_registrations_csv(
            actor=event.organiser, tournament=tournament, text=text
        )

    assert Registration.objects.filter(tournament=tournament).count() == registrations
    assert Player.objects.count() == players
    assert AuditEntry.objects.count() == 0


# --- malformed imports through the API: row/field messages, nothing imported ---------------


def import_csv(event: Event, text: str) -> Any:
    return event.client("organiser").post(
        f"/api/v1/tournaments/{event.tournament.slug}/registrations/import/",
        {"text": text},
        format="json",
    )


@pytest.mark.django_db
def test_malformed_csv_names_each_bad_row_and_field_and_imports_nothing(event: Event) -> None:
    registrations = Registration.objects.count()
    players = Player.objects.count()
    text = (
        "name,ema_number,country\n"
        "Aiko Tanaka,10990001,JP\n"  # fine
        ",10990002,DE\n"  # row 3: no name
        "Ben Weber,not-a-number,DE\n"  # row 4: EMA number
        "Cara Dubois,10990003,Atlantis\n"  # row 5: country
        "Dan Evans,10990001,GB\n"  # row 6: EMA number repeats row 2
        "Eve Faure,10990004,FR,extra\n"  # row 7: too many cells
    )

    response = import_csv(event, text)

    assert response.status_code == 400, response.content
    body = response.json()
    assert "nothing was imported" in body["message"]
    by_row = {e["row"]: e for e in body["errors"]}
    assert set(by_row) == {3, 4, 5, 6, 7}
    assert by_row[3]["field"] in ("name", "first_name")
    assert by_row[4]["field"] == "ema_number"
    assert by_row[5]["field"] == "country"
    assert by_row[6]["field"] == "ema_number" and "row 2" in by_row[6]["message"]
    assert by_row[7]["field"] == "row"
    assert all(e["message"] for e in body["errors"])
    assert Registration.objects.count() == registrations
    assert Player.objects.count() == players
    assert not AuditEntry.objects.filter(action__startswith="registration").exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("text", "field"),
    [
        ("", "text"),
        ("nickname,ema_number\nAiko,10990001\n", "header"),
        ("ema_number,country\n10990001,JP\n", "header"),
        ("name,country\n", "file"),
        ("\n\n\n", "text"),
    ],
)
def test_csv_without_usable_rows_is_refused_with_a_field(
    event: Event, text: str, field: str | None
) -> None:
    response = import_csv(event, text)
    assert response.status_code == 400, response.content
    body = response.json()
    if field is not None:
        assert field in str(body)
    assert Registration.objects.filter(tournament=event.tournament).count() == 4


def record_with(hands: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return {
        "format": "riichi-game-record/1",
        "ruleset": "ema-2025",
        "players": ["A", "B", "C", "D"],
        "hands": hands,
        **extra,
    }


def import_record(event: Event, record: Any, players: list[int] | None = None) -> Any:
    table = event.games[0].table
    assert table is not None
    new_players = players or [cast(Player, PlayerFactory()).pk for _ in range(4)]
    return event.client("organiser").post(
        "/api/v1/games/import/",
        {"record": record, "players": new_players, "table": table.pk},
        format="json",
    )


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("bad_hand", "field"),
    [
        ({"outcome": "ron", "loser": 2, "wins": [{"winner": 2, "han": 2, "fu": 30}]}, "winner"),
        ({"outcome": "ron", "loser": 2, "wins": [{"winner": 1, "han": 1, "fu": 20}]}, "fu"),
        ({"outcome": "tsumo", "wins": [{"winner": 7, "han": 1, "fu": 30}]}, "winner"),
        ({"outcome": "teleport"}, "outcome"),
        ({"outcome": "draw", "tenpai": [0, 0, 9]}, "tenpai"),
    ],
)
def test_game_record_with_a_bad_hand_names_hand_and_field_and_imports_nothing(
    event: Event, bad_hand: dict[str, Any], field: str
) -> None:
    games, hands, audit = Game.objects.count(), Hand.objects.count(), AuditEntry.objects.count()
    hands_in = full_game_hands()
    hands_in.insert(3, {"riichi": [], **bad_hand})

    response = import_record(event, record_with(hands_in))

    assert response.status_code == 400, response.content
    body = response.json()
    assert body["errors"], body
    assert body["errors"][0]["hand"] == 3
    assert field in (body["field"] or "") or field in str(body["errors"][0].get("field"))
    assert (Game.objects.count(), Hand.objects.count(), AuditEntry.objects.count()) == (
        games,
        hands,
        audit,
    )


@pytest.mark.django_db
@pytest.mark.parametrize(
    "record",
    [
        record_with(full_game_hands(), format="riichi-game-record/9"),
        record_with(full_game_hands(), ruleset="no-such-rules"),
        record_with(full_game_hands(), rules={"no_such_key": 1}),
        record_with("not a list"),  # type: ignore[arg-type]
        record_with(full_game_hands(), end="whenever"),
        record_with(full_game_hands(), penalties=[{"points": 1000}]),
        record_with(full_game_hands(), penalties=["late"]),
        record_with(full_game_hands(), substitutes=[{"seat": 9, "from": "start"}]),
        record_with([*full_game_hands(), "not a hand"]),  # type: ignore[list-item]
    ],
)
def test_malformed_game_record_is_a_400_and_imports_nothing(
    event: Event, record: dict[str, Any]
) -> None:
    games, hands = Game.objects.count(), Hand.objects.count()
    response = import_record(event, record)
    assert response.status_code == 400, response.content
    assert response.json()
    assert (Game.objects.count(), Hand.objects.count()) == (games, hands)
