"""``python -m scoring hand "<notation>" --ruleset ema-2025 [flags]``: print the hand as JSON.

Each yaku is printed as ``{"name", "ema_name", "han"}``: the library's romaji name and the
EMA 2025 rule book's English name (scoring/tiles/names.py). The engine's
``scoring/__main__.py`` calls ``run(sys.argv[2:])``. Errors print
``{"error": {"field": ..., "message": ...}}`` and return 1.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import NoReturn

from scoring.engine.errors import RulesError
from scoring.engine.rules import load_ruleset

from .adapter import Situation, evaluate
from .crosscheck import cross_check
from .errors import TileError

FLAGS = (
    ("tsumo", "won by self-draw (default: by discard)"),
    ("riichi", "riichi declared"),
    ("ippatsu", "won within one set of turns after riichi"),
    ("rinshan", "won on the replacement tile after a quad"),
    ("chankan", "won by robbing a quad"),
    ("haitei", "self-drawn on the last tile of the wall"),
    ("houtei", "won on the last discard"),
    ("double-riichi", "riichi declared in the first set of turns"),
    ("tenhou", "blessing of heaven"),
    ("chiihou", "blessing of earth"),
    ("renhou", "blessing of man"),
)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise TileError("arguments", message)


def _parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog="python -m scoring hand",
        description="Yaku, han, fu and payment of a winning hand (docs/tile-notation.md).",
    )
    p.add_argument("notation", help='e.g. "234567m234p2355s+1s" or "5z+5z 123m 789p 666z [1111s]"')
    p.add_argument("--ruleset", default="ema-2025", help="preset id (default ema-2025)")
    p.add_argument("--rules", default=None, help="JSON overrides, e.g. '{\"kiriage\": false}'")
    for name, help_text in FLAGS:
        p.add_argument(f"--{name}", action="store_true", help=help_text)
    p.add_argument("--dora", default="", help="dora indicators, e.g. 4p1z")
    p.add_argument("--ura", default="", help="ura-dora indicators (riichi only)")
    p.add_argument("--seat", default="E", help="seat wind E/S/W/N (default E: the dealer)")
    p.add_argument("--round", default="E", help="round wind E/S/W/N (default E)")
    p.add_argument("--han", type=int, default=None, help="entered han, to cross-check")
    p.add_argument("--fu", type=int, default=None, help="entered fu, to cross-check")
    p.add_argument("--yakuman", type=int, default=0, help="entered yakuman, to cross-check")
    return p


def _print(payload: object) -> None:
    sys.stdout.write(json.dumps(payload, indent=2) + "\n")


def run(argv: list[str]) -> int:
    try:
        args = _parser().parse_args(argv)
    except SystemExit as stop:  # --help
        return int(stop.code or 0)
    except TileError as exc:
        _print({"error": exc.as_dict()})
        return 1
    try:
        overrides = json.loads(args.rules) if args.rules else None
        rules = load_ruleset(args.ruleset, overrides)
        situation = Situation(
            tsumo=args.tsumo,
            riichi=args.riichi,
            ippatsu=args.ippatsu,
            rinshan=args.rinshan,
            chankan=args.chankan,
            haitei=args.haitei,
            houtei=args.houtei,
            double_riichi=args.double_riichi,
            tenhou=args.tenhou,
            chiihou=args.chiihou,
            renhou=args.renhou,
            dora_indicators=(args.dora,) if args.dora else (),
            ura_indicators=(args.ura,) if args.ura else (),
            seat_wind=args.seat,
            round_wind=args.round,
        )
        result = evaluate(args.notation, rules=rules, situation=situation)
    except json.JSONDecodeError as exc:
        _print({"error": {"field": "rules", "message": f"--rules is not JSON: {exc}"}})
        return 1
    except RulesError as exc:
        _print({"error": {"field": exc.field, "message": exc.message}})
        return 1
    except TileError as exc:
        _print({"error": exc.as_dict()})
        return 1
    out = {"ruleset": rules.id, **result.to_dict()}
    if args.han is not None or args.yakuman:
        out["check"] = cross_check(result, han=args.han, fu=args.fu, yakuman=args.yakuman)
    _print(out)
    return 0
