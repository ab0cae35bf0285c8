"""Rulesets as data: every key of the game-record format, validated, with named presets.

The presets themselves (and the rule section each value comes from) live in ``presets.py``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .errors import RulesError, as_int
from .presets import PRESET_SOURCES, PRESET_VALUES

TIE_BREAKS = ("split", "seat")
RESULT_ROUNDINGS = ("none", "tenhou")
HAN_LIMITS = ("kazoe_yakuman", "sanbaiman")
MULTIPLE_RON = ("all", "headbump", "triple_abortive")
MULTI_RON_HONBA = ("each", "first")
MULTI_RON_RIICHI = ("own_back", "first")
LEFTOVER_RIICHI = ("first_place", "lost")
DEALER_STAYS = ("tenpai", "always", "never")
CHOMBO_MODES = ("penalty", "reverse_mangan")
RENHOU = ("none", "mangan", "han5", "yakuman")
SUBSTITUTE_RULES = ("ema", "none")
ABORTIVE_DRAWS = ("none", "repeat", "counter")
AGARI_YAME = ("none", "optional", "auto")
TIME_LIMITS = ("none", "ema")
WEST_SUDDEN_DEATH = ("none", "wdmc")
PAO_RON_HONBA = ("discarder", "liable")


@dataclass(frozen=True)
class Chombo:
    mode: str = "penalty"
    points: int = 20000

    def to_dict(self) -> dict[str, object]:
        return {"mode": self.mode, "points": self.points}


@dataclass(frozen=True)
class Ruleset:
    """Every key of game-record.md plus the extension keys the tile evaluator and penalties use."""

    id: str
    players: int
    start_points: int
    return_points: int
    uma: tuple[int, ...]
    tie_break: str
    result_rounding: str
    riichi_stick: int
    honba_ron: int
    honba_tsumo: int
    noten_total: int
    kiriage: bool
    han_limit: str
    double_yakuman: bool
    multiple_ron: str
    multi_ron_honba: str
    multi_ron_riichi: str
    leftover_riichi: str
    bust: bool
    west_round: bool
    dealer_stays_on_draw: str
    chombo: Chombo
    nagashi_mangan: bool
    aka_dora: int
    # Extension keys (not in the record format; tile evaluation and penalties).
    open_tanyao: bool = True
    renhou: str = "none"
    double_wind_pair_fu: int = 2
    lateness_per_minute: int = 1000
    lateness_max_minutes: int = 10
    score_sheet_penalty: int = 2000
    all_last_sheet_penalty: int = 8000
    substitute_rule: str = "ema"
    substitute_points: int = -15000
    substitute_uma: int = -15000
    abortive_draws: str = "none"  # "none": not in the rules; "repeat": no counter; "counter"
    agari_yame: str = "none"  # the dealer, top in the all-last, may ("optional") or must stop
    # EMA 2025 7.4: "ema": after a hand marked ``time_signal`` one more hand is played (a
    # chombo counts as one), then the game ends by time; "none": the mark is ignored.
    time_limit: str = "none"
    # WDMC 2019 3.7.1 (3.7.2 in the text's numbering): "wdmc": an exhaustive draw in the
    # all-last South hand with the dealer noten leads into West 1, and from then on the game
    # ends as soon as a player other than the dealer wins; "none": not played.
    west_sudden_death: str = "none"
    # Who pays the counters when a liable (pao) player shares a ron with the discarder:
    # "discarder" (EMA 2025 3.3.7) or "liable" (Tenhou, presets.py).
    pao_ron_honba: str = "discarder"
    # An east-only game (tonpuusen, e.g. a Tenhou log whose GO type lacks 0x08): the east round
    # is the last; ``west_round`` then extends it into the south round, as Tenhou does.
    east_only: bool = False

    def to_dict(self) -> dict[str, object]:
        """JSON-able dict with the game-record key names (``id`` excluded)."""
        out: dict[str, object] = {}
        for f in dataclasses.fields(self):
            if f.name == "id":
                continue
            value = getattr(self, f.name)
            if isinstance(value, Chombo):
                out[f.name] = value.to_dict()
            elif isinstance(value, tuple):
                out[f.name] = list(value)
            else:
                out[f.name] = value
        return out


RULE_KEYS: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(Ruleset) if f.name != "id")

_CHOICES: dict[str, tuple[object, ...]] = {
    "players": (3, 4),
    "tie_break": TIE_BREAKS,
    "result_rounding": RESULT_ROUNDINGS,
    "han_limit": HAN_LIMITS,
    "multiple_ron": MULTIPLE_RON,
    "multi_ron_honba": MULTI_RON_HONBA,
    "multi_ron_riichi": MULTI_RON_RIICHI,
    "leftover_riichi": LEFTOVER_RIICHI,
    "dealer_stays_on_draw": DEALER_STAYS,
    "renhou": RENHOU,
    "double_wind_pair_fu": (2, 4),
    "substitute_rule": SUBSTITUTE_RULES,
    "abortive_draws": ABORTIVE_DRAWS,
    "agari_yame": AGARI_YAME,
    "time_limit": TIME_LIMITS,
    "west_sudden_death": WEST_SUDDEN_DEATH,
    "pao_ron_honba": PAO_RON_HONBA,
}
_BOOLS = {
    "kiriage",
    "double_yakuman",
    "bust",
    "west_round",
    "nagashi_mangan",
    "open_tanyao",
    "east_only",
}
_POSITIVE = {"start_points", "return_points"}
_NON_NEGATIVE = {
    "riichi_stick",
    "honba_ron",
    "honba_tsumo",
    "noten_total",
    "aka_dora",
    "lateness_per_minute",
    "lateness_max_minutes",
    "score_sheet_penalty",
    "all_last_sheet_penalty",
}
_NON_POSITIVE = {"substitute_points", "substitute_uma"}


def _coerce(key: str, value: object) -> object:
    """Check one key's value and return it in its Ruleset type; RulesError names the key."""
    field = f"rules.{key}"
    if key in _BOOLS:
        if not isinstance(value, bool):
            raise RulesError(f"{key} must be true or false, not {value!r}", field=field)
        return value
    if key in _CHOICES:
        if value not in _CHOICES[key] or isinstance(value, bool):
            allowed = ", ".join(repr(c) for c in _CHOICES[key])
            raise RulesError(f"{key} must be one of {allowed}, not {value!r}", field=field)
        return value
    if key == "uma":
        if not isinstance(value, (list, tuple)) or not all(as_int(v) is not None for v in value):
            raise RulesError("uma must be a list of integer points", field=field)
        return tuple(value)
    if key == "chombo":
        if not isinstance(value, (Mapping, Chombo)):
            raise RulesError('chombo must be {"mode": ..., "points": ...}', field=field)
        raw = value.to_dict() if isinstance(value, Chombo) else dict(value)
        unknown = set(raw) - {"mode", "points"}
        if unknown:
            raise RulesError(f"unknown chombo key {sorted(unknown)[0]!r}", field=field)
        mode = raw.get("mode", "penalty")
        points = raw.get("points", 20000)
        if mode not in CHOMBO_MODES:
            raise RulesError(f"chombo.mode must be one of {CHOMBO_MODES}", field=f"{field}.mode")
        chombo_points = as_int(points)
        if chombo_points is None or chombo_points < 0:
            raise RulesError(
                "chombo.points must be a non-negative integer", field=f"{field}.points"
            )
        return Chombo(mode=str(mode), points=chombo_points)
    number = as_int(value)
    if number is None:
        raise RulesError(f"{key} must be an integer, not {value!r}", field=field)
    if key in _POSITIVE and number <= 0:
        raise RulesError(f"{key} must be positive", field=field)
    if key in _NON_NEGATIVE and number < 0:
        raise RulesError(f"{key} must not be negative", field=field)
    if key in _NON_POSITIVE and number > 0:
        raise RulesError(f"{key} must not be positive", field=field)
    return number


