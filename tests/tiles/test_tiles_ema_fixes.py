"""What the ``mahjong`` package cannot express for EMA 2025, fixed in the adapter.

Each fix is tested against EMA 2025 and against the library run directly (which must differ,
so the test fails without the fix), and under ``ari-ari`` where the rules differ.
"""

from __future__ import annotations

import pytest
from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig

from scoring.engine.rules import load_ruleset
from scoring.tiles import TileError
from scoring.tiles.adapter import library_options
from scoring.tiles.notation import parse_hand

EAST = 27


def library_only(notation, rules, dora=(), **config):
    """The library's own answer for a closed hand, without the adapter's corrections."""
    hand = parse_hand(notation, red_fives=rules.aka_dora)
    return HandCalculator.estimate_hand_value(
        hand.all_tiles,
        hand.win_tile,
        dora_indicators=list(dora),
        config=HandConfig(options=library_options(rules), **config),
    )


# -- EMA 2025 4.1.1: a pair of both seat and round wind is worth only 2 minipoints ------------

DOUBLE_WIND = "12345m999p789s11z+6m"  # East in the east round, pair of east, ron on 6m


def test_double_wind_pair_is_2_fu_under_ema(score, ema):
    ev = score(DOUBLE_WIND, riichi=True, seat_wind="E", round_wind="E")
    # 30 (concealed ron) + 8 (concealed 999p) + 2 (value pair) = 40.
    assert ev.fu == 40
    assert ("valued_pair", 2) in ev.fu_details
    assert ev.points == 2000
    lib = library_only(DOUBLE_WIND, ema, is_riichi=True, player_wind=EAST, round_wind=EAST)
    assert lib.fu == 50  # the library counts the pair twice


def test_double_wind_pair_is_4_fu_under_ari_ari(score, ari):
    # Ari-Ari 12.2: Renfuu Jantou (double wind pair) is 4 fu.
    ev = score(DOUBLE_WIND, rules=ari, riichi=True, seat_wind="E", round_wind="E")
    assert ev.fu == 50
    assert ("double_valued_pair", 4) in ev.fu_details
    assert ev.points == 2400


def test_double_wind_triplet_still_counts_both_winds(score):
    # EMA 2025 4.3 example 9: a seat-and-round wind triplet is seat wind 1 + round wind 1.
    ev = score("123m456p79s11p111z+8s", seat_wind="E", round_wind="E")
    assert dict(ev.yaku) == {"Yakuhai (seat wind east)": 1, "Yakuhai (round wind east)": 1}


def test_wind_pair_of_seat_only_is_2_fu(score):
    ev = score(DOUBLE_WIND, riichi=True, seat_wind="E", round_wind="S")
    assert ("valued_pair", 2) in ev.fu_details


# -- EMA 2025 4.2.4: Blessing of Man, 5 han, combines with no yaku and no dora ----------------


@pytest.fixture(scope="module")
def ema_renhou(ema):
    # EMA 2025 4.2.4: the preset's "mangan" is Blessing of Man as 5 han that combines with nothing.
    assert ema.renhou == "mangan"
    return ema


PINFU_TANYAO = "234567m345p2355s+4s"  # pinfu, all simples; 5s dora twice with a 4s indicator


def test_blessing_of_man_takes_no_yaku_and_no_dora(score, ema_renhou):
    ev = score(PINFU_TANYAO, rules=ema_renhou, renhou=True, seat_wind="S", dora_indicators=("4s",))
    assert dict(ev.yaku) == {"Renhou": 5}
    assert (ev.han, ev.fu, ev.dora) == (5, None, 0)
    assert ev.payment.limit == "mangan"
    assert ev.points == 8000


def test_library_would_add_yaku_and_dora_to_blessing_of_man(score):
    # The same hand where Blessing of Man combines (renhou "han5"): 5 + 1 + 1 + 2 dora.
    combining = load_ruleset("ema-2025", {"renhou": "han5"})
    ev = score(PINFU_TANYAO, rules=combining, renhou=True, seat_wind="S", dora_indicators=("4s",))
    assert (ev.han, ev.dora) == (9, 2)
    assert ev.points == 16000


def test_blessing_of_man_on_a_hand_with_no_other_yaku(score, ema_renhou):
    ev = score("123m456p79s11p999m+8s", rules=ema_renhou, renhou=True, seat_wind="W")
    assert dict(ev.yaku) == {"Renhou": 5}


def test_hand_worth_more_than_blessing_of_man_scores_its_own_yaku(score, ema_renhou):
    # EMA 2025 4.1: scored to the maximum points. Full flush etc. is baiman without renhou.
    ev = score("123456789m23m55m+1m", rules=ema_renhou, renhou=True, seat_wind="S")
    assert "Renhou" not in dict(ev.yaku)
    assert ev.han == 10
    assert ev.payment.limit == "baiman"


