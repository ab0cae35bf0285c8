"""Issue 16.2, 16.3, 16.7, 16.8: hands per game, JSON depth, body size and number bounds.

Every refusal is a 400 (413 for a body over the size limit) with the documented JSON error body
naming the field, and nothing is saved (docs/security.md lists the limits).
"""

from __future__ import annotations

import importlib
import inspect
import json
import time
from typing import Any

import pytest
from django import forms
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from rest_framework import serializers

from core.errors import ValidationFailed
from core.limits import MAX_JSON_DEPTH, LimitedUploadHandler, check_json_depth, loads
from scoring.engine.validate import MAX_HAN, MAX_HANDS
from scoring.models import Game, GamePenalty, Hand
from tests.api.conftest import World, client_for
from tests.factories import TableFactory, draw, ron

pytestmark = pytest.mark.django_db

G = "/api/v1/games"
MB = 1024 * 1024


def nested(depth: int) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = [value]
    return value


def deep_text(depth: int) -> str:
    return "[" * depth + "]" * depth


def dealer_tenpai_draws(n: int) -> list[dict[str, Any]]:
    """Draws with the dealer tenpai: the dealer keeps the deal (renchan), so no count of them
    ends the game: what the probe used (30,000 draws)."""
    return [draw(tenpai=[0]) for _ in range(n)]