def _check_whole(rules: Ruleset) -> None:
    """Cross-key checks: uma has one entry per player and sums to zero (results stay zero-sum)."""
    if len(rules.uma) != rules.players:
        raise RulesError(
            f"uma needs {rules.players} entries, got {len(rules.uma)}", field="rules.uma"
        )
    if sum(rules.uma) != 0:
        raise RulesError("uma must sum to zero", field="rules.uma")
    if rules.return_points < rules.start_points:
        raise RulesError(
            "return_points must not be below start_points", field="rules.return_points"
        )
    if any(rules.noten_total % n for n in range(1, rules.players)):
        raise RulesError(
            "noten_total must split evenly among the tenpai and noten players",
            field="rules.noten_total",
        )
    if rules.aka_dora > 4:
        raise RulesError("aka_dora counts red fives per suit: at most 4", field="rules.aka_dora")


def make_ruleset(ruleset_id: str, values: Mapping[str, object]) -> Ruleset:
    """Build and validate a Ruleset from game-record keys (every key must be present)."""
    unknown = [k for k in values if k not in RULE_KEYS]
    if unknown:
        raise RulesError(f"unknown rules key {unknown[0]!r}", field=f"rules.{unknown[0]}")
    missing = [k for k in RULE_KEYS if k not in values]
    if missing:
        raise RulesError(f"missing rules key {missing[0]!r}", field=f"rules.{missing[0]}")
    kwargs: dict[str, Any] = {k: _coerce(k, values[k]) for k in RULE_KEYS}
    rules = Ruleset(id=ruleset_id, **kwargs)
    _check_whole(rules)
    return rules


def load_ruleset(preset: str, overrides: Mapping[str, object] | None = None) -> Ruleset:
    """The preset with ``overrides`` applied; an unknown preset, key or bad value is RulesError."""
    if not isinstance(preset, str) or preset not in PRESET_VALUES:
        known = ", ".join(sorted(PRESET_VALUES))
        raise RulesError(f"unknown ruleset {preset!r} (known: {known})", field="ruleset")
    if overrides is not None and not isinstance(overrides, Mapping):
        raise RulesError("rules must be an object of overrides", field="rules")
    values = dict(PRESET_VALUES[preset])
    for key, value in (overrides or {}).items():
        if key not in RULE_KEYS:
            raise RulesError(f"unknown rules key {key!r}", field=f"rules.{key}")
        values[key] = value
    if overrides:
        return make_ruleset(preset, values)
    return PRESETS[preset]


def preset_sources(preset: str) -> dict[str, str]:
    """Key -> where the preset's value comes from ("EMA 2025 3.7.1" or "chosen: ...")."""
    if preset not in PRESET_SOURCES:
        raise RulesError(f"unknown ruleset {preset!r}", field="ruleset")
    return dict(PRESET_SOURCES[preset])


PRESETS: dict[str, Ruleset] = {pid: make_ruleset(pid, v) for pid, v in PRESET_VALUES.items()}
