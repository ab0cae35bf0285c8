"""Issue 32.4: the awards page, computed from the hand records: each award's holders worked
out by hand from the hands below, ties shared, the definitions shown, few queries."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.models import Game
from scoring.services import enter_hand, finalize_game
from scoring.summary import GameSummary
from tests.factories import (
    PlayerFactory,
    RegistrationFactory,
    SessionFactory,
    StaffRoleFactory,
    TableFactory,
    TournamentFactory,
    draw,
    game_at_table,
    ron,
)
from tournaments.award_selectors import compute_awards
from tournaments.models import Seat, StaffRole

pytestmark = pytest.mark.django_db

# Table 1 (A, B, C, D): A deals three hands in a row (two wins, then B wins), C wins a
# yakuman by tsumo. Table 2 (E, F, G, H): F's haneman from E, then a draw, G tenpai in riichi.
TABLE_1 = [
    ron(winner=0, loser=1, han=3, fu=30),
    ron(winner=0, loser=2, han=1, fu=30, riichi=[0]),
    ron(winner=1, loser=0, han=2, fu=30, riichi=[1]),
    {"outcome": "tsumo", "wins": [{"winner": 2, "yakuman": 1, "yaku": ["kokushi"]}], "riichi": []},
]
TABLE_2 = [ron(winner=1, loser=0, han=6), draw(tenpai=[2], riichi=[2])]


def _play(table: Any, players: list[Any], hands: list[dict[str, Any]], organiser: Any) -> Game:
    game = game_at_table(table, ruleset="ema-2025")
    for seat, player in enumerate(players):
        game.seats.create(seat=seat, player=player)
        Seat.objects.create(table=table, wind=seat, player=player)
    for hand in hands:
        game = enter_hand(actor=organiser, game=game, hand=hand, expected_version=game.version).game
    return finalize_game(
        actor=organiser, game=game, expected_version=game.version, end="time", reason="test"
    )


@pytest.fixture
def event(db: Any) -> dict[str, Any]:
    tournament = TournamentFactory(slug="award-open")
    organiser = StaffRoleFactory(tournament=tournament, role=StaffRole.Role.ORGANISER).user
    people = {name: PlayerFactory(first_name=name, last_name="Award") for name in "ABCDEFGH"}
    for player in people.values():
        RegistrationFactory(tournament=tournament, player=player)
    session = SessionFactory(tournament=tournament, number=1)
    games = [
        _play(
            TableFactory(session=session, number=1), [people[n] for n in "ABCD"], TABLE_1, organiser
        ),
        _play(
            TableFactory(session=session, number=2), [people[n] for n in "EFGH"], TABLE_2, organiser
        ),
    ]
    return {"tournament": tournament, "people": people, "games": games}


def _holders(awards: Any, key: str) -> list[tuple[str, str]]:
    award = next(a for a in awards.awards if a.key == key)
    return [(h.name.split()[0], h.value) for h in award.holders]


def test_each_award_from_the_hand_records(event: dict[str, Any]) -> None:
    awards = compute_awards(event["tournament"])
    # A non-dealer yakuman by tsumo: 8,000 base, 16,000 from the dealer, 8,000 from each other.
    assert _holders(awards, "biggest_hand") == [("C", "32000 (yakuman)")]
    assert _holders(awards, "most_wins") == [("A", "2")]
    # One accepted riichi each: shared by the three.
    assert _holders(awards, "most_riichi") == [("A", "1"), ("B", "1"), ("G", "1")]
    assert _holders(awards, "dealer_run") == [("A", "3")]
    # Nobody dealt in at D's, F's, G's and H's seats: 0 per hand, shared.
    assert [name for name, _ in _holders(awards, "fewest_deal_ins")] == ["D", "F", "G", "H"]
    assert ("D", "0 / 4 (0.0 %)") in _holders(awards, "fewest_deal_ins")
    assert [(h.name.split()[0], h.value) for h in awards.yakuman] == [("C", "kokushi")]
    # Best single game: the highest result the engine gave, at whichever seat it is.
    results = {
        s.player.first_name: GameSummary.of(g.summary).result[s.seat]
        for g in event["games"]
        for s in g.seats.select_related("player")
    }
    best = max(results.values())
    assert _holders(awards, "best_game") == [
        (name, str(value)) for name, value in sorted(results.items()) if value == best
    ]


def test_awards_are_computed_in_four_queries(event: dict[str, Any]) -> None:
    with CaptureQueriesContext(connection) as queries:
        compute_awards(event["tournament"])
    assert len(queries.captured_queries) == 4


def test_the_page_shows_definitions_and_is_linked(event: dict[str, Any]) -> None:
    t = event["tournament"]
    client = Client()
    page = client.get(reverse("tournaments:awards", args=[t.slug]))
    body = page.content.decode()
    assert page.status_code == 200
    for key in ("biggest_hand", "most_wins", "most_riichi", "dealer_run", "fewest_deal_ins"):
        assert f'id="award-{key}"' in body
    assert "before counters and riichi sticks" in body  # a definition
    assert "kokushi" in body
    awards_url = reverse("tournaments:awards", args=[t.slug])
    for page_name in ("detail", "standings"):
        assert (
            awards_url
            in client.get(reverse(f"tournaments:{page_name}", args=[t.slug])).content.decode()
        )