def test_yakuman_on_blessing_of_man_stays_yakuman(score, ema_renhou):
    ev = score("19m19p19s1234566z+7z", rules=ema_renhou, renhou=True, seat_wind="N")
    assert ev.yakuman == 1
    assert dict(ev.yaku) == {"Kokushi Musou": 13}


@pytest.mark.parametrize(
    ("notation", "situation", "message"),
    [
        (PINFU_TANYAO, {"seat_wind": "E"}, "non-dealer"),
        (PINFU_TANYAO, {"seat_wind": "S", "tsumo": True}, "not tsumo"),
        ("234567m2355s+4s 345p", {"seat_wind": "S"}, "no melds"),
        ("234567m345p2355s+6s", {"seat_wind": "S"}, "not a complete hand"),
    ],
)
def test_blessing_of_man_errors(score, ema_renhou, notation, situation, message):
    with pytest.raises(TileError) as err:
        score(notation, rules=ema_renhou, renhou=True, **situation)
    assert message in err.value.message


def test_no_blessing_of_man_under_ari_ari(score, ari):
    # Ari-Ari 10 lists no Renhou.
    with pytest.raises(TileError) as err:
        score(PINFU_TANYAO, rules=ari, renhou=True, seat_wind="S")
    assert err.value.field == "renhou"


# -- EMA 2025 4.2: yakuman are not cumulative -------------------------------------------------

BIG_THREE_ALL_HONOURS = "555666777z111z2z+2z"  # + four concealed triplets, pair wait


def test_yakuman_do_not_stack_under_ema(score, ema):
    ev = score(BIG_THREE_ALL_HONOURS, tsumo=True, seat_wind="S")
    assert set(dict(ev.yaku)) == {"Daisangen", "Tsuu Iisou", "Suu Ankou Tanki"}
    assert ev.yakuman == 1
    assert ev.points == 32000
    lib = library_only(BIG_THREE_ALL_HONOURS, ema, is_tsumo=True, player_wind=EAST + 1)
    assert lib.han == 39  # the library adds them up to a triple yakuman


def test_yakuman_stack_under_ari_ari(score, ari):
    # Ari-Ari 10.7: the pair-wait four concealed triplets is a double yakuman, and they add.
    ev = score(BIG_THREE_ALL_HONOURS, rules=ari, tsumo=True, seat_wind="S")
    assert ev.yakuman == 4
    assert ev.points == 4 * 32000


def test_thirteen_sided_orphans_is_double_only_under_ari_ari(score, ema, ari):
    hand = "19m19p19s1234567z+1m"
    assert score(hand, rules=ema).yakuman == 1
    assert score(hand, rules=ari).yakuman == 2  # Ari-Ari 10.7


# -- EMA 2025 4.1.2 and 4.2: counted han stop at sanbaiman --------------------------------------

FIFTEEN_HAN = "123456789m23m55m+1m"  # full flush, straight, pinfu, iipeiko, riichi, tsumo, dora


def test_counted_han_stop_at_sanbaiman_under_ema(score):
    ev = score(FIFTEEN_HAN, riichi=True, tsumo=True, seat_wind="S", dora_indicators=("4m",))
    assert (ev.han, ev.yakuman) == (15, 0)
    assert ev.payment.limit == "sanbaiman"
    assert ev.points == 24000


def test_counted_han_make_yakuman_under_ari_ari(score, ari):
    # Ari-Ari 9.1 table: 13 han is yakuman.
    ev = score(
        FIFTEEN_HAN, rules=ari, riichi=True, tsumo=True, seat_wind="S", dora_indicators=("4m",)
    )
    assert ev.payment.limit == "yakuman"
    assert ev.points == 32000


def test_library_ranks_with_the_sanbaiman_cap(ema):
    # Decompositions are ranked by the library's own payment, so its cap must match ours.
    lib = library_only(
        FIFTEEN_HAN, ema, dora=[3 * 4], is_tsumo=True, is_riichi=True, player_wind=EAST + 1
    )
    assert lib.han == 15
    assert lib.cost is not None and lib.cost["yaku_level"] == "sanbaiman"


# -- Other differences between the presets ----------------------------------------------------


def test_kiriage_under_ema_but_not_ari_ari(score, ari):
    # EMA 2025 4.1.2: 4 han 30 fu is mangan; Ari-Ari 9.1 table: 7,700.
    hand = "12345678s234m55p+9s"
    assert score(hand, riichi=True, seat_wind="S").points == 8000
    assert score(hand, rules=ari, riichi=True, seat_wind="S").points == 7700


def test_red_fives(score, ari):
    # Ari-Ari 1.3: one red five per suit, each a dora; EMA 2025 1.3 uses none.
    ev = score("234067m234p2355s+4s", rules=ari)
    assert ev.dora == 1
    with pytest.raises(TileError, match="no red fives"):
        score("234067m234p2355s+4s")
