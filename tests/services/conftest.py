"""Fixtures for the service tests: a tournament with an organiser, a referee and 16 players;
for the penalty tests, session 1, a registered player and add_penalty by the referee."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.factories import (
    PlayerFactory,
    RegistrationFactory,
    SessionFactory,
    StaffRoleFactory,
    TournamentFactory,
    UserFactory,
)
from tournaments.models import Penalty, Session, StaffRole
from tournaments.services import add_penalty


@pytest.fixture
def organiser(db):
    return UserFactory(username="org")


@pytest.fixture
def referee(db):
    return UserFactory(username="ref")


@pytest.fixture
def tournament(organiser, referee):
    t = TournamentFactory(status="registration")
    StaffRoleFactory(tournament=t, user=organiser, role=StaffRole.Role.ORGANISER)
    StaffRoleFactory(tournament=t, user=referee, role=StaffRole.Role.REFEREE)
    return t


@pytest.fixture
def registrations(tournament):
    return [RegistrationFactory(tournament=tournament, player=PlayerFactory()) for _ in range(16)]


@pytest.fixture
def session(tournament) -> Session:
    """Session 1 of the tournament (lateness is per session, EMA 2025 7.2)."""
    return SessionFactory(tournament=tournament, number=1)


@pytest.fixture
def player(tournament):
    """A registered player of the tournament: the one the penalty tests penalise."""
    return RegistrationFactory(tournament=tournament).player


@pytest.fixture
def penalise(referee, tournament, player) -> Callable[..., Penalty]:
    """add_penalty by the tournament's referee on the registered player; a test passes what it
    is about (kind, points, reason, lateness, session) and may override any argument."""

    def give(**arguments: Any) -> Penalty:
        return add_penalty(
            **{"actor": referee, "tournament": tournament, "player": player, **arguments}
        )

    return give
