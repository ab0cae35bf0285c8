"""EMA 2025 4.3 scoring examples 1-10, reproduced from tiles.

The rule text shows the hands as pictures; each hand here is built to fit the words of its
example (winning tile, how it was won, the yaku, dora and minipoints named).
Each is checked for a non-dealer (seat South) and for East, with the text's payments.
"""

from __future__ import annotations

from typing import Any

import pytest

# (example, notation, situation, yaku, han, fu, (non-dealer total, dealer total))
EXAMPLES: list[
    tuple[int, str, dict[str, Any], dict[str, int], int, int | None, tuple[int, int]]
] = [
    # 1: 9s self-draw, concealed, riichi: riichi, tsumo, pinfu, pure straight 2 = mangan.
    (
        1,
        "12345678s234m55p+9s",
        {"tsumo": True, "riichi": True},
        {"Riichi": 1, "Menzen Tsumo": 1, "Pinfu": 1, "Ittsu": 2},
        5,
        20,
        (8000, 12000),
    ),
    # 2: the same hand by discard: 4 han 30 fu, rounded up to mangan.
    (
        2,
        "12345678s234m55p+9s",
        {"riichi": True},
        {"Riichi": 1, "Pinfu": 1, "Ittsu": 2},
        4,
        30,
        (8000, 12000),
    ),
    # 3: open, 9s by discard, 7s dora: straight 1 + dora 1; 20 + 2 open pinfu = 30 fu.
    (3, "45678s234m55p+9s 123s", {"dora_indicators": ("6s",)}, {"Ittsu": 1}, 2, 30, (2000, 2900)),
    # 4: 8s self-draw, concealed: four concealed triplets.
    (4, "111m999p222s88s11z+8s", {"tsumo": True}, {"Suu Ankou": 13}, 0, None, (32000, 48000)),
    # 5: 8s by discard, 4p dora: three concealed triplets, all triplets, all simples + 3 dora.
    (
        5,
        "222m33m444p666s88s+8s",
        {"dora_indicators": ("3p",)},
        {"San Ankou": 2, "Toitoi": 2, "Tanyao": 1},
        8,
        50,
        (16000, 24000),
    ),
    # 6: 4s self-draw right after riichi: riichi, ippatsu, tsumo, all simples, seven pairs.
    (
        6,
        "225588m3366p77s4s+4s",
        {"tsumo": True, "riichi": True, "ippatsu": True},
        {"Riichi": 1, "Ippatsu": 1, "Menzen Tsumo": 1, "Tanyao": 1, "Chiitoitsu": 2},
        6,
        25,
        (12000, 18000),
    ),
    # 7: 4s by discard, no riichi: seven pairs with a dragon pair and a pair wait, 25 fu.
    (7, "1199m2288p66s77z4s+4s", {}, {"Chiitoitsu": 2}, 2, 25, (1600, 2400)),
    # 8: red dragon self-draw: twice pure double sequence + tsumo; 20+2+2+2 = 30 fu, not
    # seven pairs.
    (
        8,
        "223344m556677p7z+7z",
        {"tsumo": True},
        {"Ryanpeikou": 3, "Menzen Tsumo": 1},
        4,
        30,
        (8000, 12000),
    ),
    # 10: 7p self-draw, player South, three-sided wait 1-4-7p: half flush 3 + tsumo 1;
    # 20 + 2 + 8 (concealed honour triplet) + 2 (edge wait chosen) = 40 fu.
    (
        10,
        "1123456789p333z+7p",
        {"tsumo": True},
        {"Honitsu": 3, "Menzen Tsumo": 1},
        4,
        40,
        (8000, 12000),
    ),
]


@pytest.mark.parametrize(
    ("notation", "situation", "yaku", "han", "fu", "totals"),
    [case[1:] for case in EXAMPLES],
    ids=[f"example {case[0]}" for case in EXAMPLES],
)
def test_ema_example(score, notation, situation, yaku, han, fu, totals):
    non_dealer = score(notation, seat_wind="S", **situation)
    dealer = score(notation, seat_wind="E", **situation)
    for ev in (non_dealer, dealer):
        assert dict(ev.yaku) == yaku
        assert (ev.han, ev.fu) == (han, fu)
    assert (non_dealer.points, dealer.points) == totals


def test_example_1_tsumo_shares(score):
    # EMA 2025 4.3 example 1: 4,000 from East and 2,000 from each other player.
    ev = score("12345678s234m55p+9s", seat_wind="S", tsumo=True, riichi=True)
    assert (ev.payment.tsumo_dealer, ev.payment.tsumo_non_dealer) == (4000, 2000)


def test_example_5_dora(score):
    # EMA 2025 4.3 example 5: the 4p triplet is three dora, 5 han + 3 = baiman.
    ev = score("222m33m444p666s88s+8s", seat_wind="S", dora_indicators=("3p",))
    assert ev.dora == 3
    assert ev.payment.limit == "baiman"


def test_example_9(score):
    # EMA 2025 4.3 example 9: west wind by discard, East in the east round, 7s dora; open
    # half flush 2, seat wind 1, round wind 1, half outside hand 1, dora 1 = 6 han: 18,000.
    ev = score("111123789s3z+3z 111z", seat_wind="E", round_wind="E", dora_indicators=("6s",))
    assert dict(ev.yaku) == {
        "Honitsu": 2,
        "Yakuhai (seat wind east)": 1,
        "Yakuhai (round wind east)": 1,
        "Chantai": 1,
    }
    assert (ev.han, ev.dora) == (6, 1)
    assert ev.points == 18000


def test_example_10_edge_wait_is_chosen(score):
    # EMA 2025 4.1.1 / 4.3 example 10: the highest-scoring reading of the wait counts.
    ev = score("1123456789p333z+7p", seat_wind="S", tsumo=True)
    assert ("penchan", 2) in ev.fu_details
    assert ("closed_terminal_pon", 8) in ev.fu_details
