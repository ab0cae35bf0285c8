"""Reads of the privacy pages (issue 35.5; docs/privacy.md): what is stored about a registrant,
as they download it (JSON) from their private link."""

from __future__ import annotations

from typing import Any

from tournaments.models import Penalty, Registration, Seat, SignUp
from tournaments.standings.selectors import public_standings


def _when(value: Any) -> str | None:
    return value.isoformat() if value is not None else None


def registrant_data(record: SignUp) -> dict[str, Any]:
    """The sign-up, and once it became a registration: the player as every page shows them,
    the seats, the penalties and the standings row of this tournament."""
    tournament = record.tournament
    data: dict[str, Any] = {
        "tournament": {"slug": tournament.slug, "name": tournament.name},
        "sign_up": {
            "first_name": record.first_name,
            "last_name": record.last_name,
            "country": record.country,
            "email": record.email,
            "ema_number": record.ema_number,
            "club": record.club,
            "team": record.team,
            "status": record.status,
            "signed_up_at": _when(record.created_at),
            "consent_at": _when(record.consent_at),
            "erasure_requested_at": _when(record.erasure_requested_at),
            "erased_at": _when(record.erased_at),
        },
        "player": None,
        "registration": None,
        "seats": [],
        "penalties": [],
        "standing": None,
    }
    if record.registration_id is None:
        return data
    registration = Registration.objects.select_related("player").get(pk=record.registration_id)
    player = registration.player
    data["player"] = {
        "first_name": player.first_name,
        "last_name": player.last_name,
        "country": player.country,
        "ema_number": player.ema_number,
    }
    data["registration"] = {
        "club": registration.club_name,
        "role": registration.role,
        "dropped_at": _when(registration.dropped_at),
        "drop_reason": registration.drop_reason,
        "disqualified_at": _when(registration.disqualified_at),
    }
    seats = Seat.objects.filter(table__session__tournament=tournament, player=player)
    data["seats"] = [
        {"session": s.table.session.number, "table": s.table.number, "wind": Seat.WINDS[s.wind]}
        for s in seats.select_related("table__session").order_by("table__session__number")
    ]
    data["penalties"] = [
        {"kind": p.kind, "points": p.points, "reason": p.reason, "at": _when(p.created_at)}
        for p in Penalty.objects.filter(tournament=tournament, player=player).order_by("pk")
    ]
    # The standings row as the public sees it: while results are hidden (issue 32.3) the rank
    # as it stood before the hidden session (the stored one would tell the others' results).
    public = public_standings(tournament)
    row = next((r for r in public.rows if r.player_id == player.pk), None)
    if public.hidden_from is not None:
        data["standings_hidden_from"] = public.hidden_from
    if row is not None:
        data["standing"] = {
            "rank": row.rank,
            "total": row.total,
            "penalties": row.penalties,
            "games": row.games,
            "per_session": row.per_session,
        }
    return data
