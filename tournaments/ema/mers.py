"""MERS tournament weight and EMA base ranks (EMA ranking rules, see docs/ema-export.md).

MERS weight = days (1-3) + players (<=40: 0, 41-80: 0.5, >80: 1; up to 3 substitutes count)
+ countries (<=5: 0, 6-9: 0.5, >=10: 1) + 1 for a qualification-only championship.
Base rank of a place = 1000 x (N - place) / (N - 1); tied players share the place.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from django.db.models import Q

from scoring.models import GameSeat
from tournaments.models import Registration, StandingRow, Tournament

MAX_COUNTED_SUBSTITUTES = 3


@dataclass(frozen=True)
class MersWeight:
    days: int
    players: int  # players counted: ranked players plus up to 3 substitutes who played
    countries: int
    qualification_only: bool
    days_weight: float
    players_weight: float
    countries_weight: float
    qualification_weight: float

    @property
    def total(self) -> float:
        return (
            self.days_weight
            + self.players_weight
            + self.countries_weight
            + self.qualification_weight
        )

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "total": self.total}


def mers_weight(
    *,
    days: int,
    players: int,
    countries: int,
    substitutes: int = 0,
    qualification_only: bool = False,
) -> MersWeight:
    """The MERS weight and its parts; ``players`` excludes substitutes (at most 3 count)."""
    counted = players + min(max(substitutes, 0), MAX_COUNTED_SUBSTITUTES)
    days = min(max(days, 1), 3)
    return MersWeight(
        days=days,
        players=counted,
        countries=countries,
        qualification_only=qualification_only,
        days_weight=float(days),
        players_weight=0.0 if counted <= 40 else 0.5 if counted <= 80 else 1.0,
        countries_weight=0.0 if countries <= 5 else 0.5 if countries <= 9 else 1.0,
        qualification_weight=1.0 if qualification_only else 0.0,
    )


def tournament_days(tournament: Tournament) -> int:
    return (tournament.ends_on - tournament.starts_on).days + 1


def tournament_mers(tournament: Tournament) -> MersWeight:
    """MERS weight of a tournament from its registrations and games.

    Players: registered non-substitutes. Substitutes: substitute registrations who sat at a
    table. Countries: distinct countries of all of those (players without a country are not
    counted).
    """
    regs = Registration.objects.filter(tournament=tournament).select_related("player")
    played = set(
        GameSeat.objects.filter(game__table__session__tournament=tournament).values_list(
            "player_id", flat=True
        )
    )
    players = [r.player for r in regs if not r.is_substitute]
    subs = [r.player for r in regs if r.is_substitute and r.player_id in played]
    counted_subs = subs[:MAX_COUNTED_SUBSTITUTES]
    countries = {p.country for p in [*players, *counted_subs] if p.country}
    return mers_weight(
        days=tournament_days(tournament),
        players=len(players),
        countries=len(countries),
        substitutes=len(subs),
        qualification_only=tournament.qualification_only,
    )


def base_rank(place: int, players: int) -> float:
    """EMA base rank of a place among ``players`` (1000 for first, 0 for last)."""
    if players <= 1:
        return 1000.0
    return 1000.0 * (players - place) / (players - 1)


def base_ranks(places: Sequence[int]) -> list[float]:
    """Base ranks for the standings places of all ranked players (tied players hold the same
    place and so share its base rank)."""
    n = len(places)
    return [round(base_rank(p, n), 2) for p in places]


def ranking_preview(
    tournament: Tournament, standings: Sequence[StandingRow] | None = None
) -> dict[str, Any]:
    """What the EMA ranking would take: the MERS weight with its parts and each ranked
    player's place and base rank (from the stored standings, or from `standings` in their
    order: the public ones while results are hidden, issue 32.3)."""
    if standings is not None:
        rows = [r for r in standings if r.rank is not None]
    else:
        rows = list(
            StandingRow.objects.filter(tournament=tournament)
            .filter(~Q(rank=None))
            .select_related("player")
            .order_by("rank", "player__last_name", "player_id")
        )
    ranks = base_ranks([r.rank or 0 for r in rows])
    return {
        "mers": tournament_mers(tournament).to_dict(),
        "players": [
            {
                "place": r.rank,
                "player_id": r.player_id,
                "name": str(r.player),
                "ema_number": r.player.ema_number,
                "base_rank": rank,
            }
            for r, rank in zip(rows, ranks, strict=True)
        ],
    }
