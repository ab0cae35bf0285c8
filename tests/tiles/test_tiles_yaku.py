"""Every yaku of the EMA 2025 list (4.2.1-4.2.6) from tiles, with its han closed and open.

Each hand is built so that the yaku under test is the only one (or, for a yakuman, the
only yakuman); seat and round wind default to East.
"""

from __future__ import annotations

from typing import Any

import pytest

CASES: list[tuple[str, str, dict[str, Any], dict[str, int]]] = [
    # 4.2.1 One han yaku
    ("riichi", "123m456p789s13s99p+2s", {"riichi": True}, {"Riichi": 1}),
    (
        "ippatsu",
        "123m456p789s13s99p+2s",
        {"riichi": True, "ippatsu": True},
        {"Riichi": 1, "Ippatsu": 1},
    ),
    ("menzen tsumo", "123m456p789s13s99p+2s", {"tsumo": True}, {"Menzen Tsumo": 1}),
    ("pinfu", "123m456p789s23s99p+1s", {}, {"Pinfu": 1}),
    ("iipeiko", "112233m456p79s99p+8s", {}, {"Iipeiko": 1}),
    ("tanyao closed", "234m456p678s35s88p+4s", {}, {"Tanyao": 1}),
    ("tanyao open", "234m678s35s88p+4s 456p", {}, {"Tanyao": 1}),
    ("dragon triplet", "123m456p79s11p555z+8s", {}, {"Yakuhai (haku)": 1}),
    (
        "seat wind triplet",
        "123m456p79s11p222z+8s",
        {"seat_wind": "S"},
        {"Yakuhai (seat wind south)": 1},
    ),
    (
        "round wind triplet",
        "123m456p79s11p222z+8s",
        {"seat_wind": "W", "round_wind": "S"},
        {"Yakuhai (round wind south)": 1},
    ),
    (
        "rinshan",
        "345m456p79s11p+8s [2222m]",
        {"tsumo": True, "rinshan": True},
        {"Menzen Tsumo": 1, "Rinshan Kaihou": 1},
    ),
    ("chankan", "123m456p79s11p999m+8s", {"chankan": True}, {"Chankan": 1}),
    (
        "haitei",
        "123m456p79s11p999m+8s",
        {"tsumo": True, "haitei": True},
        {"Menzen Tsumo": 1, "Haitei Raoyue": 1},
    ),
    ("houtei", "123m456p79s11p999m+8s", {"houtei": True}, {"Houtei Raoyui": 1}),
    # 4.2.2 Two han yaku (one han less when open where the rule says so)
    ("double riichi", "123m456p79s11p999m+8s", {"double_riichi": True}, {"Double Riichi": 2}),
    ("chiitoitsu", "1199m2288p66s77z4s+4s", {}, {"Chiitoitsu": 2}),
    ("sanshoku closed", "456m45556p45679s+8s", {}, {"Sanshoku Doujun": 2}),
    ("sanshoku open", "45556p45679s+8s 456m", {}, {"Sanshoku Doujun": 1}),
    ("ittsu closed", "123456789m79s11p+8s", {}, {"Ittsu": 2}),
    ("ittsu open", "456789m79s11p+8s 123m", {}, {"Ittsu": 1}),
    ("chanta closed", "123m789p79999s44z+8s", {"seat_wind": "S"}, {"Chantai": 2}),
    ("chanta open", "789p79999s44z+8s 123m", {"seat_wind": "S"}, {"Chantai": 1}),
    ("sanshoku douko", "222m22255p78s+9s 222s", {}, {"Sanshoku Doukou": 2}),
    ("sanankou", "111m22555p79999s+8s", {}, {"San Ankou": 2}),
    ("sankantsu", "678m5p+5p 2222m 3333p 4444s", {}, {"San Kantsu": 2, "Tanyao": 1}),
    ("toitoi", "555p999s1144z+4z 222m", {"seat_wind": "S"}, {"Toitoi": 2}),
    (
        "shousangen",
        "123m45p55566677z+6p",
        {},
        {"Shou Sangen": 2, "Yakuhai (haku)": 1, "Yakuhai (hatsu)": 1},
    ),
    ("honroutou", "111m999p1122z+2z 999s", {"seat_wind": "W"}, {"Honroutou": 2, "Toitoi": 2}),
    # 4.2.3 Three han yaku
    ("ryanpeikou", "223344m556677p7z+7z", {"tsumo": True}, {"Ryanpeikou": 3, "Menzen Tsumo": 1}),
    ("honitsu closed", "23456779p11444z+8p", {"seat_wind": "S"}, {"Honitsu": 3}),
    ("honitsu open", "56779p11444z+8p 234p", {"seat_wind": "S"}, {"Honitsu": 2}),
    ("junchan closed", "123789m12379p99s+8p", {}, {"Junchan": 3}),
    ("junchan open", "789m12379p99s+8p 123m", {}, {"Junchan": 2}),
    # 4.2.5 Six han yaku
    (
        "chinitsu closed",
        "123456789m23m55m+1m",
        {},
        {"Chinitsu": 6, "Ittsu": 2, "Iipeiko": 1, "Pinfu": 1},
    ),
    ("chinitsu open", "45678m99m+9m 123m 456m", {}, {"Chinitsu": 5, "Ittsu": 1}),
]

