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
    # WDMC 2019 5.2: the honours are removed and the suits stay whole, so 2m-8m are played
    # and a 1m indicator makes 2m the dora (2.7), not 9m as in sets without 2m-8m.
    ev = score_with(sanma, "222m999m456p13s99p+2s", riichi=True, dora_indicators=("1m",))
    assert ev.dora == 3
    assert (
        score_with(sanma, "111m999m456p13s99p+2s", riichi=True, dora_indicators=("1m",)).dora == 0
    )
    with pytest.raises(TileError, match="no North seat"):
        score_with(sanma, "111m999m456p13s99p+2s", riichi=True, seat_wind="N")
    # WDMC 2019 5.2: no wind tile, so no North tile to set aside for a bonus; an honour
    # indicator cannot be turned over either.
    with pytest.raises(TileError, match=r"WDMC 2019 5\.2") as err:
        score_with(sanma, "111m999m456p13s99p+2s", riichi=True, dora_indicators=("4z",))
    assert err.value.field == "dora_indicators" and "north-tile bonus" in str(err.value)


def test_three_player_full_flush_is_one_han_less():
    """WDMC 2019 5.5: Chinitsu is 4 han open and 5 closed with three players (6/5 with four)."""
    sanma, four = load_ruleset("wdmc-2019-3p"), load_ruleset("wdmc-2019")
    closed = "123456789p1123p+4p"
    assert dict(score_with(sanma, closed).yaku)["Chinitsu"] == 5
    assert dict(score_with(four, closed).yaku)["Chinitsu"] == 6
    opened = "234567p1199p+1p 888p"
    assert dict(score_with(sanma, opened).yaku)["Chinitsu"] == 4
    ev4, ev3 = score_with(four, opened), score_with(sanma, opened)
    assert ev3.han == ev4.han - 1


def test_three_player_red_fives_one_per_suit():
    """WDMC 2019 1.3.1: three red fives, one per suit; 5.1 keeps them with three players
    (5.2 removes only honours), so a red five of each suit counts one dora."""
    sanma = load_ruleset("wdmc-2019-3p")
    ev = score_with(sanma, "0m67m0p67p0s67s234s5s+5s", tsumo=True)
    assert ev.dora == 3
    with pytest.raises(TileError, match="only one per suit"):
        score_with(sanma, "00m5m67p567p567s55s+5p", tsumo=True)


def score_with(rules, notation, **situation):
    return evaluate(notation, rules=rules, situation=Situation(**situation))


def test_winds_by_name_and_the_dealer(score):
    # The seat wind decides who is the dealer (EMA 2025 2.1): 6 x base on ron.
    by_name = score(KANCHAN, riichi=True, seat_wind="east", round_wind="South")
    assert by_name.dealer
    assert by_name.points == score(KANCHAN, riichi=True, seat_wind="E").points == 2000
    assert not score(KANCHAN, riichi=True, seat_wind="w").dealer
