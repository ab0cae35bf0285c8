"""Fixtures for the page tests: a running tournament with an organiser, a referee and a game."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tests.factories import (
    GameFactory,
    PlayerFactory,
    RegistrationFactory,
    SessionFactory,
    StaffRoleFactory,
    TableFactory,
    TournamentFactory,
    UserFactory,
)
from tournaments.models import StaffRole


@pytest.fixture(autouse=True)
def _short_seating_search(short_seating_search: None) -> None:
    """The pages' seating plans search less (tests/conftest.py)."""


@pytest.fixture
def tournament(db: Any) -> Any:
    return TournamentFactory(name="Hamburg Open", slug="hamburg-open")


@pytest.fixture
def players(tournament: Any) -> list[Any]:
    names = [("Anna", "Adler"), ("Ben", "Berg"), ("Clara", "Claus"), ("David", "Dorn")]
    people: list[Any] = [PlayerFactory(first_name=first, last_name=last) for first, last in names]
    for p in people:
        RegistrationFactory(tournament=tournament, player=p)
    return people


@pytest.fixture
def game(tournament: Any, players: list[Any]) -> Any:
    session = SessionFactory(tournament=tournament, number=1)
    table = TableFactory(session=session, number=1)
    return GameFactory(table=table, players=players)


def _login(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def referee(tournament: Any) -> Any:
    return StaffRoleFactory(tournament=tournament, role=StaffRole.Role.REFEREE).user


@pytest.fixture
def organiser(tournament: Any) -> Any:
    return StaffRoleFactory(tournament=tournament, role=StaffRole.Role.ORGANISER).user


@pytest.fixture
def referee_client(referee: Any) -> Client:
    return _login(referee)


@pytest.fixture
def organiser_client(organiser: Any) -> Client:
    return _login(organiser)


@pytest.fixture
def stranger_client(db: Any) -> Client:
    """A referee of another tournament."""
    other = StaffRoleFactory(role=StaffRole.Role.REFEREE)
    return _login(other.user)


@pytest.fixture
def plain_user_client(db: Any) -> Client:
    return _login(UserFactory())
