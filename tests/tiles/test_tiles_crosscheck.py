"""The referee cross-check: entered han/fu/yakuman against the tiles."""

from __future__ import annotations

from scoring.tiles import cross_check

EX2 = "12345678s234m55p+9s"  # EMA 2025 4.3 example 2: 4 han 30 fu by discard, mangan


def test_agreeing_entry_has_no_message(score):
    ev = score(EX2, riichi=True, seat_wind="S")
    assert cross_check(ev, han=4, fu=30) == []


def test_nothing_entered_is_nothing_to_compare(score):
    assert cross_check(score(EX2, riichi=True), han=None, fu=None) == []


def test_fu_do_not_matter_from_five_han(score):
    # EMA 2025 4.1: for hands with five or more han, the minipoints are irrelevant.
    ev = score(EX2, riichi=True, tsumo=True, seat_wind="S")
    assert ev.han == 5
    assert cross_check(ev, han=5, fu=None) == []
    assert cross_check(ev, han=5, fu=40) == []


def test_wrong_fu_with_the_same_payment_says_both(score):
    # 4 han 40 fu and 4 han 30 fu are both mangan under kiriage (EMA 2025 4.1.3).
    ev = score(EX2, riichi=True, seat_wind="S")
    assert cross_check(ev, han=4, fu=40) == [
        "fu: entered 40, the tiles give 30",
        "the payment is the same either way: mangan 8000",
    ]


def test_wrong_han_with_a_different_payment(score):
    ev = score(EX2, riichi=True, seat_wind="S")
    assert cross_check(ev, han=3, fu=30) == [
        "han: entered 3, the tiles give 4",
        "the payment differs: entered 3900, the tiles give mangan 8000",
    ]


def test_same_limit_different_han(score):
    # 6 and 7 han are both haneman (EMA 2025 4.1.2); tsumo shares shown as a score sheet does.
    ev = score("225588m3366p77s4s+4s", tsumo=True, riichi=True, ippatsu=True, seat_wind="S")
    assert cross_check(ev, han=7, fu=None) == [
        "han: entered 7, the tiles give 6",
        "the payment is the same either way: haneman 3000/6000 (12000)",
    ]


def test_yakuman_entered_for_a_counted_hand(score):
    ev = score(
        "123456789m23m55m+1m", riichi=True, tsumo=True, seat_wind="S", dora_indicators=("4m",)
    )
    messages = cross_check(ev, han=None, fu=None, yakuman=1)
    assert messages[0] == "entered 1 yakuman, the tiles give 15 han 20 fu"
    assert messages[1] == (
        "the payment differs: entered yakuman 8000/16000 (32000), "
        "the tiles give sanbaiman 6000/12000 (24000)"
    )


def test_han_entered_for_a_yakuman(score):
    ev = score("111m999p222s88s11z+8s", tsumo=True)
    assert cross_check(ev, han=13, fu=None, yakuman=0)[0] == (
        "entered 13 han, the tiles give 1 yakuman"
    )
    assert cross_check(ev, han=None, fu=None, yakuman=1) == []


def test_missing_fu_below_five_han(score):
    ev = score(EX2, riichi=True, seat_wind="S")
    assert cross_check(ev, han=4, fu=None) == [
        "fu: entered none, the tiles give 30",
        "the tiles are paid mangan 8000",
    ]
