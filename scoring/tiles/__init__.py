"""Tile-level hand evaluation and the referee cross-check (plain Python, no Django).

A referee may type the winning hand's tiles instead of, or besides, han and fu::

    from scoring.engine.rules import load_ruleset
    from scoring.tiles import Situation, cross_check, evaluate

    ev = evaluate("234567m234p2355s+1s", rules=load_ruleset("ema-2025"),
                  situation=Situation(riichi=True, tsumo=True, seat_wind="S"))
    ev.han, ev.fu, ev.yaku, ev.payment         # 3 han 20 fu: riichi, tsumo, pinfu
    cross_check(ev, han=3, fu=30)              # ["fu: entered 30, the tiles give 20", ...]

Notation (full text in docs/tile-notation.md):

- A tile is a digit and its suit: ``m`` characters, ``p`` circles, ``s`` bamboo, ``z``
  honours ``1z``-``7z`` = east, south, west, north, white, green, red dragon. Digits of one
  suit share the letter: ``123m456p77z``. ``0`` is a red five (``0m``, ``0p``, ``0s``).
- The hand is: concealed tiles, ``+``, the winning tile; then each meld after a space or
  comma. A plain meld is open (``123m`` chi, ``555p`` pon, ``7777z`` open quad); a
  concealed quad is in brackets (``[1111s]``).
  ``"234567m234p2355s+1s"``, ``"5z+5z 123m 789p 666z [1111s]"``.
- The concealed tiles number 13 less 3 per meld (a quad counts as 3).
- Indicators (``Situation.dora_indicators``, ``ura_indicators``) are tiles in the same
  notation; winds are ``E``, ``S``, ``W``, ``N``. The winner is the dealer when the seat
  wind is ``E``.

Yaku carry the library's romaji names (``ev.yaku``); ``ema_name("Menzen Tsumo")`` gives the
EMA 2025 rule book's English name (``"Fully Concealed Hand"``), and ``ev.to_dict()`` lists
each yaku as ``{"name", "ema_name", "han"}``.

Errors are ``TileError(field, message)``: not a complete hand, no yaku, five of a tile,
wrong tile count, invalid meld, and situations that contradict each other or the tiles.
Command line: ``python -m scoring hand "<notation>" --ruleset ema-2025 --riichi --tsumo``.
"""

from .adapter import Evaluation, Situation, evaluate
from .crosscheck import cross_check
from .errors import TileError
from .names import ema_name

__all__ = ["Evaluation", "Situation", "TileError", "cross_check", "ema_name", "evaluate"]
