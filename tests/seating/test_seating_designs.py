"""Small fields from known designs (issue 17.6), groups as a hard rule in whole-tournament
plans and their report (issue 17.5). Pure, no database."""

import random
from collections import Counter
from itertools import combinations

import pytest

from tournaments.seating import generate_plan, quality, session_quality
from tournaments.seating.designs import CYCLIC, design
from tournaments.seating.quality import group_pairs


def meetings(rounds: list[list[list[int]]]) -> Counter:
    return Counter(pair for rnd in rounds for t in rnd for pair in combinations(sorted(t), 2))


def assert_rounds_seat_everyone(rounds: list[list[list[int]]], players: int) -> None:
    for rnd in rounds:
        assert all(len(t) == 4 for t in rnd)
        assert sorted(p for t in rnd for p in t) == list(range(players))


@pytest.mark.parametrize(("players", "rounds"), [(24, 7), (28, 9), (36, 11)])
def test_cyclic_designs_are_pair_disjoint(players: int, rounds: int) -> None:
    # Social golfer bound floor((n - 1) / 3): 24 -> 7, 28 -> 9, 36 -> 11 (all reached; 36 from
    # the shipped 4-RGDD of type 3^12, issue 34).
    built = [make() for make in design(players).rounds]
    assert len(built) == rounds
    assert_rounds_seat_everyone(built, players)
    met = meetings(built)
    assert max(met.values()) == 1
    assert len(met) == rounds * players // 4 * 6


def test_twenty_eight_players_is_a_resolvable_design() -> None:
    # Nine rounds in which every one of the 378 pairs meets exactly once: 2-(28,4,1), resolvable.
    built = [make() for make in design(28).rounds]
    met = meetings(built)
    assert len(met) == 28 * 27 // 2 and set(met.values()) == {1}


def test_cyclic_base_rounds_hold_each_point_once() -> None:
    for players, (m, orbits, base) in CYCLIC.items():
        fixed = players - m * orbits
        points = [(x, i) for table in base for x, i in table]
        assert sorted(points) == sorted((x, i) for i in range(orbits) for x in range(m))
        assert [len(t) for t in base[:fixed]] == [3] * fixed  # inf_b completes these


@pytest.mark.parametrize(("players", "rounds"), [(24, 6), (28, 8), (36, 10)])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_small_fields_have_no_repeat(players: int, rounds: int, seed: int) -> None:
    # Issue 17: the random plan kept 3-5 (24x6), 9 (28x8) and 6-8 (36x10) extra meetings.
    plan = generate_plan(players=players, rounds=rounds, seed=seed)
    assert_rounds_seat_everyone(plan, players)
    assert max(meetings(plan).values()) == 1
    q = quality(plan)
    assert q.extra_meetings == 0 and q.consecutive_repeats == 0 and q.wind_spread <= 1


def test_clubs_are_kept_apart_without_repeats_where_a_design_allows() -> None:
    # 28 players in 7 clubs of 4 over 8 sessions: the 9th round of the design can hold the
    # clubs, so relabelling the players keeps every club apart with no pair meeting twice.
    clubs = [f"club{i % 7}" for i in range(28)]
    random.Random(5).shuffle(clubs)
    plan = generate_plan(players=28, rounds=8, seed=3, groups=clubs, separate_groups_rounds=8)
    assert_rounds_seat_everyone(plan, 28)
    q = session_quality(plan, groups=dict(enumerate(clubs)))
    assert q.group_pairs == 0 and q.group_pairs_least == 0
    assert q.extra_meetings == 0


def test_groups_win_over_repeats_and_what_is_left_is_reported() -> None:
    # 16 players: the affine plane seats every pair once in 5 rounds, so keeping 4 clubs of 3
    # apart costs repeats (the hard rule wins); a club of 9 at 4 tables must share some.
    clubs = [f"c{i // 3}" if i < 12 else None for i in range(16)]
    plan = generate_plan(players=16, rounds=5, seed=1, groups=clubs, separate_groups_rounds=5)
    q = session_quality(plan, groups=dict(enumerate(clubs)))
    assert q.group_pairs == 0
    assert q.extra_meetings > 0
    big = ["big"] * 9 + [None] * 7
    plan = generate_plan(players=16, rounds=3, seed=1, groups=big, separate_groups_rounds=3)
    q = session_quality(plan, groups=dict(enumerate(big)))
    # 9 over 4 tables: 3 + 2 + 2 + 2 -> 3 + 1 + 1 + 1 = 6 pairs a round at least.
    assert q.group_pairs_least == 18
    assert q.group_pairs == 18
    assert "Same-group pairs at a table: 18 (least possible 18)" in q.format()


def test_group_pairs_counts_only_the_grouped_sessions() -> None:
    sessions = [[[1, 2, 3, 4], [5, 6, 7, 8]], [[1, 5, 2, 6], [3, 7, 4, 8]]]
    groups = {1: "a", 2: "a", 5: "b"}
    assert group_pairs(sessions, groups) == (2, 0)
    q = session_quality(sessions, groups=groups, grouped=[1])
    assert (q.group_pairs, q.group_pairs_least) == (1, 0)
    assert session_quality(sessions).group_pairs is None


def test_past_the_design_repeats_are_never_back_to_back() -> None:
    # 36 players, 12 sessions: two sessions past the design's ten; the search keeps every
    # repeat out of consecutive sessions (a weight above a second and a third meeting).
    plan = generate_plan(players=36, rounds=12, seed=1)
    assert_rounds_seat_everyone(plan, 36)
    q = quality(plan)
    assert q.consecutive_repeats == 0
    assert q.max_meetings <= 2
