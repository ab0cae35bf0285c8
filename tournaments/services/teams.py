"""Teams of a team event (issue 32.1, docs/teams.md): a registration names its team, which is
created on first use and removed with its last member; the tournament's team settings."""

from __future__ import annotations

from typing import Any

from django.utils.text import slugify

from core.errors import ValidationFailed
from tournaments.models import Registration, Team, Tournament

TEAM_NAME_MAX = Team._meta.get_field("name").max_length or 100
# The most members a team may count (Tournament.team_counted_members): far above any real team.
COUNTED_MEMBERS_MAX = 100


def clean_team_name(value: Any, *, field: str = "team") -> str:
    """A team name with its spaces collapsed ("" for no team), or the field's error."""
    if value is not None and not isinstance(value, str):
        raise ValidationFailed("team is the team's name (text), or empty for none.", field=field)
    name = " ".join((value or "").split())
    if len(name) > TEAM_NAME_MAX:
        raise ValidationFailed(f"A team name has at most {TEAM_NAME_MAX} characters.", field=field)
    return name


def clean_counted_members(value: Any) -> int | None:
    """Tournament.team_counted_members: a whole number N (the best N members count), or None
    for all of them."""
    if value is None:
        return None
    if (
        isinstance(value, bool)
        or not isinstance(value, int)
        or not 1 <= value <= COUNTED_MEMBERS_MAX
    ):
        raise ValidationFailed(
            f"team_counted_members is a whole number from 1 to {COUNTED_MEMBERS_MAX}, or null "
            "for all members.",
            field="team_counted_members",
        )
    return value


def _free_slug(tournament_id: int, name: str) -> str:
    base = slugify(name)[:100] or "team"
    if base.isdigit():
        base = f"team-{base}"  # an address of digits is a team's id (tournaments.urls)
    taken = set(
        Team.objects.filter(tournament_id=tournament_id, slug__startswith=base).values_list(
            "slug", flat=True
        )
    )
    slug, n = base, 2
    while slug in taken:
        slug, n = f"{base}-{n}", n + 1
    return slug


def team_named(tournament: Tournament | int, name: str) -> Team | None:
    """The tournament's team of this name (case ignored), created on first use; None for ""."""
    tournament_id = tournament if isinstance(tournament, int) else tournament.pk
    if not name:
        return None
    team = Team.objects.filter(tournament_id=tournament_id, name__iexact=name).first()
    if team is None:
        team = Team.objects.create(
            tournament_id=tournament_id, name=name, slug=_free_slug(tournament_id, name)
        )
    return team


def remove_empty_teams(tournament_id: int) -> None:
    """A team whose last member left is gone (a mistyped name leaves no trace)."""
    Team.objects.filter(tournament_id=tournament_id, members__isnull=True).delete()


def team_label(registration: Registration) -> str:
    """The registration's team name as snapshots and the API show it ("" for none)."""
    return registration.team.name if registration.team_id and registration.team else ""
