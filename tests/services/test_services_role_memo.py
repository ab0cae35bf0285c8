"""Role lookups remembered for one request (tournaments.roles.RoleMemoMiddleware)."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from factories import StaffRoleFactory, TournamentFactory, UserFactory

from core.roles import remembered_roles
from tournaments.models import StaffRole
from tournaments.roles import is_referee

pytestmark = pytest.mark.django_db


def test_within_a_request_a_role_is_looked_up_once() -> None:
    tournament = TournamentFactory()
    referee = StaffRoleFactory(tournament=tournament, role=StaffRole.Role.REFEREE).user
    with remembered_roles():
        assert is_referee(referee, tournament.pk)
        with CaptureQueriesContext(connection) as queries:
            assert is_referee(referee, tournament.pk)
    assert len(queries) == 0


def test_a_role_granted_or_taken_within_the_request_is_seen_at_once() -> None:
    tournament = TournamentFactory()
    user = UserFactory()
    with remembered_roles():
        assert not is_referee(user, tournament.pk)
        role = StaffRole.objects.create(
            tournament=tournament, user=user, role=StaffRole.Role.REFEREE
        )
        assert is_referee(user, tournament.pk)
        role.delete()
        assert not is_referee(user, tournament.pk)


def test_outside_a_request_nothing_is_remembered() -> None:
    tournament = TournamentFactory()
    user = UserFactory()
    assert not is_referee(user, tournament.pk)
    StaffRole.objects.filter(tournament=tournament).delete()  # no signal needed out here
    StaffRole.objects.bulk_create(
        [StaffRole(tournament=tournament, user=user, role=StaffRole.Role.REFEREE)]
    )
    assert is_referee(user, tournament.pk)
