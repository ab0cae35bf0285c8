"""seed_demo builds the demo through the services, and a second run changes nothing."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from club.models import Club
from core.models import AuditEntry, Player
from scoring.models import Game
from tournaments.models import StandingRow, Tournament

pytestmark = pytest.mark.django_db


def test_seed_demo_is_complete_and_idempotent():
    call_command("seed_demo")
    tournament = Tournament.objects.get(slug="demo-open-2026")
    assert tournament.status in ("finished", "published")
    assert tournament.registrations.count() == 16
    games = Game.objects.filter(table__session__tournament=tournament)
    assert games.count() == 16 and not games.exclude(status="finished").exists()
    assert all(g.summary["final"] and sum(g.summary["final"]["result"]) <= 0 for g in games)
    assert tournament.staff.filter(user__username="organiser", role="organiser").exists()
    assert tournament.staff.filter(user__username="referee", role="referee").exists()
    assert Player.objects.filter(user__username="player").exists()
    club = Club.objects.get(slug="demo-riichi-club")
    # Two past nights and tonight's, in progress (issue 37, demo.live).
    assert club.memberships.count() == 12 and club.nights.count() == 3
    assert Game.objects.filter(club_game__night__club=club, status="finished").exists()
    counts = (Game.objects.count(), AuditEntry.objects.count(), Player.objects.count())
    call_command("seed_demo")
    assert (Game.objects.count(), AuditEntry.objects.count(), Player.objects.count()) == counts
    if StandingRow.objects.filter(tournament=tournament).exists():
        assert StandingRow.objects.filter(tournament=tournament, rank=1).count() >= 1
