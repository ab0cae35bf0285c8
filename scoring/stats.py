"""Player statistics from hand records (game-record hands and the engine's replay).

Counted over the player's finished games (optionally only some of them: an app above narrows
them to one tournament's or one club's games, scoring knows neither; issue 14):
games, average placement, and per hand played: win rate, deal-in rate (the player's discard
was ronned), riichi rate; the average hand value (what the player gained in the hands they
won, riichi sticks and counters included); and the yakuman they won. Paper-sheet games (final
scores only) count for games and placement but have no hands.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from django.db.models import QuerySet

from core.models import Player
from scoring.engine import RecordError, replay
from scoring.models import Game, GameSeat
from scoring.records import game_final, game_record
from scoring.summary import GameSummary


@dataclass
class PlayerStats:
    games: int = 0
    average_placement: float | None = None
    hands: int = 0
    wins: int = 0
    deal_ins: int = 0
    riichi: int = 0
    points_won: int = 0
    yakuman: list[dict[str, Any]] = field(default_factory=list)

    @property
    def win_rate(self) -> float | None:
        return self.wins / self.hands if self.hands else None

    @property
    def deal_in_rate(self) -> float | None:
        return self.deal_ins / self.hands if self.hands else None

    @property
    def riichi_rate(self) -> float | None:
        return self.riichi / self.hands if self.hands else None

    @property
    def average_hand_value(self) -> float | None:
        return self.points_won / self.wins if self.wins else None

    def to_dict(self) -> dict[str, Any]:
        return {
            **asdict(self),
            "win_rate": self.win_rate,
            "deal_in_rate": self.deal_in_rate,
            "riichi_rate": self.riichi_rate,
            "average_hand_value": self.average_hand_value,
        }


def _games_of(player: Player, games: QuerySet[Game] | None) -> QuerySet[Game]:
    if games is None:
        games = Game.objects.all()
    games = games.filter(seats__player=player, status=Game.Status.FINISHED)
    return games.order_by("finished_at", "id")


def _hand_deltas(game: Game) -> list[list[int]]:
    summary = game.summary if isinstance(game.summary, Mapping) else None
    if summary is None or "hands" not in summary:
        try:
            summary = replay(game_record(game))
        except RecordError:
            return []
    return [list(h["deltas"]) for h in GameSummary.of(summary).hands]


def player_stats(player: Player, *, games: QuerySet[Game] | None = None) -> PlayerStats:
    """The player's statistics over their finished games, or over those of `games` only."""
    stats = PlayerStats()
    places: list[int] = []
    for game in _games_of(player, games).prefetch_related("hands"):
        seat = GameSeat.objects.get(game=game, player=player).seat
        final = game_final(game)
        if final is None:
            continue
        stats.games += 1
        places.append(int(final["rank"][seat]))
        hands = sorted(game.hands.all(), key=lambda h: h.number)
        deltas = _hand_deltas(game)
        for hand, delta in zip(hands, deltas, strict=False):
            data = hand.data
            stats.hands += 1
            if seat in data.get("riichi", []):
                stats.riichi += 1
            outcome = data.get("outcome")
            if outcome == "ron" and data.get("loser") == seat:
                stats.deal_ins += 1
            if outcome not in ("ron", "tsumo"):
                continue
            for win in data.get("wins", []):
                if win.get("winner") != seat:
                    continue
                stats.wins += 1
                stats.points_won += int(delta[seat])
                if win.get("yakuman"):
                    stats.yakuman.append(
                        {
                            "game": game.pk,
                            "hand": hand.number,
                            "yakuman": win["yakuman"],
                            "yaku": win.get("yaku", []),
                            "outcome": outcome,
                        }
                    )
    if places:
        stats.average_placement = round(sum(places) / len(places), 3)
    return stats
