"""Hot pages read in a fixed number of queries, however big the tournament (issue 14, item 3),
and one hand POST replays the game once and evaluates its tiles once (item 6).

Each test builds the page's world small and then bigger and asserts the same statement count
(an N+1 fails here), plus a ceiling (a new per-request query shows up in review).
"""

from __future__ import annotations

import importlib
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

import scoring.tiles.adapter as tile_adapter
from core.tokens import issue_token
from scoring.models import Game, Hand
from scoring.services import enter_hand
from tests.factories import (
    GameFactory,
    PlayerFactory,
    RegistrationFactory,
    SessionFactory,
    TableFactory,
    non_dealer_rons,
    ron,
)
from tournaments.models import Session, StandingRow

pytestmark = pytest.mark.django_db

# The module (scoring.engine re-exports a function of the same name).
engine_replay = importlib.import_module("scoring.engine.replay")


def statements(call: Callable[[], Any]) -> int:
    with CaptureQueriesContext(connection) as captured:
        response = call()
    assert response.status_code == 200, response.content[:300]
    return len(captured)


@contextmanager
def counted(module: Any, name: str) -> Iterator[list[int]]:
    """Count the calls of `module.name`: the engine's replay (`_run`, behind replay and
    preview_hand) and the tile evaluator (`_check_situation`, once per evaluate)."""
    calls: list[int] = []
    original = getattr(module, name)

    def counting(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return original(*args, **kwargs)

    setattr(module, name, counting)
    try:
        yield calls
    finally:
        setattr(module, name, original)


def more_tables(session: Session, count: int) -> None:
    for number in range(2, 2 + count):
        GameFactory(table=TableFactory(session=session, number=number))


def test_standings_page_reads_in_fixed_queries(client: Client, tournament: Any) -> None:
    url = reverse("tournaments:standings", args=[tournament.slug])
    StandingRow.objects.create(tournament=tournament, player=PlayerFactory(), rank=1, total=1)
    small = statements(lambda: client.get(url))
    for rank in range(2, 42):
        StandingRow.objects.create(
            tournament=tournament, player=PlayerFactory(), rank=rank, total=-rank
        )
    tournament.standings_version = uuid.uuid4()  # a new version: the table is built again
    tournament.save(update_fields=["standings_version"])
    big = statements(lambda: client.get(url))
    assert big == small <= 2


def test_game_page_reads_the_summary_in_fixed_queries(
    client: Client, game: Game, referee: Any
) -> None:
    url = reverse("scoring:game", args=[game.pk])
    game = enter_hand(
        actor=referee, game=game, hand=ron(winner=1, loser=2), expected_version=0
    ).game
    one_hand = statements(lambda: client.get(url))
    for hand in non_dealer_rons(6):
        game = enter_hand(actor=referee, game=game, hand=hand, expected_version=game.version).game
    with counted(engine_replay, "_run") as replays:
        seven_hands = statements(lambda: client.get(url))
        record = client.get(reverse("scoring:record", args=[game.pk]))
    assert seven_hands == one_hand <= 3
    assert replays == []  # the page shows Game.summary: no replay on a read
    assert len(record.json()["hands"]) == 7


def test_referee_entry_page_reads_in_fixed_queries(
    referee_client: Client, game: Game, referee: Any
) -> None:
    url = reverse("scoring:entry", args=[game.pk])
    game = enter_hand(
        actor=referee, game=game, hand=ron(winner=1, loser=2), expected_version=0
    ).game
    one_hand = statements(lambda: referee_client.get(url))
    for hand in non_dealer_rons(6):
        game = enter_hand(actor=referee, game=game, hand=hand, expected_version=game.version).game
    with counted(engine_replay, "_run") as replays:
        seven_hands = statements(lambda: referee_client.get(url))
    assert seven_hands == one_hand <= 9
    assert replays == []


def test_session_console_reads_in_fixed_queries(organiser_client: Client, game: Game) -> None:
    session = game.table.session
    url = reverse("tournaments:session", args=[session.tournament.slug, session.number])
    one_table = statements(lambda: organiser_client.get(url))
    more_tables(session, 5)
    six_tables = statements(lambda: organiser_client.get(url))
    # Was one game query per table. The roster (issue 31: who sits where now, and the
    # substitute picker's candidates) costs five of these, read once for the whole page.
    assert six_tables == one_table <= 14


def test_seating_console_reads_in_fixed_queries(organiser_client: Client, game: Game) -> None:
    tournament = game.table.session.tournament
    url = reverse("tournaments:seating_console", args=[tournament.slug])
    one_session = statements(lambda: organiser_client.get(url))
    for _ in range(12):
        RegistrationFactory(tournament=tournament)
    second = SessionFactory(tournament=tournament, number=2)
    more_tables(second, 4)
    bigger = statements(lambda: organiser_client.get(url))
    assert bigger == one_session <= 11


def test_a_hand_from_the_page_replays_once_and_evaluates_its_tiles_once(
    referee_client: Client, game: Game
) -> None:
    # riichi + tsumo + pinfu = 3 han 20 fu; the entry says 30 fu: saved, with a warning.
    data = {
        "outcome": "tsumo",
        "winners": ["1"],
        "han_1": "3",
        "fu_1": "30",
        "riichi": ["1"],
        "tiles": "234567m234p2355s+1s",
        "expected_version": "0",
    }
    with (
        counted(engine_replay, "_run") as replays,
        counted(tile_adapter, "_check_situation") as tiles,
    ):
        response = referee_client.post(reverse("scoring:add_hand", args=[game.pk]), data)
    assert response.status_code == 302
    assert (len(replays), len(tiles)) == (1, 1)
    hand = Hand.objects.get(game=game)
    assert hand.tile_check is not None and hand.tile_check["fu"] == 20
    page = referee_client.get(response["Location"]).content.decode()
    assert "the tiles give 20" in page  # the service's evaluation, shown as a warning


def test_a_hand_over_the_api_replays_once_and_answers_without_reading_again(
    game: Game, referee: Any
) -> None:
    _token, key = issue_token(referee)
    client = Client(HTTP_AUTHORIZATION=f"Token {key}")
    url = f"/api/v1/games/{game.pk}/hands/"

    def post(version: int, hand: dict[str, Any], tiles: str = "") -> Any:
        return client.post(
            url,
            {"version": version, "hand": hand, "tiles": tiles},
            content_type="application/json",
            HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
        )

    first = post(0, ron(winner=1, loser=2))
    assert first.status_code == 201, first.content
    tsumo = {"outcome": "tsumo", "riichi": [1], "wins": [{"winner": 1, "han": 3, "fu": 30}]}
    with (
        counted(engine_replay, "_run") as replays,
        counted(tile_adapter, "_check_situation") as tiles,
        CaptureQueriesContext(connection) as captured,
    ):
        response = post(1, tsumo, tiles="234567m234p2355s+1s")
    assert response.status_code == 201
    assert (len(replays), len(tiles)) == (1, 1)
    body = response.json()
    assert [h["number"] for h in body["hands"]] == [0, 1]
    assert body["hands"][1]["tile_check"]["mismatches"]
    assert len(body["summary"]["hands"]) == 2 and body["version"] == 2
    # token, key, game, role, lock, seats, hands, penalties, hand, game, audit, key, and
    # the savepoints of the write inside the key's transaction (and of this test's).
    assert len(captured) <= 16
    reads_after_write = [
        q["sql"] for q in captured.captured_queries[-4:] if q["sql"].startswith("SELECT")
    ]
    assert reads_after_write == []  # the answer is built from what the service holds


def test_api_game_detail_is_kept_per_version_and_player_change(
    client: Client, game: Game, referee: Any
) -> None:
    url = f"/api/v1/games/{game.pk}/"
    game = enter_hand(
        actor=referee, game=game, hand=ron(winner=1, loser=2), expected_version=0
    ).game
    first = client.get(url)
    assert first.status_code == 200 and len(first.json()["hands"]) == 1
    with CaptureQueriesContext(connection) as captured:
        again = client.get(url)
    assert again.json() == first.json()
    assert len(captured) == 2  # the game's version and its players; the rest from the cache
    enter_hand(actor=referee, game=game, hand=ron(winner=2, loser=3), expected_version=1)
    assert [h["number"] for h in client.get(url).json()["hands"]] == [0, 1]  # a new version
    seat = game.seats.select_related("player").get(seat=0)
    seat.player.last_name = "Renamed"
    seat.player.save()
    names = [s["player"] for s in client.get(url).json()["seats"]]
    assert any("Renamed" in str(name) for name in names)  # a player's change shows at once
