"""Helpers for the engine tests: build records and replay them."""

from __future__ import annotations

from typing import Any

from scoring.engine import replay


def record(
    ruleset: str = "ema-2025", hands: list[dict[str, Any]] | None = None, **top: Any
) -> dict[str, Any]:
    players = 3 if ruleset.endswith("-3p") or top.get("rules", {}).get("players") == 3 else 4
    return {
        "format": "riichi-game-record/1",
        "ruleset": ruleset,
        "players": [f"p{i}" for i in range(players)],
        "hands": hands or [],
        **top,
    }


def ron(loser: int, *wins: dict[str, Any], riichi: list[int] | None = None) -> dict[str, Any]:
    return {"outcome": "ron", "riichi": riichi or [], "loser": loser, "wins": list(wins)}


def tsumo(win: dict[str, Any], riichi: list[int] | None = None) -> dict[str, Any]:
    return {"outcome": "tsumo", "riichi": riichi or [], "wins": [win]}


def draw(tenpai: list[int], riichi: list[int] | None = None) -> dict[str, Any]:
    return {"outcome": "draw", "riichi": riichi or [], "tenpai": tenpai}


def win(winner: int, han: int = 1, fu: int | None = 30, **extra: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"winner": winner, "han": han, **extra}
    if fu is not None:
        out["fu"] = fu
    return out


def deltas(ruleset: str, *hands: dict[str, Any], **top: Any) -> list[list[int]]:
    """The deltas of every hand of a record."""
    out = replay(record(ruleset, list(hands), **top))
    return [h["deltas"] for h in out["hands"]]


def last(ruleset: str, *hands: dict[str, Any], **top: Any) -> dict[str, Any]:
    """The replay entry of the last hand."""
    entry: dict[str, Any] = replay(record(ruleset, list(hands), **top))["hands"][-1]
    return entry
