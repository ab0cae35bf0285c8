"""Issue 15: lateness in minutes and seconds, rounded up per started minute (EMA 2025 7.2: "a
player who is 9 minutes and 30 seconds late has a 10,000-point penalty"); later than 10
minutes is a substitution, not a lateness penalty (EMA 2025 7.3)."""

from __future__ import annotations

import pytest

from core.audit import audit_for_tournament
from core.errors import ValidationFailed
from tournaments.models import Penalty
from tournaments.services import add_penalty

pytestmark = pytest.mark.django_db


@pytest.fixture
def base(referee, tournament, player, session):
    """add_penalty's arguments for lateness in session 1 (the shared penalty fixtures)."""
    return {
        "actor": referee,
        "tournament": tournament,
        "player": player,
        "session": session,
        "kind": "lateness",
        "reason": "late",
    }


@pytest.mark.parametrize(
    ("minutes", "seconds", "points", "started"),
    [(9, 30, 10000, 10), (0, 1, 1000, 1), (0, 59, 1000, 1), (1, 0, 1000, 1), (3, 1, 4000, 4),
     (10, 0, 10000, 10), (None, 30, 1000, 1)],
)  # fmt: skip
def test_minutes_and_seconds_round_up_per_started_minute(base, minutes, seconds, points, started):
    """EMA 2025 7.2: 1,000 points per minute late, rounded up."""
    p = add_penalty(**base, minutes_late=minutes, seconds_late=seconds)
    assert (p.points, p.minutes_late) == (points, started)


def test_the_exact_lateness_is_in_the_audit(base, tournament):
    add_penalty(**base, minutes_late=9, seconds_late=30)
    entry = audit_for_tournament(tournament.pk).get(action="penalty.add")
    assert entry.after["late"] == "9:30" and entry.after["points"] == 10000


def test_more_than_ten_minutes_by_a_second_is_a_substitution(base):
    """EMA 2025 7.3: "A player who is late by more than 10 minutes is replaced with a
    substitute player and no lateness penalty is deducted"."""
    with pytest.raises(ValidationFailed) as err:
        add_penalty(**base, minutes_late=10, seconds_late=1)
    assert err.value.field == "minutes_late"
    assert "10:01" in err.value.message and "7.3" in err.value.message
    assert not Penalty.objects.exists()


@pytest.mark.parametrize(
    ("extra", "field"),
    [
        ({"minutes_late": 9, "seconds_late": 60}, "seconds_late"),
        ({"minutes_late": 9, "seconds_late": -1}, "seconds_late"),
        ({"minutes_late": 9, "seconds_late": "30"}, "seconds_late"),
        ({"minutes_late": 9.5, "seconds_late": 10}, "minutes_late"),
        ({"minutes_late": 0, "seconds_late": 0}, "minutes_late"),
        ({"seconds_late": 0}, "seconds_late"),
        ({"minutes_late": -1, "seconds_late": 30}, "minutes_late"),
        ({"minutes_late": 9, "seconds_late": 30, "points": 9000}, "points"),
    ],
)
def test_bad_lateness_names_the_field_and_saves_nothing(base, extra, field):
    with pytest.raises(ValidationFailed) as err:
        add_penalty(**base, **extra)
    assert err.value.field == field
    assert not Penalty.objects.exists()


def test_seconds_are_for_lateness_only(base):
    with pytest.raises(ValidationFailed) as err:
        add_penalty(**{**base, "kind": "obstruction"}, points=8000, seconds_late=30)
    assert err.value.field == "seconds_late"
    assert not Penalty.objects.exists()