def record(hands: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return {
        "format": "riichi-game-record/1",
        "ruleset": "ema-2025",
        "players": ["A a", "B b", "C c", "D d"],
        "hands": hands,
        **extra,
    }


def import_body(world: World, rec: dict[str, Any]) -> dict[str, Any]:
    return {
        "record": rec,
        "players": [s.player_id for s in world.club_game.seats.order_by("seat")],
        "club_night": world.night.pk,
        "finalize": False,
    }


# --- hands per game (16.2) -----------------------------------------------------------------


def test_a_record_of_more_hands_than_the_longest_legal_game_is_refused(world: World) -> None:
    before = Game.objects.count()
    response = world.client("admin").post(
        f"{G}/import/", import_body(world, record(dealer_tenpai_draws(MAX_HANDS + 1))), "json"
    )
    assert response.status_code == 400, response.content
    assert response.json()["field"] == "hands"
    assert f"at most {MAX_HANDS} hands" in response.json()["message"]
    assert Game.objects.count() == before


def test_the_longest_legal_game_imports_and_one_more_hand_is_refused(world: World) -> None:
    client = world.client("admin")
    started = time.perf_counter()
    response = client.post(
        f"{G}/import/", import_body(world, record(dealer_tenpai_draws(MAX_HANDS))), "json"
    )
    imported = time.perf_counter() - started
    assert response.status_code == 201, response.content
    game = response.json()
    assert Hand.objects.filter(game_id=game["id"]).count() == MAX_HANDS
    assert imported < 10  # the probe's 30,000 hands took 24.5 s; 200 are quick
    started = time.perf_counter()
    page = Client().get(f"/games/{game['id']}/")
    assert page.status_code in (200, 404)
    assert time.perf_counter() - started < 5
    more = client.post(
        f"{G}/{game['id']}/hands/", {"version": game["version"], "hand": draw(tenpai=[0])}, "json"
    )
    assert more.status_code == 400, more.content
    assert more.json()["field"] == "hand"
    assert Hand.objects.filter(game_id=game["id"]).count() == MAX_HANDS


# --- JSON depth (16.3) ----------------------------------------------------------------------


def test_depth_check_names_the_field_and_lets_normal_documents_through() -> None:
    check_json_depth(json.dumps(record([ron(winner=1, loser=0)])))  # a game record: 5 levels
    check_json_depth(deep_text(MAX_JSON_DEPTH))
    with pytest.raises(ValidationFailed) as error:
        check_json_depth(json.dumps({"hand": {"wins": nested(50)}}))
    assert error.value.field == "hand.wins" + "[0]" * (MAX_JSON_DEPTH - 2)
    with pytest.raises(ValidationFailed):
        loads('{"a": "[[[[", "b": ' + deep_text(100_000) + "}")


DEEP_ENDPOINTS = [
    ("anonymous", "/api/v1/tiles/evaluate/"),
    ("anonymous", "/api/v1/auth/token/"),
    ("admin", f"{G}/import/"),
    ("referee", "HANDS"),
]


@pytest.mark.parametrize(("role", "url"), DEEP_ENDPOINTS)
def test_deeply_nested_json_is_a_400_naming_the_field(world: World, role: str, url: str) -> None:
    if url == "HANDS":
        url = f"{G}/{world.game.pk}/hands/"
    body = '{"hand": ' + deep_text(100_000) + ', "version": 0}'  # the probe: RecursionError
    response = world.client(role).generic(
        "POST", url, body, content_type="application/json", HTTP_IDEMPOTENCY_KEY="deep-1"
    )
    assert response.status_code == 400, response.content[:300]
    answer = response.json()
    assert answer["field"].startswith("hand")
    assert "nested deeper than" in answer["message"]
    assert answer["errors"] == []
    assert Hand.objects.count() == 0


def test_the_web_record_import_refuses_deep_json_as_a_form_error(world: World) -> None:
    client = Client()
    client.force_login(world.user("organiser"))
    upload = SimpleUploadedFile("deep.json", deep_text(100_000).encode(), "application/json")
    response = client.post(
        f"/t/{world.tournament.slug}/console/results/import/",
        {"session": 1, "table": 1, "file": upload},
    )
    assert response.status_code == 400
    assert "nested deeper than" in response.content.decode()


# --- body size and streaming uploads (16.8) --------------------------------------------------


def test_an_oversized_api_body_is_the_json_error_unread(world: World) -> None:
    body = json.dumps({"hand": {"note": "x" * (6 * MB)}, "version": 0})
    response = world.client("referee").generic(
        "POST", f"{G}/{world.game.pk}/hands/", body, content_type="application/json"
    )
    assert response.status_code == 413
    assert response["Content-Type"] == "application/json"
    assert response.json() == {
        "field": None,
        "message": "The request is larger than 6 MB.",
        "errors": [],
    }


def test_an_oversized_web_post_is_a_413_page(world: World) -> None:
    client = Client()
    client.force_login(world.user("organiser"))
    upload = SimpleUploadedFile("big.csv", b"name\n" + b"x" * (7 * MB), "text/csv")
    response = client.post(
        f"/t/{world.tournament.slug}/console/registrations/",
        {"action": "import", "csv-file": upload},
    )
    assert response.status_code == 413
    assert "Request too large" in response.content.decode()


def test_an_upload_over_2_mb_is_dropped_while_it_streams_in(world: World) -> None:
    client = Client()
    client.force_login(world.user("organiser"))
    big = b"name\n" + b"Ada Byron\n" * (250 * 1024)  # 2.5 MB: under the body limit
    response = client.post(
        f"/t/{world.tournament.slug}/console/registrations/",
        {"action": "import", "csv-file": SimpleUploadedFile("big.csv", big, "text/csv")},
    )
    assert response.status_code == 400
    assert "The file is larger than 2 MB." in response.content.decode()
    # The handler keeps nothing past MAX_UPLOAD_BYTES (5 MB, the largest upload: an online
    # game log): the next handlers get no more chunks.
    big = b"name\n" + b"Ada Byron\n" * (600 * 1024)  # 6 MB
    handler = LimitedUploadHandler()
    handler.new_file("file", "big.csv", "text/csv", len(big))
    kept = [handler.receive_data_chunk(big[i : i + 65536], i) for i in range(0, len(big), 65536)]
    assert sum(len(c) for c in kept if c) <= 5 * MB
    refused = handler.file_complete(len(big))
    assert refused is not None and refused.size == len(big) and refused.read() == b""


def test_a_binary_upload_is_refused_by_type_while_reading(world: World) -> None:
    client = Client()
    client.force_login(world.user("organiser"))
    response = client.post(
        f"/t/{world.tournament.slug}/console/registrations/",
        {"action": "import", "csv-file": SimpleUploadedFile("x.csv", b"PK\x03\x04\x00\x00", "")},
    )
    assert response.status_code == 400
    assert "contains binary data" in response.content.decode()


# --- number bounds (16.7) -------------------------------------------------------------------


WIN = '{"version": 0, "hand": {"outcome": "ron", "loser": 0, "wins": [{"winner": 1, %s}]}}'
DRAW = '{"version": 0, "hand": {"outcome": "draw", "tenpai": [], "note": %s}}'


@pytest.mark.parametrize(
    ("body", "field"),
    [
        (WIN % '"han": 1000000000000000000000000000000, "fu": 30', "hand.wins[0].han"),
        (WIN % f'"han": {MAX_HAN + 1}', "wins[0].han"),
        (DRAW % "1e308", "hand.note"),  # the probe: refused by the preview, kept by entry
        (DRAW % ("9" * 400), "hand.note"),
        (DRAW % "Infinity", "hand.note"),
        (DRAW % "NaN", "hand.note"),
    ],
)
def test_out_of_range_numbers_in_a_hand_are_400_naming_the_field(
    world: World, body: str, field: str
) -> None:
    client = client_for(world.users["referee"])
    response = client.generic(
        "POST", f"{G}/{world.game.pk}/hands/", body, content_type="application/json"
    )
    assert response.status_code == 400, response.content
    assert response.json()["field"].startswith(field)
    assert Hand.objects.count() == 0


def test_huge_penalty_points_and_a_300_character_name_are_400_in_a_record_import(
    world: World,
) -> None:
    client = world.client("admin")
    hands = [ron(winner=1, loser=0)]
    penalty = {"seat": 0, "kind": "other", "points": 2**31}
    response = client.post(
        f"{G}/import/", import_body(world, record(hands, penalties=[penalty])), "json"
    )
    assert response.status_code == 400, response.content
    assert response.json()["field"] == "penalties[0].points"
    assert GamePenalty.objects.count() == 0
    # The web import creates players from names: a 300-character one is a form error.
    TableFactory(session=world.session, number=2)
    web = Client()
    web.force_login(world.user("organiser"))
    long_name = record(hands, players=["x" * 300 + " y", "B b", "C c", "D d"])
    upload = SimpleUploadedFile("r.json", json.dumps(long_name).encode(), "application/json")
    page = web.post(
        f"/t/{world.tournament.slug}/console/results/import/",
        {"session": 1, "table": 2, "file": upload},
    )
    assert page.status_code == 400
    assert "a player is at most 220 characters" in page.content.decode()


def _input_classes() -> list[tuple[str, type]]:
    found = []
    for module_name in (
        "club.api.serializers",
        "scoring.api.serializers",
        "tournaments.api.serializers",
        "club.forms",
        "scoring.forms",
        "tournaments.forms",
    ):
        module = importlib.import_module(module_name)
        for name, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ != module_name:
                continue
            if issubclass(cls, forms.BaseForm) or (
                issubclass(cls, serializers.Serializer) and "Input" in name
            ):
                found.append((f"{module_name}.{name}", cls))
    return found


def test_every_number_a_client_sends_has_both_bounds() -> None:
    """16.7: no integer input without a minimum and a maximum (a new field must choose them)."""
    unbounded = []
    for where, cls in _input_classes():
        if issubclass(cls, forms.BaseForm):
            try:
                fields = cls.base_fields
            except AttributeError:  # pragma: no cover
                continue
            for name, field in fields.items():
                numeric = isinstance(
                    field, forms.IntegerField | forms.FloatField | forms.DecimalField
                )
                if numeric and (field.max_value is None or field.min_value is None):
                    unbounded.append(f"{where}.{name}")
            continue
        for name, field in cls().get_fields().items():
            children = [field, getattr(field, "child", None)]
            for f in children:
                numeric = isinstance(
                    f, serializers.IntegerField | serializers.FloatField | serializers.DecimalField
                )
                if numeric and (f.max_value is None or f.min_value is None):
                    unbounded.append(f"{where}.{name}")
    assert unbounded == []
    assert len(_input_classes()) > 20  # the walk found the input classes


def test_online_logs_a_zip_bomb_and_deep_json_are_refused_not_unpacked() -> None:
    import gzip

    from scoring.online import MAX_UNZIPPED_BYTES, LogError, parse_log

    bomb = gzip.compress(b"{" + b" " * (MAX_UNZIPPED_BYTES + 10))  # 40 kB unpacking to 20 MB
    assert len(bomb) < 100_000
    with pytest.raises(LogError, match="unpacks to more than 20 MB"):
        parse_log(bomb)
    with pytest.raises(LogError, match="nested deeper than"):
        parse_log('{"log": ' + deep_text(100_000) + "}")
    # A gzip upload is binary, and still allowed through the upload handler.
    handler = LimitedUploadHandler()
    handler.new_file("log", "game.json.gz", "application/gzip", None)
    chunk = gzip.compress(b'{"name": []}')
    assert handler.receive_data_chunk(chunk, 0) == chunk
    assert handler.file_complete(len(chunk)) is None
