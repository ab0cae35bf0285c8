"""What every online log becomes, and the check of our engine against the site's points."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from scoring.engine import RecordError, load_ruleset, replay


class LogError(ValueError):
    """A log that is broken or not supported; ``hand`` is the 0-based hand when known."""

    def __init__(self, message: str, *, hand: int | None = None) -> None:
        super().__init__(message if hand is None else f"hand {hand + 1}: {message}")
        self.message = message
        self.hand = hand


@dataclass
class OnlineGame:
    """A parsed online game.

    ``record`` is a game record whose ``players`` are the site's names (seat 0 = the
    starting East); ``site_scores[i]`` the scores the site shows after hand ``i``;
    ``site_final`` the final scores (leftover riichi sticks included) and ``site_result``
    the final results in points, where the log has them.
    """

    site: str  # "tenhou" | "mahjongsoul"
    names: list[str]
    record: dict[str, Any]
    site_scores: list[list[int]] = field(default_factory=list)
    site_final: list[int] | None = None
    site_result: list[int] | None = None
    log_id: str = ""


def compare(game: OnlineGame) -> dict[str, Any]:
    """Replay the record with our engine and compare it with what the site paid.

    Returns ``{"hands": n, "matching": m, "mismatches": [...], "final": {...} | None,
    "ok": bool, "rules": {...}}``; a mismatch names the hand (1-based), its round and both
    score lists; ``rules`` are the record's overrides of its preset that the log stated
    (start points, red fives, ...), so a reader sees what was replayed. A record our engine
    rejects is one mismatch with the engine's error.
    """
    rules = dict(game.record.get("rules") or {})
    try:
        out = replay(game.record)
    except RecordError as exc:
        return {
            "hands": len(game.record.get("hands", [])),
            "matching": 0,
            "mismatches": [
                {
                    "hand": (exc.hand + 1) if exc.hand is not None else None,
                    "field": exc.field,
                    "error": exc.message,
                }
            ],
            "final": None,
            "ok": False,
            "rules": rules,
        }
    mismatches: list[dict[str, Any]] = []
    matching = 0
    for i, (ours, site) in enumerate(zip(out["hands"], game.site_scores, strict=False)):
        if list(ours["scores"]) == list(site):
            matching += 1
        else:
            mismatches.append(
                {
                    "hand": i + 1,
                    "round": ours["round"],
                    "honba": ours["honba"],
                    "ours": list(ours["scores"]),
                    "site": list(site),
                }
            )
    final: dict[str, Any] | None = None
    ours_final = out.get("final")
    if isinstance(ours_final, dict):
        final = {"scores": list(ours_final["scores"]), "result": list(ours_final["result"])}
        if game.site_final is not None and list(game.site_final) != final["scores"]:
            mismatches.append(
                {
                    "hand": None,
                    "what": "final scores",
                    "ours": final["scores"],
                    "site": list(game.site_final),
                }
            )
        if game.site_result is not None and list(game.site_result) != final["result"]:
            mismatches.append(
                {
                    "hand": None,
                    "what": "final result",
                    "ours": final["result"],
                    "site": list(game.site_result),
                }
            )
    elif game.site_final is not None:
        mismatches.append(
            {
                "hand": None,
                "what": "end of game",
                "error": "the site ended the game here; our rules have not ended it",
            }
        )
    return {
        "hands": len(out["hands"]),
        "matching": matching,
        "mismatches": mismatches,
        "final": final,
        "ok": not mismatches,
        "rules": rules,
    }


def compare_paid(game: OnlineGame, *, ruleset: str, rules: dict[str, Any]) -> dict[str, Any]:
    """Replay the log's hands under other rules (a tournament's) and compare, hand by hand,
    what each seat was paid with what the site paid (issue 32.5).

    The scores themselves cannot be compared when the start points differ, the payments can:
    a hand whose payments differ (kiriage, honba, riichi sticks, a limit the rules count
    otherwise) is a mismatch naming the hand, its round and both payment lists. ``over`` says
    whether our rules ended the game; ``final`` holds our and the site's final figures side by
    side (uma and oka are the rules' own, never a mismatch). RecordError when our rules cannot
    play a hand of the log (raised: such a log is refused, not imported).
    """
    record = {**game.record, "ruleset": ruleset, "rules": dict(rules)}
    out = replay(record)
    ours_prev = [load_ruleset(ruleset, rules or None).start_points] * len(game.names)
    site_rules = game.record.get("rules") or None
    site_prev = [load_ruleset(str(game.record["ruleset"]), site_rules).start_points] * len(
        game.names
    )
    mismatches: list[dict[str, Any]] = []
    matching = 0
    for i, (ours, site) in enumerate(zip(out["hands"], game.site_scores, strict=False)):
        ours_paid = [a - b for a, b in zip(ours["scores"], ours_prev, strict=True)]
        site_paid = [a - b for a, b in zip(site, site_prev, strict=True)]
        ours_prev, site_prev = list(ours["scores"]), list(site)
        if ours_paid == site_paid:
            matching += 1
        else:
            mismatches.append(
                {
                    "hand": i + 1,
                    "round": ours["round"],
                    "honba": ours["honba"],
                    "ours": ours_paid,
                    "site": site_paid,
                }
            )
    final = out.get("final")
    over = isinstance(final, dict)
    if game.site_final is not None and not over:
        mismatches.append(
            {
                "hand": None,
                "what": "end of game",
                "error": "the site ended the game here; our rules have not ended it",
            }
        )
    return {
        "hands": len(out["hands"]),
        "matching": matching,
        "mismatches": mismatches,
        "ok": not mismatches,
        "over": over,
        "final": {
            "ours": (
                {"scores": list(final["scores"]), "result": list(final["result"])}
                if isinstance(final, dict)
                else None
            ),
            "site": {"scores": game.site_final, "result": game.site_result},
        },
        "rules": {"ruleset": ruleset, "rules": dict(rules)},
        "site_rules": {"ruleset": game.record["ruleset"], "rules": dict(site_rules or {})},
    }
