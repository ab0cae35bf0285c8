"""The cached engine output of a game (`Game.summary`), read through one typed view.

`Game.summary` is JSON (the engine's `replay`: `hands`, `final`, `next`, `ended_by`), rebuilt on
every write. Readers use `GameSummary.of(game.summary)` instead of string keys, so a change of
the shape is found by mypy in one place.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class GameSummary:
    """`hands`: one replayed hand each (round, honba, dealer, scores, deltas...); `final`: the
    results once the rules or a finalize ended the game (result, rank, scores...), else None;
    `next`: the next hand's round and dealer, None once the rules ended the game."""

    hands: list[dict[str, Any]]
    final: dict[str, Any] | None
    next: dict[str, Any] | None
    ended_by: str | None
    over: bool  # the rules ended the game (`next` is None)

    @classmethod
    def of(cls, raw: Mapping[str, Any] | None) -> GameSummary:
        """The summary of `raw` (a `Game.summary`); an empty one for None or an empty dict."""
        raw = raw if isinstance(raw, Mapping) else {}
        final = raw.get("final")
        nxt = raw.get("next")
        return cls(
            hands=list(raw.get("hands") or []),
            final=dict(final) if isinstance(final, Mapping) else None,
            next=dict(nxt) if isinstance(nxt, Mapping) else None,
            ended_by=raw.get("ended_by"),
            over=bool(raw) and "next" in raw and nxt is None,
        )

    @property
    def result(self) -> list[Any]:
        """Each seat's result after uma and penalties (empty before the game ended)."""
        return list((self.final or {}).get("result") or [])

    @property
    def rank(self) -> list[Any]:
        """Each seat's place (empty before the game ended)."""
        return list((self.final or {}).get("rank") or [])
