"""Fixtures of the online session tests (issue 32.5): a tournament played under Tenhou's
rules, its organiser and referee, eight registered players."""

from __future__ import annotations

from typing import Any

import pytest

from tests.factories import (
    PlayerFactory,
    RegistrationFactory,
    StaffRoleFactory,
    TournamentFactory,
    UserFactory,
)
from tournaments.models import StaffRole, Tournament


@pytest.fixture
def tournament(db: Any) -> Tournament:
    # The organiser chose the site's rules (Tenhou's ranked lobby): the engine scores them.
    return TournamentFactory(slug="online-league", ruleset="tenhou")


@pytest.fixture
def organiser(tournament: Tournament) -> Any:
    user = UserFactory(username="organiser")
    StaffRoleFactory(tournament=tournament, user=user, role=StaffRole.Role.ORGANISER)
    return user


@pytest.fixture
def referee(tournament: Tournament) -> Any:
    user = UserFactory(username="referee")
    StaffRoleFactory(tournament=tournament, user=user, role=StaffRole.Role.REFEREE)
    return user


@pytest.fixture
def players(tournament: Tournament) -> list[Any]:
    people = [PlayerFactory(first_name=f"Online{i}", last_name="Player") for i in range(8)]
    for p in people:
        RegistrationFactory(tournament=tournament, player=p)
    return people
