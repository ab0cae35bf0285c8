"""Predefined plans from CSV, validation and manual swaps (pure, no database)."""

import pytest

from tournaments.seating import (
    SeatingError,
    generate_plan,
    parse_plan_csv,
    plan_to_csv,
    quality,
    swap_players,
    validate_plan,
)

GOOD = """round,table,east,south,west,north
1,1,1,2,3,4
1,2,5,6,7,8
2,1,1,5,2,6
2,2,3,7,4,8
"""


def test_parse_a_good_plan() -> None:
    assert parse_plan_csv(GOOD) == [
        [[0, 1, 2, 3], [4, 5, 6, 7]],
        [[0, 4, 1, 5], [2, 6, 3, 7]],
    ]


def test_semicolons_no_header_and_blank_lines() -> None:
    text = "1;1;1;2;3;4\n\n1;2;5;6;7;8\n"
    assert parse_plan_csv(text, players=8) == [[[0, 1, 2, 3], [4, 5, 6, 7]]]


def test_round_trip_of_a_generated_plan() -> None:
    plan = generate_plan(players=32, rounds=8, seed=2)
    assert parse_plan_csv(plan_to_csv(plan), players=32) == plan


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1,1,1,2,3\n", "row 1: 5 columns"),
        ("1,1,1,2,3,x\n", "row 1: every column must be a whole number"),
        ("1,1,1,2,3,4\n1,2,5,6,7,9\n", "row 2: players are numbered 1..8"),
        ("1,1,1,2,3,3\n", "row 1: a player is seated twice"),
        ("1,1,1,2,3,4\n1,1,5,6,7,8\n", "row 2: round 1 table 1 also on row 1"),
        ("1,1,1,2,3,4\n1,2,4,6,7,8\n", "row 2: player 4 is already seated in round 1 (row 1)"),
        ("1,1,1,2,3,4\n1,2,5,6,7,8\n3,1,1,2,3,4\n3,2,5,6,7,8\n", "without gaps"),
        ("1,1,1,2,3,4\n1,3,5,6,7,8\n", "round 1: tables must be numbered 1..2"),
        ("", "no tables found"),
    ],
)
def test_errors_name_the_row(text: str, message: str) -> None:
    with pytest.raises(SeatingError) as exc:
        parse_plan_csv(text, players=8)
    assert message in str(exc.value)


def test_missing_players_are_listed() -> None:
    with pytest.raises(SeatingError, match=r"round 1: 4 players not seated \(5, 6, 7, 8\)"):
        parse_plan_csv("1,1,1,2,3,4\n", players=8)


def test_inferred_player_count_must_fill_tables() -> None:
    with pytest.raises(SeatingError, match="add 2 substitutes"):
        parse_plan_csv("1,1,1,2,3,4\n1,2,5,6,9,10\n")


def test_swap_players_trades_seats_and_quality_shows_it() -> None:
    plan = generate_plan(players=16, rounds=5, seed=1)
    table_of_3 = next(t for t in plan[1] if 3 in t)
    b = next(p for t in plan[1] if 3 not in t for p in t)
    swapped = swap_players(plan, round=1, a=3, b=b)
    assert swapped[1][plan[1].index(table_of_3)][table_of_3.index(3)] == b
    assert plan[1][plan[1].index(table_of_3)] == table_of_3  # the input is untouched
    validate_plan(swapped, players=16)
    assert quality(swapped).extra_meetings > 0  # the affine plane has no slack


def test_swap_players_rejects_unknown_round_or_player() -> None:
    plan = generate_plan(players=8, rounds=1)
    with pytest.raises(SeatingError):
        swap_players(plan, round=3, a=0, b=1)
    with pytest.raises(SeatingError):
        swap_players(plan, round=0, a=0, b=99)


def test_validate_plan_catches_double_seating() -> None:
    with pytest.raises(SeatingError, match="player 1 is seated twice"):
        validate_plan([[[0, 1, 2, 3], [1, 5, 6, 7]]])
