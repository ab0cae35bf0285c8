"""``python -m scoring``: replay a game record, list the rule presets, evaluate a hand, and
write or check the phone's payment table (``paytable``, static/js/paytable.js).

Plain Python (no Django), per formats/game-record.md.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from scoring.engine import PRESETS, RecordError, preset_sources, replay


def _replay(path: str) -> int:
    try:
        if path == "-":
            record = json.load(sys.stdin)
        else:
            with open(path, encoding="utf-8") as fh:
                record = json.load(fh)
    except OSError as exc:
        print(json.dumps({"error": {"hand": None, "field": "", "message": str(exc)}}))
        return 2
    except json.JSONDecodeError as exc:
        err = {"hand": None, "field": "", "message": f"not valid JSON: {exc}"}
        print(json.dumps({"error": err}))
        return 1
    try:
        print(json.dumps(replay(record)))
    except RecordError as exc:
        print(json.dumps({"error": exc.as_dict()}))
        return 1
    return 0


def _rulesets(with_sources: bool) -> int:
    out: dict[str, object] = {}
    for pid, rules in PRESETS.items():
        if with_sources:
            sources = preset_sources(pid)
            out[pid] = {k: {"value": v, "source": sources[k]} for k, v in rules.to_dict().items()}
        else:
            out[pid] = rules.to_dict()
    print(json.dumps(out, indent=2))
    return 0


def _paytable(write: bool) -> int:
    from scoring.engine import paytable

    if write:
        paytable.write()
        print(f"wrote {paytable.JS_PATH}")
        return 0
    if paytable.check():
        print(f"{paytable.JS_PATH} is up to date")
        return 0
    print(
        f"{paytable.JS_PATH} differs from the engine: run python -m scoring paytable --write",
        file=sys.stderr,
    )
    return 1


def main(argv: Sequence[str] | None = None) -> int:
    args_in = list(sys.argv[1:] if argv is None else argv)
    if args_in and args_in[0] == "hand":
        try:
            # The tile evaluator (and its mahjong library) only when the tiles command is asked.
            from scoring.tiles.cli import run
        except ImportError as exc:
            print(f"error: the hand evaluator is not available ({exc})", file=sys.stderr)
            return 2
        return int(run(args_in[1:]) or 0)
    parser = argparse.ArgumentParser(prog="python -m scoring", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    rp = sub.add_parser("replay", help="replay a game record (JSON out)")
    rp.add_argument("file", help="the game record, or - for stdin")
    rs = sub.add_parser("rulesets", help="list the presets with their keys (JSON)")
    rs.add_argument("--sources", action="store_true", help="show where each value comes from")
    sub.add_parser("hand", help="evaluate a hand tile by tile (scoring.tiles)")
    pt = sub.add_parser("paytable", help="check (or --write) the phone's payment table")
    pt.add_argument("--write", action="store_true", help="regenerate static/js/paytable.js")
    args = parser.parse_args(args_in)
    if args.command == "replay":
        return _replay(args.file)
    if args.command == "paytable":
        return _paytable(args.write)
    return _rulesets(args.sources)


if __name__ == "__main__":
    sys.exit(main())
