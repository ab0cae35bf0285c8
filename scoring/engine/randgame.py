"""Random valid game records, for property tests and the benchmark (not used in production).

Hands are drawn independently; ``random_record`` then cuts the list where the rules end the
game, so every record it returns replays without error.
"""

from __future__ import annotations

import random

from .constants import RECORD_FORMAT
from .errors import RecordError
from .replay import replay
from .rules import PRESETS, Ruleset, load_ruleset

# (han, fu, tsumo allowed, ron allowed): every pair validate.py accepts below 5 han.
_SMALL = [(han, fu) for han in range(1, 5) for fu in (20, 25, *range(30, 120, 10))]


def _small_ok(han: int, fu: int, tsumo: bool) -> bool:
    if fu == 20:
        return tsumo and han >= 2
    if fu == 25:
        return han >= (3 if tsumo else 2)
    return True


def _win(
    rng: random.Random, winner: int, rules: Ruleset, *, tsumo: bool, others: list[int]
) -> dict[str, object]:
    roll = rng.random()
    if roll < 0.02:
        k = 2 if rules.double_yakuman and rng.random() < 0.2 else 1
        win: dict[str, object] = {"winner": winner, "yakuman": k}
        if rng.random() < 0.3:
            win["pao"] = rng.choice(others)
        return win
    if roll < 0.12:
        return {"winner": winner, "han": rng.randint(5, 14)}
    han, fu = rng.choice([p for p in _SMALL if _small_ok(*p, tsumo)])
    return {"winner": winner, "han": han, "fu": fu}


def random_hand(rng: random.Random, rules: Ruleset) -> dict[str, object]:
    n = rules.players
    seats = list(range(n))
    riichi = sorted(rng.sample(seats, rng.choice([0, 0, 0, 1, 1, 2])))
    roll = rng.random()
    if roll < 0.45:
        loser = rng.randrange(n)
        others = [s for s in seats if s != loser]
        most = {"headbump": 1, "triple_abortive": 2}.get(rules.multiple_ron, n - 1)
        count = 1 if rng.random() < 0.9 else rng.randint(1, most)
        winners = rng.sample(others, count)
        wins = [
            _win(rng, w, rules, tsumo=False, others=[s for s in seats if s != w]) for w in winners
        ]
        return {"outcome": "ron", "riichi": riichi, "loser": loser, "wins": wins}
    if roll < 0.70:
        w = rng.randrange(n)
        win = _win(rng, w, rules, tsumo=True, others=[s for s in seats if s != w])
        return {"outcome": "tsumo", "riichi": riichi, "wins": [win]}
    tenpai = sorted(set(riichi) | {s for s in seats if rng.random() < 0.4})
    if roll < 0.92:
        return {"outcome": "draw", "riichi": riichi, "tenpai": tenpai}
    if roll < 0.95 and rules.nagashi_mangan:
        nagashi = rng.sample(seats, 1)
        return {"outcome": "nagashi", "riichi": riichi, "tenpai": tenpai, "nagashi": nagashi}
    if roll < 0.97 and rules.abortive_draws != "none":
        return {"outcome": "abortive", "riichi": riichi}
    return {"outcome": "chombo", "riichi": riichi, "offender": rng.randrange(n)}


def random_record(
    rng: random.Random,
    preset: str | None = None,
    max_hands: int = 40,
    overrides: dict[str, object] | None = None,
    signal_rate: float = 0.0,
) -> dict[str, object]:
    """A valid record: hands until the rules end the game, or ``end: "time"`` if cut short.

    With probability ``signal_rate`` one hand is marked ``time_signal`` (EMA 2025 7.4); the
    default 0 draws nothing more from ``rng``, so seeded records are unchanged.
    """
    pid = preset or rng.choice(sorted(PRESETS))
    rules = load_ruleset(pid, overrides)
    hands = [random_hand(rng, rules) for _ in range(rng.randint(1, max_hands))]
    if signal_rate > 0 and rng.random() < signal_rate:
        hands[rng.randrange(len(hands))]["time_signal"] = True  # EMA 2025 7.4
    record: dict[str, object] = {
        "format": RECORD_FORMAT,
        "ruleset": pid,
        "players": [f"p{i}" for i in range(rules.players)],
        "hands": hands,
        "end": "time",
    }
    if overrides:
        record["rules"] = overrides
    if rng.random() < 0.3:
        record["penalties"] = [{"seat": rng.randrange(rules.players), "kind": "score_sheet"}]
    try:
        replay(record)
    except RecordError as exc:  # the rules ended the game earlier: cut the record there
        assert exc.field == "outcome" and exc.hand is not None, exc
        record["hands"] = hands[: exc.hand]
    return record
