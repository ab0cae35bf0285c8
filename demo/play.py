"""What the demo plays: its people and plausible hands, entered through the services.

Shared by `seed_demo` (the published tournament, the club's past nights) and `demo.live` (the
running tournament and tonight's club night).
"""

from __future__ import annotations

import random
from typing import Any

from scoring.engine import RecordError, preview_hand
from scoring.models import Game
from scoring.services import enter_hand, finalize_game, game_record
from scoring.summary import GameSummary

# (first, last, country, club): 20 demo players; EMA numbers are derived from the position.
PEOPLE = [
    ("Pat", "Player", "DE", "Demo Riichi Club"),  # linked to the `player` login
    ("Anna", "Becker", "DE", "Demo Riichi Club"),
    ("Jonas", "Wagner", "DE", "Demo Riichi Club"),
    ("Marie", "Dubois", "FR", "Paris Riichi"),
    ("Lucas", "Martin", "FR", "Paris Riichi"),
    ("Sofia", "Rossi", "IT", "Milano Mahjong"),
    ("Marco", "Bianchi", "IT", "Milano Mahjong"),
    ("Emma", "Jansen", "NL", "Utrecht Riichi"),
    ("Daan", "de Vries", "NL", "Utrecht Riichi"),
    ("Olivia", "Smith", "GB", "London Riichi"),
    ("Harry", "Jones", "GB", "London Riichi"),
    ("Elena", "Novak", "CZ", "Praha Mahjong"),
    ("Piotr", "Kowalski", "PL", "Warszawa Riichi"),
    ("Ingrid", "Larsen", "DK", "København Riichi"),
    ("Mikko", "Virtanen", "FI", "Helsinki Mahjong"),
    ("Lena", "Hofer", "AT", "Wien Riichi"),
    ("Felix", "Schmidt", "DE", "Demo Riichi Club"),
    ("Clara", "Fischer", "DE", "Demo Riichi Club"),
    ("Tom", "Weber", "DE", "Demo Riichi Club"),
    ("Nora", "Meyer", "DE", "Demo Riichi Club"),
]

# Realistic (han, fu) for ordinary wins, weighted roughly like tournament play.
WIN_SHAPES = [
    ((1, 30), 10),
    ((1, 40), 6),
    ((2, 30), 10),
    ((2, 40), 5),
    ((2, 25), 2),
    ((3, 30), 7),
    ((3, 40), 3),
    ((4, 30), 4),
    ((4, 40), 2),
    ((1, 50), 1),
    ((5, None), 4),
    ((6, None), 2),
    ((7, None), 1),
    ((8, None), 1),
    ((11, None), 0.3),
]
MAX_HANDS = 24  # a safety stop: a game still running then ends on time (EMA 2025 7.4)


def _win(rng: random.Random, *, winner: int, tsumo: bool) -> dict[str, Any]:
    if rng.random() < 0.004:
        return {"winner": winner, "yakuman": 1}
    shapes, weights = zip(*WIN_SHAPES, strict=True)
    han, fu = rng.choices(shapes, weights=weights)[0]
    if tsumo and (han, fu) == (1, 30) and rng.random() < 0.5:
        han, fu = 2, 20  # riichi pinfu tsumo
    win: dict[str, Any] = {"winner": winner, "han": han}
    if fu is not None:
        win["fu"] = fu
    return win


def random_hand(rng: random.Random, players: int = 4) -> dict[str, Any]:
    """One plausible hand; the caller keeps it only if the engine accepts it."""
    seats = list(range(players))
    riichi = [s for s in seats if rng.random() < 0.18]
    roll = rng.random()
    if roll < 0.005:
        return {"outcome": "chombo", "offender": rng.choice(seats), "riichi": []}
    if roll < 0.15:
        tenpai = sorted(set(riichi) | {s for s in seats if rng.random() < 0.35})
        return {"outcome": "draw", "tenpai": tenpai, "riichi": riichi}
    winner = rng.choice(riichi) if riichi and rng.random() < 0.6 else rng.choice(seats)
    if roll < 0.42:
        return {
            "outcome": "tsumo",
            "wins": [_win(rng, winner=winner, tsumo=True)],
            "riichi": riichi,
        }
    loser = rng.choice([s for s in seats if s != winner])
    wins = [_win(rng, winner=winner, tsumo=False)]
    if rng.random() < 0.02:
        other = rng.choice([s for s in seats if s not in (winner, loser)])
        wins.append(_win(rng, winner=other, tsumo=False))  # double ron
    riichi = [s for s in riichi if s != loser or rng.random() < 0.5]
    return {"outcome": "ron", "loser": loser, "wins": wins, "riichi": riichi}


def _valid_hand(rng: random.Random, record: dict[str, Any]) -> dict[str, Any] | None:
    """A generated hand the engine accepts after `record`'s hands (50 tries), or None."""
    for _attempt in range(50):
        hand = random_hand(rng)
        try:
            preview_hand(record, hand)
        except RecordError:
            continue
        return hand
    return None


def play_game(game: Game, rng: random.Random, *, actor: Any) -> Game:
    """Enter generated hands through the services until the rules end the game."""
    record = game_record(game)
    for _ in range(MAX_HANDS):
        hand = _valid_hand(rng, record)
        if hand is None:
            continue
        game = enter_hand(actor=actor, game=game, hand=hand, expected_version=game.version).game
        record["hands"].append(hand)
        if GameSummary.of(game.summary).over:
            return finalize_game(actor=actor, game=game, expected_version=game.version)
    return finalize_game(actor=actor, game=game, expected_version=game.version, end="time")


def play_hands(game: Game, rng: random.Random, *, actor: Any, count: int) -> Game:
    """Enter up to `count` generated hands through the services, stopping if the rules end
    the game (its referee then finalizes it): a game part-way through."""
    record = game_record(game)
    for _ in range(count):
        hand = _valid_hand(rng, record)
        if hand is None:
            continue
        game = enter_hand(actor=actor, game=game, hand=hand, expected_version=game.version).game
        record["hands"].append(hand)
        if GameSummary.of(game.summary).over:
            break
    return game
