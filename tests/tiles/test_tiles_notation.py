"""The compact notation (docs/tile-notation.md) and its errors in a referee's words."""

from __future__ import annotations

import pytest

from scoring.tiles import TileError
from scoring.tiles.notation import parse_hand, parse_tiles


def test_tiles_share_the_suit_letter():
    assert [s.index for s in parse_tiles("123m9p17z")] == [0, 1, 2, 17, 27, 33]


def test_red_five_is_zero_and_takes_the_red_copy():
    hand = parse_hand("234067m234p2355s+4s", red_fives=1)
    # The library treats 136-id 16 (copy 0 of 5m) as the red 5m.
    assert 16 in hand.concealed


def test_plain_fives_leave_the_red_copy_free():
    hand = parse_hand("555m234p2356s999s+4s", red_fives=1)
    assert 16 not in hand.all_tiles


def test_melds_open_and_concealed():
    hand = parse_hand("5z+5z 123m 789p, 666z [1111s]")
    kinds = [(m.kind, m.opened) for m in hand.melds]
    assert kinds == [("chi", True), ("chi", True), ("pon", True), ("kan", False)]
    assert len(hand.all_tiles) == 15


def test_winning_tile_may_stand_apart():
    assert parse_hand("123m456p789s1112z +2z").win_tile // 4 == 28


@pytest.mark.parametrize(
    ("notation", "words"),
    [
        ("123m456p789s11z1z", "mark the winning tile with +"),
        ("123m456p789s1z+1z+1z", "only one winning tile"),
        ("123m456p789s1z+11z", "exactly one winning tile"),
        ("123m456p789s+1z", "wrong tile count"),
        ("123m456p789s11z+1z", "wrong tile count"),
        ("1z+1z 123m 456p 789s 111p 222p", "at most 4"),
        ("123m456p789s1z+1x", "'x'"),
        ("123m456p789s1z+1", "no suit letter"),
        ("123m456p789sz1z+1z", "has no digits"),
        ("123m456p789s8z+1z", "8z"),
        ("11111m234p789s99s+9s", "five of a tile"),
        ("1111m234p789s999s+1m", "five of a tile"),
        ("1z+1z 124m 456p 789s 111p", "invalid meld"),
        ("1z+1z 891m 456p 789s 111p", "invalid meld"),
        ("1z+1z 123z 456p 789s 111p", "invalid meld"),
        ("1z+1z [123m] 456p 789s 111p", "invalid meld"),
        ("1z+1z 12m 456p 789s 111p", "invalid meld"),
        ("123m456p789s1112z+0m", "no red fives"),
        ("", "no tiles"),
    ],
)
def test_errors_name_the_problem(notation, words):
    with pytest.raises(TileError) as err:
        parse_hand(notation)
    assert err.value.field == "tiles"
    assert words in err.value.message


def test_an_indicator_is_one_of_the_four_copies():
    with pytest.raises(TileError) as err:
        parse_hand(
            "111m234p567s789s9s+9s",
            indicators=[("dora_indicators", parse_tiles("9s9s"))],
        )
    assert err.value.field == "dora_indicators"
    assert "five of a tile" in err.value.message


def test_two_red_fives_of_a_suit_are_not_evaluated():
    with pytest.raises(TileError, match="more than one red 5p"):
        parse_hand("005p555m234s2356s+4s", red_fives=2)


def test_four_plain_fives_with_a_red_one_in_the_set():
    with pytest.raises(TileError, match="only 3 plain 5p"):
        parse_hand("5555p234m234s234s+4s", red_fives=1)


def test_three_player_tiles(ema):
    # WDMC 2019 5.2: the wind and dragon tiles are removed; 2m-8m stay in play.
    with pytest.raises(TileError, match="not used in three-player"):
        parse_hand("123m456p789s1z+1z", three_player=True)
    with pytest.raises(TileError, match="not used in three-player"):
        parse_hand("123m456p789s11s+4z", three_player=True)
    assert parse_hand("234m456p789s11s55m+5m", three_player=True).win_tile // 4 == 4
    with pytest.raises(TileError, match="no chi in three-player"):
        parse_hand("1p+1p 123p 456p 789s 111s", three_player=True)  # WDMC 2019 5.3
