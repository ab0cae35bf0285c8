"""One draft-visibility rule for pages and API (tournaments.selectors, issue 14).

A draft tournament is visible to its staff (organisers and referees) and site admins only.
Before issue 14, anonymous GET /games/<id>/ and /games/<id>/record.json showed a draft
tournament's seating and hands, and the web and the API disagreed about a draft's referee.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from scoring.services import enter_hand
from tests.factories import (
    ClubGameFactory,
    GameFactory,
    PlayerFactory,
    SessionFactory,
    StaffRoleFactory,
    TableFactory,
    TournamentFactory,
    UserFactory,
    ron,
)
from tournaments.models import StaffRole, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def draft_game(db: Any) -> Any:
    draft = TournamentFactory(slug="secret-draft", status=Tournament.Status.DRAFT)
    table = TableFactory(session=SessionFactory(tournament=draft, number=1), number=1)
    names = [("Hidden", "Anna"), ("Hidden", "Ben"), ("Hidden", "Clara"), ("Hidden", "David")]
    players = [PlayerFactory(first_name=f, last_name=last) for f, last in names]
    game = GameFactory(table=table, players=players)
    enter_hand(actor=None, game=game, hand=ron(winner=1, loser=2, han=3, fu=40), expected_version=0)
    return game


def _client(user: Any | None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def _as(kind: str, game: Any) -> Client:
    tournament = game.table.session.tournament
    if kind == "anonymous":
        return _client(None)
    if kind == "plain user":
        return _client(UserFactory())
    if kind == "referee of another event":
        return _client(StaffRoleFactory(role=StaffRole.Role.REFEREE).user)
    if kind == "site admin":
        return _client(UserFactory(is_superuser=True, is_staff=True))
    role = StaffRole.Role.ORGANISER if kind == "organiser" else StaffRole.Role.REFEREE
    return _client(StaffRoleFactory(tournament=tournament, role=role).user)


@pytest.mark.parametrize(
    ("kind", "visible"),
    [
        ("anonymous", False),
        ("plain user", False),
        ("referee of another event", False),
        ("referee", True),
        ("organiser", True),
        ("site admin", True),
    ],
)
def test_a_draft_tournaments_game_page_and_record_are_for_its_staff_only(
    draft_game: Any, kind: str, visible: bool
) -> None:
    client = _as(kind, draft_game)
    page = client.get(reverse("scoring:game", args=[draft_game.pk]))
    record = client.get(reverse("scoring:record", args=[draft_game.pk]))
    api = client.get(f"/api/v1/games/{draft_game.pk}/")
    detail = client.get(reverse("tournaments:detail", args=["secret-draft"]))
    expected = 200 if visible else 404
    assert (page.status_code, record.status_code) == (expected, expected)
    # The same rule on the API and on the tournament's own pages.
    assert (api.status_code, detail.status_code) == (expected, expected)
    if visible:
        assert "Hidden Ben" in page.content.decode()
        assert record.json()["hands"][0]["outcome"] == "ron"
    else:
        # Nothing of the seating or the hands leaks.
        assert b"Hidden" not in page.content and b"Hidden" not in record.content


def test_a_running_tournaments_game_and_a_club_game_stay_public(draft_game: Any) -> None:
    tournament = draft_game.table.session.tournament
    tournament.status = Tournament.Status.RUNNING
    tournament.save(update_fields=["status"])
    club_game = ClubGameFactory()
    anonymous = Client()
    for game in (draft_game, club_game):
        assert anonymous.get(reverse("scoring:game", args=[game.pk])).status_code == 200
        assert anonymous.get(reverse("scoring:record", args=[game.pk])).status_code == 200
