"""Reads of self-registration (issue 35): the organisers' list, a registrant's own status."""

from __future__ import annotations

from django.db.models import QuerySet

from tournaments.models import SignUp, Tournament


def sign_ups_of(tournament: Tournament) -> QuerySet[SignUp]:
    """All sign-ups, oldest first (the waiting list's order)."""
    return SignUp.objects.filter(tournament=tournament).order_by("created_at", "pk")


def sign_up_by_token(token: str) -> SignUp | None:
    if not token:
        return None
    return SignUp.objects.select_related("tournament").filter(token=token).first()


def waiting_position(sign_up: SignUp) -> int | None:
    """1 for the first one waiting; None when not on the waiting list."""
    if sign_up.status != SignUp.Status.WAITING:
        return None
    ahead = SignUp.objects.filter(
        tournament_id=sign_up.tournament_id,
        status=SignUp.Status.WAITING,
        created_at__lt=sign_up.created_at,
    ).count()
    ahead += SignUp.objects.filter(
        tournament_id=sign_up.tournament_id,
        status=SignUp.Status.WAITING,
        created_at=sign_up.created_at,
        pk__lt=sign_up.pk,
    ).count()
    return ahead + 1


SIGN_UP_CSV_HEADER = [
    "first_name",
    "last_name",
    "country",
    "email",
    "ema_number",
    "club",
    "status",
    "waiting_position",
    "signed_up_at",
    "team",
]


def sign_up_csv_rows(tournament: Tournament) -> list[list[str]]:
    rows: list[list[str]] = []
    position = 0
    for s in sign_ups_of(tournament):
        place = ""
        if s.status == SignUp.Status.WAITING:
            position += 1
            place = str(position)
        rows.append(
            [
                s.first_name,
                s.last_name,
                s.country,
                s.email,
                s.ema_number or "",
                s.club,
                s.status,
                place,
                s.created_at.isoformat(),
                s.team,
            ]
        )
    return rows
