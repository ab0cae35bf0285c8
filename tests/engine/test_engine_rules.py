"""Rulesets as data: presets, sources, overrides (formats/game-record.md "Rules keys")."""

from __future__ import annotations

import pytest

from scoring.engine import PRESETS, RulesError, load_ruleset, preset_sources
from scoring.engine.rules import RULE_KEYS

RECORD_KEYS = {
    "players",
    "start_points",
    "return_points",
    "uma",
    "tie_break",
    "result_rounding",
    "riichi_stick",
    "honba_ron",
    "honba_tsumo",
    "noten_total",
    "kiriage",
    "han_limit",
    "double_yakuman",
    "multiple_ron",
    "multi_ron_honba",
    "multi_ron_riichi",
    "leftover_riichi",
    "bust",
    "west_round",
    "dealer_stays_on_draw",
    "chombo",
    "nagashi_mangan",
    "aka_dora",
}


def test_every_record_key_in_every_preset() -> None:
    assert set(PRESETS) == {
        "ema-2025",
        "wdmc-2019",
        "wdmc-2019-3p",
        "ari-ari",
        "san-diego",
        "wrc-2025",
        "tenhou",
    }
    for rules in PRESETS.values():
        assert set(rules.to_dict()) >= RECORD_KEYS


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_key_cites_a_source(preset: str) -> None:
    sources = preset_sources(preset)
    assert set(sources) == set(RULE_KEYS)
    for key, source in sources.items():
        assert source.strip(), key
        assert any(
            tag in source
            for tag in (
                "EMA",
                "WDMC",
                "Ari-Ari",
                "San Diego",
                "game-record.md",
                "chosen:",
                "Tenhou:",
            )
        ), (key, source)


def test_ema_preset_matches_the_format_example() -> None:
    """game-record.md "Rules keys": the EMA 2025 column."""
    ema = load_ruleset("ema-2025").to_dict()
    assert ema["uma"] == [15000, 5000, -5000, -15000]
    assert ema["chombo"] == {"mode": "penalty", "points": 20000}
    assert (ema["han_limit"], ema["multiple_ron"], ema["bust"]) == ("sanbaiman", "all", False)


def test_ari_ari_preset() -> None:
    """Ari-Ari 4.2 and 9.2: 25,000 start, 30,000 return, uma 30/10, oka 20."""
    aa = PRESETS["ari-ari"]
    assert (aa.start_points, aa.return_points, aa.uma) == (
        25000,
        30000,
        (30000, 10000, -10000, -30000),
    )


def test_override_applies() -> None:
    rules = load_ruleset("ema-2025", {"uma": [20000, 10000, -10000, -20000], "bust": True})
    assert rules.uma == (20000, 10000, -10000, -20000) and rules.bust
    assert PRESETS["ema-2025"].uma == (15000, 5000, -5000, -15000)


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        ({"nope": 1}, "rules.nope"),
        ({"uma": [15000, 5000, -5000]}, "rules.uma"),
        ({"uma": [15000, 5000, -5000, -5000]}, "rules.uma"),  # must sum to zero
        ({"players": 5}, "rules.players"),
        ({"start_points": "30000"}, "rules.start_points"),
        ({"riichi_stick": -1}, "rules.riichi_stick"),
        ({"bust": 1}, "rules.bust"),
        ({"chombo": {"mode": "fine"}}, "rules.chombo.mode"),
        ({"chombo": {"points": -5}}, "rules.chombo.points"),
        ({"noten_total": 1000}, "rules.noten_total"),
        ({"return_points": 20000}, "rules.return_points"),
        ({"han_limit": "yakuman"}, "rules.han_limit"),
    ],
)
def test_bad_override(overrides: dict[str, object], field: str) -> None:
    with pytest.raises(RulesError) as err:
        load_ruleset("ema-2025", overrides)
    assert err.value.field == field and err.value.hand is None


def test_unknown_preset() -> None:
    with pytest.raises(RulesError) as err:
        load_ruleset("mleague")
    assert err.value.field == "ruleset"


def test_tile_evaluator_extension_keys() -> None:
    """Ari-Ari 12.2 (double wind pair 4 fu), 1.3 (red fives); WDMC 2019 4.1.7.14 and
    EMA 2025 4.2.4 (renhou); EMA 2025 1.3 (no red fives)."""
    aa, wd, ema = PRESETS["ari-ari"], PRESETS["wdmc-2019"], PRESETS["ema-2025"]
    assert (aa.double_wind_pair_fu, aa.aka_dora) == (4, 1)
    assert (ema.double_wind_pair_fu, ema.aka_dora, ema.renhou) == (2, 0, "mangan")
    assert wd.renhou == "yakuman" and wd.open_tanyao


def test_three_player_preset() -> None:
    """WDMC 2019 5.4: three players, 2,000 noten pool, 200 per counter."""
    r3 = PRESETS["wdmc-2019-3p"]
    assert (r3.players, r3.noten_total, r3.honba_ron, len(r3.uma)) == (3, 2000, 200, 3)
