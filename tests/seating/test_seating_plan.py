"""Whole-tournament plans: constructions, search, winds, quality (pure, no database)."""

import random
from collections import Counter
from itertools import combinations

import pytest

from tournaments.seating import (
    Plan,
    SeatingError,
    balance_winds,
    generate_plan,
    quality,
    substitutes_needed,
)
from tournaments.seating.designs import design


def pair_counts(plan: Plan) -> Counter[tuple[int, int]]:
    return Counter(pair for rnd in plan for t in rnd for pair in combinations(sorted(t), 2))


def wind_spread(plan: Plan, players: int) -> int:
    counts = [[0] * 4 for _ in range(players)]
    for rnd in plan:
        for t in rnd:
            for seat, p in enumerate(t):
                counts[p][seat] += 1
    return max(max(c) - min(c) for c in counts)


def assert_partitions(plan: Plan, players: int, rounds: int) -> None:
    assert len(plan) == rounds
    for rnd in plan:
        assert all(len(t) == 4 for t in rnd)
        assert sorted(p for t in rnd for p in t) == list(range(players))


@pytest.mark.parametrize(
    ("players", "rounds"), [(16, 5), (32, 8), (40, 7), (64, 10), (128, 10), (1000, 12)]
)
def test_target_cases_have_no_repeats_and_balanced_winds(players: int, rounds: int) -> None:
    plan = generate_plan(players=players, rounds=rounds, seed=3)
    assert_partitions(plan, players, rounds)
    assert max(pair_counts(plan).values()) == 1
    assert wind_spread(plan, players) <= (0 if rounds % 4 == 0 else 1)


def test_sixteen_players_five_rounds_is_the_affine_plane() -> None:
    plan = generate_plan(players=16, rounds=5, seed=11)
    counts = pair_counts(plan)
    assert len(counts) == 16 * 15 // 2  # every pair meets exactly once
    assert set(counts.values()) == {1}


@pytest.mark.parametrize("players", [8, 16, 20, 24, 32, 36, 40, 48, 64, 100, 128, 160, 256])
def test_constructed_rounds_are_pair_disjoint(players: int) -> None:
    built = design(players)
    plan = [make() for make in built.rounds]
    assert_partitions(plan, players, len(plan))
    assert max(pair_counts(plan).values()) == 1
    assert 3 * len(plan) <= players - 1 or len(plan) == 1


def test_design_round_counts_reach_the_bound_for_powers_of_four() -> None:
    assert [len(design(n).rounds) for n in (16, 64, 256)] == [5, 21, 85]
    assert len(design(32).rounds) >= 8


@pytest.mark.parametrize(("players", "add", "remove"), [(42, 2, 2), (41, 3, 1), (43, 1, 3)])
def test_counts_not_divisible_by_four_are_refused_with_advice(
    players: int, add: int, remove: int
) -> None:
    with pytest.raises(SeatingError) as exc:
        generate_plan(players=players, rounds=3)
    message = str(exc.value)
    assert f"add {add} substitute" in message
    assert f"to {players + add}" in message
    assert f"remove {remove} player" in message
    assert substitutes_needed(players) == add


def test_too_few_players_or_rounds_are_refused() -> None:
    with pytest.raises(SeatingError):
        generate_plan(players=0, rounds=3)
    with pytest.raises(SeatingError):
        generate_plan(players=16, rounds=0)


def test_same_seed_same_plan_other_seed_other_plan() -> None:
    a = generate_plan(players=40, rounds=7, seed=5)
    assert generate_plan(players=40, rounds=7, seed=5) == a
    assert generate_plan(players=40, rounds=7, seed=6) != a


def test_search_finds_zero_repeats_beyond_the_construction() -> None:
    # 24 players: the construction gives 2 rounds, the search the rest.
    plan = generate_plan(players=24, rounds=5, seed=1, time_budget=5)
    assert max(pair_counts(plan).values()) == 1
    assert wind_spread(plan, 24) <= 1


def test_past_the_bound_repeats_are_few_and_never_back_to_back() -> None:
    plan = generate_plan(players=16, rounds=6, seed=2, time_budget=2)
    q = quality(plan)
    assert q.extra_meetings_lower_bound == 24
    assert q.extra_meetings <= 32
    assert q.max_meetings == 2
    assert q.consecutive_repeats == 0


def test_groups_are_kept_apart_in_the_first_rounds() -> None:
    players, k = 32, 3
    groups: list[str | None] = [f"club{p % 8}" if p < 24 else None for p in range(players)]
    plan = generate_plan(players=players, rounds=6, seed=4, groups=groups, separate_groups_rounds=k)
    for rnd in plan[:k]:
        for table in rnd:
            labels = [groups[p] for p in table if groups[p] is not None]
            assert len(labels) == len(set(labels)), table
    assert max(pair_counts(plan).values()) == 1


def test_group_labels_must_match_the_players() -> None:
    with pytest.raises(SeatingError):
        generate_plan(players=16, rounds=2, groups=["a"] * 15, separate_groups_rounds=1)


def test_progress_is_reported_up_to_one() -> None:
    seen: list[float] = []
    generate_plan(players=40, rounds=7, seed=1, progress=seen.append)
    assert seen[-1] == 1.0
    assert seen == sorted(seen)


@pytest.mark.parametrize(("players", "rounds"), [(16, 4), (20, 7), (36, 9), (48, 13)])
def test_balance_winds_on_any_tables(players: int, rounds: int) -> None:
    rng = random.Random(players * rounds)
    plan = []
    for _ in range(rounds):
        ps = list(range(players))
        rng.shuffle(ps)
        plan.append([ps[i : i + 4] for i in range(0, players, 4)])
    balanced = balance_winds(plan)
    assert [[sorted(t) for t in r] for r in balanced] == [[sorted(t) for t in r] for r in plan]
    assert wind_spread(balanced, players) <= (0 if rounds % 4 == 0 else 1)


def test_quality_of_a_small_hand_made_plan() -> None:
    plan = [
        [[0, 1, 2, 3], [4, 5, 6, 7]],
        [[0, 1, 4, 5], [2, 3, 6, 7]],
        [[0, 1, 6, 7], [2, 3, 4, 5]],
    ]
    q = quality(plan, ranking=[0, 4, 1, 5, 2, 6, 3, 7])
    assert q.extra_meetings == 8  # 0-1, 2-3, 4-5 and 6-7 meet three times each
    assert q.max_meetings == 3
    assert q.wind_spread == 3  # player 0 sat East three times
    assert q.consecutive_repeats == 8  # those four pairs in rounds 1-2 and again 2-3
    assert q.min_shared_opponents_unmet is None  # everyone met
    # last round: table {0,1,6,7} spans positions 0..7, table {2,3,4,5} positions 1..6
    assert q.rank_spread_mean == pytest.approx((7 + 5) / 2)
    assert q.to_dict()["extra_meetings"] == 8
    assert "Extra meetings:            8" in q.format()


def test_quality_shared_opponents_of_pairs_who_never_met() -> None:
    plan = [[[0, 1, 2, 3], [4, 5, 6, 7]], [[0, 4, 1, 5], [2, 6, 3, 7]]]
    q = quality(plan)
    # 0 and 6 never met; they share opponents 2 and 4 (0 met 1,2,3,4,5; 6 met 2,3,4,5,7).
    assert q.min_shared_opponents_unmet == 4
