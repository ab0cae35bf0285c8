"""Reading standings."""

from __future__ import annotations

from django.db.models import F, QuerySet

from tournaments.models import StandingRow, Tournament


def standings_queryset(tournament: Tournament | int) -> QuerySet[StandingRow]:
    """Ranked players by rank, then unranked ones (substitutes) by total."""
    tournament_id = tournament if isinstance(tournament, int) else tournament.pk
    return (
        StandingRow.objects.filter(tournament_id=tournament_id)
        .select_related("player")
        .order_by(
            F("rank").asc(nulls_last=True),
            "-total",
            "player__last_name",
            "player__first_name",
            "player_id",
        )
    )


def standings_for(tournament: Tournament | int) -> list[StandingRow]:
    return list(standings_queryset(tournament))


def session_numbers(rows: list[StandingRow]) -> list[int]:
    """The session numbers that appear in any row (the per-session columns)."""
    return sorted({int(e["session"]) for row in rows for e in row.per_session})
