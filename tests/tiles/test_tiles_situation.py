"""Situational flags, winds and indicators: what they add and which combinations are refused."""

from __future__ import annotations

import pytest

from scoring.engine.rules import load_ruleset
from scoring.tiles import Situation, TileError, evaluate

KANCHAN = "123m456p789s13s99p+2s"  # closed, no yaku of its own


def test_dora_ura_and_kan_dora(score):
    # EMA 2025 4.1: a tile indicated twice is two dora; ura-dora count with riichi.
    ev = score(KANCHAN, riichi=True, dora_indicators=("8p", "8p"), ura_indicators=("1s",))
    assert ev.dora == 2 * 2 + 1
    assert ev.han == 1 + 5


@pytest.mark.parametrize(
    ("situation", "field"),
    [
        ({"riichi": False, "ura_indicators": ("1s",)}, "ura_indicators"),
        ({"ippatsu": True}, "ippatsu"),
        ({"rinshan": True, "tsumo": True}, "rinshan"),
        ({"chankan": True, "tsumo": True}, "chankan"),
        ({"haitei": True}, "haitei"),
        ({"houtei": True, "tsumo": True}, "houtei"),
        ({"tenhou": True, "tsumo": True, "seat_wind": "S"}, "tenhou"),
        ({"chiihou": True, "tsumo": True, "seat_wind": "E"}, "chiihou"),
        ({"seat_wind": "X"}, "seat_wind"),
        ({"round_wind": ""}, "round_wind"),
        ({"dora_indicators": ("123456m",)}, "dora_indicators"),
    ],
)
def test_contradictions_name_the_field(score, situation, field):
    with pytest.raises(TileError) as err:
        score(KANCHAN, **situation)
    assert err.value.field == field


def test_riichi_with_open_melds(score):
    with pytest.raises(TileError) as err:
        score("456p789s13s99p+2s 123m", riichi=True)
    assert err.value.field == "riichi"


def test_no_yaku_and_not_complete(score):
    with pytest.raises(TileError, match="no yaku"):
        score(KANCHAN)
    with pytest.raises(TileError, match="not a complete hand"):
        score("123m456p789s13s99p+4s", riichi=True)


def test_double_riichi_does_not_add_riichi(score):
    # EMA 2025 4.2.2: Double Riichi does not combine with Riichi.
    ev = score(KANCHAN, riichi=True, double_riichi=True)
    assert dict(ev.yaku) == {"Double Riichi": 2}


def test_three_player_hand():
    sanma = load_ruleset("wdmc-2019-3p")
    # In three-player games a 1m indicator makes 9m the dora.
    ev = score_with(sanma, "111m999m456p13s99p+2s", riichi=True, dora_indicators=("1m",))
    assert ev.dora == 3
    with pytest.raises(TileError, match="no North seat"):
        score_with(sanma, "111m999m456p13s99p+2s", riichi=True, seat_wind="N")


def score_with(rules, notation, **situation):
    return evaluate(notation, rules=rules, situation=Situation(**situation))


def test_winds_by_name_and_the_dealer(score):
    # The seat wind decides who is the dealer (EMA 2025 2.1): 6 x base on ron.
    by_name = score(KANCHAN, riichi=True, seat_wind="east", round_wind="South")
    assert by_name.dealer
    assert by_name.points == score(KANCHAN, riichi=True, seat_wind="E").points == 2000
    assert not score(KANCHAN, riichi=True, seat_wind="w").dealer
