"""Small ORM builders for standings and export tests (tests/factories.py covers the rest)."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from typing import Any

from core.models import Player
from scoring.engine import replay
from scoring.models import Game, GameSeat, Hand
from scoring.records import game_record
from tests.factories import game_at_table
from tournaments.models import Registration, Seat, Session, Table, Tournament


def make_tournament(slug: str = "spring-open", **fields: Any) -> Tournament:
    values: dict[str, Any] = {
        "name": "Spring Open",
        "ruleset": "ema-2025",
        "starts_on": datetime.date(2026, 5, 2),
        "ends_on": datetime.date(2026, 5, 3),
        "city": "Berlin",
        "country": "DE",
        "sessions_planned": 4,
    }
    values.update(fields)
    return Tournament.objects.create(slug=slug, **values)


def make_players(
    n: int,
    *,
    prefix: str = "P",
    countries: Sequence[str] = ("DE",),
    ema: bool = True,
    start: int = 0,
) -> list[Player]:
    return [
        Player.objects.create(
            first_name=f"{prefix}{i}",
            last_name=f"Player{i:03d}",
            ema_number=f"{4000000 + i:08d}" if ema else None,
            country=countries[i % len(countries)],
        )
        for i in range(start, start + n)
    ]


def register(
    tournament: Tournament, players: Sequence[Player], *, is_substitute: bool = False
) -> list[Registration]:
    return [
        Registration.objects.create(tournament=tournament, player=p, is_substitute=is_substitute)
        for p in players
    ]


def table_of(tournament: Tournament, session: int, table: int, players: Sequence[Player]) -> Table:
    s, _ = Session.objects.get_or_create(tournament=tournament, number=session)
    t = Table.objects.create(session=s, number=table)
    for wind, p in enumerate(players):
        Seat.objects.create(table=t, wind=wind, player=p)
    return t


def scores_game(
    tournament: Tournament,
    session: int,
    table: int,
    players: Sequence[Player],
    scores: Sequence[int],
    *,
    finished: bool = True,
    substitutes: Sequence[dict[str, Any]] = (),
    sitters: Sequence[Player] | None = None,
) -> Game:
    """A paper-sheet game (final scores only); ``sitters`` who actually sat, if not seated."""
    t = table_of(tournament, session, table, players)
    game = game_at_table(
        t,
        ruleset=tournament.ruleset,
        rule_overrides=tournament.rule_overrides,
        entry=Game.Entry.FINAL_SCORES,
        final_scores=list(scores),
        substitutes=list(substitutes),
        status=Game.Status.FINISHED if finished else Game.Status.IN_PROGRESS,
    )
    for seat, p in enumerate(sitters or players):
        GameSeat.objects.create(game=game, seat=seat, player=p)
    return game


def hands_game(
    tournament: Tournament,
    session: int,
    table: int,
    players: Sequence[Player],
    hands: Sequence[dict[str, Any]],
    *,
    end: str = "time",
    finished: bool = True,
    cache_summary: bool = True,
) -> Game:
    t = table_of(tournament, session, table, players)
    game = game_at_table(
        t,
        ruleset=tournament.ruleset,
        rule_overrides=tournament.rule_overrides,
        end=end,
        status=Game.Status.FINISHED if finished else Game.Status.IN_PROGRESS,
    )
    for seat, p in enumerate(players):
        GameSeat.objects.create(game=game, seat=seat, player=p)
    for i, h in enumerate(hands):
        Hand.objects.create(game=game, number=i, data=h)
    if cache_summary:
        game.summary = replay(game_record(game))
        game.save(update_fields=["summary"])
    return game


def set_scores(game: Game, scores: Sequence[int], *, finished: bool = True) -> None:
    game.final_scores = list(scores)
    game.status = Game.Status.FINISHED if finished else Game.Status.IN_PROGRESS
    game.summary = None
    game.version += 1
    game.save()


def ron(winner: int, loser: int, han: int, fu: int = 30, riichi: Sequence[int] = ()) -> dict:
    return {
        "outcome": "ron",
        "loser": loser,
        "wins": [{"winner": winner, "han": han, "fu": fu}],
        "riichi": list(riichi),
    }


def tsumo(winner: int, han: int, fu: int = 30, riichi: Sequence[int] = ()) -> dict:
    return {
        "outcome": "tsumo",
        "wins": [{"winner": winner, "han": han, "fu": fu}],
        "riichi": list(riichi),
    }
