"""Fixtures for the service tests: a tournament with an organiser, a referee and 16 players."""

from __future__ import annotations

import pytest

from tests.factories import (
    PlayerFactory,
    RegistrationFactory,
    StaffRoleFactory,
    TournamentFactory,
    UserFactory,
)
from tournaments.models import StaffRole


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
