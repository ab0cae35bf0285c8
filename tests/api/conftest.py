"""Fixtures of the API tests: one tournament with its staff, a club, and a client per role."""

from __future__ import annotations

import copy
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import transaction
from rest_framework.test import APIClient

from club.models import Club, ClubNight, Membership
from config.celery import app as celery_app
from core.models import Player
from scoring.models import Game
from tests.factories import (
    ClubFactory,
    ClubGameFactory,
    ClubNightFactory,
    GameFactory,
    MembershipFactory,
    PlayerFactory,
    RegistrationFactory,
    SessionFactory,
    StaffRoleFactory,
    TableFactory,
    TournamentFactory,
    UserFactory,
)
from tournaments.models import Session, StaffRole, Table, Tournament

ROLES = ("anonymous", "player", "other_referee", "referee", "organiser", "admin")


@dataclass
class World:
    """A running tournament T with one seated, running session and its game; a second
    tournament (whose referee is `other_referee`); a club with a night and a casual game."""

    tournament: Tournament
    other_tournament: Tournament
    session: Session
    table: Table
    game: Game
    players: list[Player]
    users: dict[str, User | None]
    club: Club
    night: ClubNight
    club_game: Game
    club_admin: User
    club_member: User
    extra: dict[str, Any] = field(default_factory=dict)

    def user(self, role: str) -> User:
        user = self.users[role]
        assert user is not None, f"{role} has no user"
        return user

    def client(self, role: str) -> APIClient:
        return client_for(self.users[role])


def client_for(user: User | None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


@pytest.fixture(scope="module")
def _module_world(django_db_setup: None, django_db_blocker: Any) -> Iterator[World]:
    """The world, built once per test module inside a transaction that is rolled back after the
    module's last test. Each test's own transaction (the `db` fixture) is a savepoint inside it,
    so whatever a test writes is gone before the next one, as before; pytest-django skips
    TestCase's class setup for non-transactional tests precisely so they can be wrapped like this.
    Built per test, the world was the largest cost of the API tests: 463 permission-matrix tests
    spent 14.6 s of 20 s in its setup (SQLite, load 6-9)."""
    eager = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True  # as the tests' own setup ran (tests/conftest.py)
    with django_db_blocker.unblock():
        outer = transaction.atomic()
        outer.__enter__()
        try:
            built = build_world()
        except BaseException:
            outer.__exit__(*sys.exc_info())
            raise
        finally:
            celery_app.conf.task_always_eager = eager
    yield built
    with django_db_blocker.unblock():
        transaction.set_rollback(True)
        outer.__exit__(None, None, None)


@pytest.fixture
def world(_module_world: World, db: None) -> World:
    """A fresh copy of the module's world for each test (as setUpTestData deep-copies its class
    data): a test that changes an object in memory or adds to `extra` changes only its copy."""
    return copy.deepcopy(_module_world)


def build_world() -> World:
    tournament = TournamentFactory(slug="open", status=Tournament.Status.RUNNING)
    other = TournamentFactory(slug="other", status=Tournament.Status.RUNNING)
    session = SessionFactory(tournament=tournament, number=1, status=Session.Status.RUNNING)
    table = TableFactory(session=session, number=1)
    players = [PlayerFactory() for _ in range(4)]
    for player in players:
        RegistrationFactory(tournament=tournament, player=player)
    game = GameFactory(table=table, players=players)

    users: dict[str, User | None] = {
        "anonymous": None,
        "player": UserFactory(username="player"),
        "other_referee": UserFactory(username="other-referee"),
        "referee": UserFactory(username="referee"),
        "organiser": UserFactory(username="organiser"),
        "admin": UserFactory(username="admin", is_superuser=True, is_staff=True),
    }
    players[0].user = users["player"]
    players[0].save()
    StaffRoleFactory(tournament=tournament, user=users["referee"], role=StaffRole.Role.REFEREE)
    StaffRoleFactory(tournament=tournament, user=users["organiser"], role=StaffRole.Role.ORGANISER)
    StaffRoleFactory(tournament=other, user=users["other_referee"], role=StaffRole.Role.REFEREE)

    club = ClubFactory(slug="dragons")
    night = ClubNightFactory(club=club)
    club_admin = UserFactory(username="club-admin")
    club_member = UserFactory(username="club-member")
    admin_player = PlayerFactory(user=club_admin)
    member_player = PlayerFactory(user=club_member)
    MembershipFactory(club=club, player=admin_player, role=Membership.Role.ADMIN)
    MembershipFactory(club=club, player=member_player)
    club_players = [member_player, *(PlayerFactory() for _ in range(3))]
    for player in club_players[1:]:
        MembershipFactory(club=club, player=player)
    club_game = ClubGameFactory(club_night=night, players=club_players)
    return World(
        tournament=tournament,
        other_tournament=other,
        session=session,
        table=table,
        game=game,
        players=players,
        users=users,
        club=club,
        night=night,
        club_game=club_game,
        club_admin=club_admin,
        club_member=club_member,
    )
