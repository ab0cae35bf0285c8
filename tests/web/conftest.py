"""Fixtures for the page tests: a running tournament with an organiser, a referee and a game."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

import tournaments.seating
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
def _short_seating_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """The pages' seating plans search 1/8 of the default iterations (the 8 s budget's
    iteration cap: about 8 s of CPU per plan whose fewest-meetings bound cannot be reached, as
    for 8 players over 4 sessions). These tests check the pages, not the search (tests/seating
    does); each plan is still searched, validated and shown. test_web_console's plan test took
    6.0 s of CPU, the console, roster-day and seating files 27 s of CPU together."""
    monkeypatch.setattr(tournaments.seating, "_STEPS_PER_SECOND_PLAYER", 2_000)


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
