"""``python -m scoring hand ...`` through ``scoring.tiles.cli.run``."""

from __future__ import annotations

import json

from scoring.tiles.cli import run


def test_prints_the_hand_as_json(capsys):
    code = run(
        ["12345678s234m55p+9s", "--ruleset", "ema-2025", "--riichi", "--tsumo", "--seat", "S"]
    )
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    assert (out["han"], out["fu"], out["limit"]) == (5, 20, "mangan")
    assert {y["name"] for y in out["yaku"]} == {"Riichi", "Menzen Tsumo", "Pinfu", "Ittsu"}
    assert out["payment"]["total"] == 8000


def test_cross_check_from_the_command_line(capsys):
    code = run(["12345678s234m55p+9s", "--riichi", "--seat", "S", "--han", "3", "--fu", "30"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    assert out["check"][0] == "han: entered 3, the tiles give 4"


def test_error_is_json_and_exit_1(capsys):
    code = run(["123m456p789s13s99p+2s"])
    out = json.loads(capsys.readouterr().out)
    assert code == 1
    assert out["error"]["field"] == "tiles"
    assert out["error"]["message"].startswith("no yaku")


def test_bad_ruleset_and_bad_flag(capsys):
    assert run(["123m456p789s13s99p+2s", "--ruleset", "nope"]) == 1
    assert json.loads(capsys.readouterr().out)["error"]["field"] == "ruleset"
    assert run(["123m456p789s13s99p+2s", "--bogus"]) == 1
    assert json.loads(capsys.readouterr().out)["error"]["field"] == "arguments"


def test_rules_overrides(capsys):
    # EMA example 2 without kiriage: 4 han 30 fu is 7,700.
    code = run(["12345678s234m55p+9s", "--riichi", "--seat", "S", "--rules", '{"kiriage": false}'])
    assert code == 0
    assert json.loads(capsys.readouterr().out)["payment"]["total"] == 7700
