"""League standings over a league's club nights (club.models.League).

A player's value is, by ``League.aggregate``: the sum of their game results, their average
result, or the sum of their best ``best_n`` results. Players with fewer than ``min_games``
finished games are listed but not ranked. Results are the engine's ``result`` (after uma, oka
and in-game penalties) of every finished game of the league's club nights.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from club.models import League
from core.models import Player
from scoring.models import Game, GameSeat
from scoring.records import game_final


@dataclass
class LeagueRow:
    player: Player
    results: list[int] = field(default_factory=list)
    value: float = 0.0
    rank: int | None = None

    @property
    def games(self) -> int:
        return len(self.results)


def league_value(results: list[int], *, aggregate: str, best_n: int | None) -> float:
    if not results:
        return 0.0
    if aggregate == League.Aggregate.AVERAGE:
        return sum(results) / len(results)
    if aggregate == League.Aggregate.BEST_N:
        return float(sum(sorted(results, reverse=True)[: best_n or len(results)]))
    return float(sum(results))


def league_standings(league: League) -> list[LeagueRow]:
    """Ranked players (ties share a rank) followed by those below ``min_games``."""
    games = list(  # confirmed games only (club play without a referee)
        Game.objects.filter(
            club_game__night__league=league, status=Game.Status.FINISHED, confirmed=True
        )
    )
    rows: dict[int, LeagueRow] = {}
    seats = GameSeat.objects.filter(game__in=games).select_related("player")
    by_game: dict[int, list[GameSeat]] = {}
    for s in seats:
        by_game.setdefault(s.game_id, []).append(s)
    for game in games:
        final = game_final(game)
        if final is None:
            continue
        for s in by_game.get(game.pk, []):
            rows.setdefault(s.player_id, LeagueRow(s.player)).results.append(
                int(final["result"][s.seat])
            )
    for row in rows.values():
        row.value = league_value(row.results, aggregate=league.aggregate, best_n=league.best_n)
    eligible = sorted(
        (r for r in rows.values() if r.games >= league.min_games),
        key=lambda r: (-r.value, r.player.last_name, r.player.pk),
    )
    previous: LeagueRow | None = None
    for i, row in enumerate(eligible, start=1):
        row.rank = previous.rank if previous and previous.value == row.value else i
        previous = row
    rest = sorted(
        (r for r in rows.values() if r.games < league.min_games),
        key=lambda r: (-r.games, r.player.last_name, r.player.pk),
    )
    return eligible + rest