YAKUMAN: list[tuple[str, str, dict[str, Any], str]] = [
    # 4.2.6 Yakuman
    ("kokushi", "19m19p19s1234566z+7z", {}, "Kokushi Musou"),
    ("kokushi thirteen-sided", "19m19p19s1234567z+1m", {}, "Kokushi Musou Juusanmen Matchi"),
    ("chuuren", "1112345678899m+9m", {}, "Chuuren Poutou"),
    ("chuuren nine-sided", "1112345678999m+5m", {}, "Daburu Chuuren Poutou"),
    ("tenhou", "123m456p789s23s99p+1s", {"tenhou": True, "tsumo": True}, "Tenhou"),
    (
        "chiihou",
        "123m456p789s23s99p+1s",
        {"chiihou": True, "tsumo": True, "seat_wind": "S"},
        "Chiihou",
    ),
    ("suuankou", "111m999p222s88s11z+8s", {"tsumo": True}, "Suu Ankou"),
    ("suuankou pair wait", "111m999p222s888s1z+1z", {}, "Suu Ankou Tanki"),
    ("suukantsu", "1z+1z 2222m 3333p 4444s 5555s", {}, "Suu Kantsu"),
    ("ryuuiisou", "22334466688s66z+8s", {}, "Ryuuiisou"),
    ("chinroutou", "111m999p1s+1s 999m 111p", {}, "Chinroutou"),
    ("tsuuiisou", "111z555z66z77z+7z 222z", {}, "Tsuu Iisou"),
    ("daisangen", "12344m55566677z+7z", {}, "Daisangen"),
    ("shousuushii", "123m1112223334z+4z", {}, "Shousuushii"),
    ("daisuushii", "111z222z333z1m+1m 444z", {}, "Dai Suushii"),
]


@pytest.mark.parametrize(
    ("notation", "situation", "expected"),
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
def test_yaku_and_han(score, notation, situation, expected):
    ev = score(notation, **situation)
    assert dict(ev.yaku) == expected
    assert ev.han == sum(expected.values())
    assert ev.yakuman == 0 and ev.dora == 0


@pytest.mark.parametrize(
    ("notation", "situation", "name"),
    [case[1:] for case in YAKUMAN],
    ids=[case[0] for case in YAKUMAN],
)
def test_yakuman_is_one_yakuman_under_ema(score, notation, situation, name):
    # EMA 2025 4.2.6 has no double yakuman: thirteen-sided and nine-sided waits count once.
    ev = score(notation, **situation)
    assert dict(ev.yaku) == {name: 13}
    assert (ev.yakuman, ev.han, ev.fu) == (1, 0, None)
    assert ev.payment.limit == "yakuman"
    assert ev.payment.base == 8000


# EMA 2025 4.2.1-4.2.6 by the rule text's English names -> the case above that scores it.
EMA_LIST = {
    "Riichi": "riichi",
    "Ippatsu": "ippatsu",
    "Fully Concealed Hand": "menzen tsumo",
    "Pinfu": "pinfu",
    "Pure Double Sequence": "iipeiko",
    "All Simple": "tanyao closed",
    "Dragon Triplet": "dragon triplet",
    "Seat Wind Triplet": "seat wind triplet",
    "Round Wind Triplet": "round wind triplet",
    "After a Quad": "rinshan",
    "Robbing a Quad": "chankan",
    "Under the Sea": "haitei",
    "Under the River": "houtei",
    "Double Riichi": "double riichi",
    "Seven Pairs": "chiitoitsu",
    "Mixed Triple Sequence": "sanshoku closed",
    "Pure Straight": "ittsu closed",
    "Half Outside Hand": "chanta closed",
    "Triple Triplet": "sanshoku douko",
    "Three Concealed Triplets": "sanankou",
    "Three Quads": "sankantsu",
    "All Triplets": "toitoi",
    "Little Three Dragons": "shousangen",
    "All Terminals and Honours": "honroutou",
    "Twice Pure Double Sequence": "ryanpeikou",
    "Half Flush": "honitsu closed",
    "Full Outside Hand": "junchan closed",
    "Full Flush": "chinitsu closed",
    "Thirteen Orphans": "kokushi",
    "Nine Gates": "chuuren",
    "Blessing of Heaven": "tenhou",
    "Blessing of Earth": "chiihou",
    "Four Concealed Triplets": "suuankou",
    "Four Quads": "suukantsu",
    "All Green": "ryuuiisou",
    "All Terminals": "chinroutou",
    "All Honours": "tsuuiisou",
    "Big Three Dragons": "daisangen",
    "Little Four Winds": "shousuushii",
    "Big Four Winds": "daisuushii",
}


def test_every_ema_yaku_has_a_case():
    # 41 yaku in EMA 2025 4.2; Blessing of Man (4.2.4) is in test_tiles_ema_fixes.py.
    case_ids = {case[0] for case in CASES} | {case[0] for case in YAKUMAN}
    assert len(EMA_LIST) == 40
    assert set(EMA_LIST.values()) <= case_ids


CASE_BY_ID = {case[0]: (case[1], case[2]) for case in CASES} | {
    case[0]: (case[1], case[2]) for case in YAKUMAN
}


@pytest.mark.parametrize(("ema_name", "case_id"), sorted(EMA_LIST.items()))
def test_each_yaku_is_reported_under_its_ema_name(score, ema_name, case_id):
    # The API and the command line list each yaku as {"name", "ema_name", "han"}: ``name`` is
    # the library's (unchanged), ``ema_name`` the rule book's English name (EMA 2025 4.2).
    notation, situation = CASE_BY_ID[case_id]
    entries = score(notation, **situation).to_dict()["yaku"]
    assert ema_name in {entry["ema_name"] for entry in entries}
