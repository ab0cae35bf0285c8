"""Club roles: club admins (site admins count as admins of every club)."""

from __future__ import annotations

from typing import Any

from club.models import Club, Membership
from core.roles import authenticated, is_site_admin, remembered


def is_club_admin(user: Any, club: Club | int) -> bool:
    if is_site_admin(user):
        return True
    if not authenticated(user):
        return False
    club_id = club if isinstance(club, int) else club.pk
    return remembered(
        ("club_admin", club_id, user.pk),
        lambda: Membership.objects.filter(
            club_id=club_id, player__user_id=user.pk, role=Membership.Role.ADMIN
        ).exists(),
    )
