"""Team mates are kept apart by every seating mode (issue 32.1): a team is a seating group of
its own, in every session of a random plan, in Swiss, and counted in an uploaded plan's
quality report."""

from __future__ import annotations

import pytest

from tournaments.models import SeatingPlan
from tournaments.seating.finals import tables_by_standing
from tournaments.services import (
    apply_seating_plan,
    create_sessions,
    request_seating_plan,
    update_registration,
    update_tournament,
    upload_seating_plan,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def teams(tournament, organiser, registrations):
    """16 players in 4 teams of 4, registered team by team (1-4 team 1, 5-8 team 2, ...), so
    that seating in registration order would put each team at one table."""
    update_tournament(actor=organiser, tournament=tournament, teams_enabled=True)
    tournament.refresh_from_db()
    for i, registration in enumerate(registrations):
        update_registration(actor=organiser, registration=registration, team=f"Team {i // 4 + 1}")
    return {r.pk: i // 4 for i, r in enumerate(registrations)}


def _request(organiser, tournament, capture, **kwargs):
    with capture(execute=True):
        plan = request_seating_plan(actor=organiser, tournament=tournament, **kwargs)
    plan.refresh_from_db()
    assert plan.status == SeatingPlan.Status.DONE, plan.error
    return plan


def _one_of_each_team(tables, team_of):
    return all(len({team_of[p] for p in table}) == len(table) for table in tables)


def test_a_random_plan_keeps_team_mates_apart_in_every_session(
    tournament, organiser, teams, django_capture_on_commit_callbacks
):
    # No separate_by and separate_rounds=1: a team event keeps teams apart all the same, in
    # every session of the plan.
    plan = _request(
        organiser,
        tournament,
        django_capture_on_commit_callbacks,
        mode="random",
        seed=7,
        options={"rounds": 3, "separate_rounds": 1},
    )
    assert len(plan.plan) == 3
    assert all(_one_of_each_team(rnd, teams) for rnd in plan.plan)
    assert plan.quality["group_pairs"] == 0


def test_swiss_keeps_team_mates_apart(
    tournament, organiser, teams, django_capture_on_commit_callbacks
):
    create_sessions(actor=organiser, tournament=tournament)
    plan = _request(organiser, tournament, django_capture_on_commit_callbacks, mode="swiss")
    (tables,) = plan.plan
    assert _one_of_each_team(tables, teams)
    apply_seating_plan(actor=organiser, plan=plan, from_session=1)
    seated = [
        [seat.player_id for seat in table.seats.all()]
        for table in tournament.sessions.get(number=1).tables.all()
    ]
    team_of_player = {r.player_id: teams[r.pk] for r in tournament.registrations.all()}
    assert _one_of_each_team(seated, team_of_player)


def test_teams_off_leaves_the_plan_free(
    tournament, organiser, teams, django_capture_on_commit_callbacks
):
    update_tournament(actor=organiser, tournament=tournament, teams_enabled=False)
    tournament.refresh_from_db()
    plan = _request(
        organiser,
        tournament,
        django_capture_on_commit_callbacks,
        mode="random",
        options={"rounds": 2},
    )
    assert plan.quality.get("group_pairs") is None  # no groups given to the seating


def test_an_uploaded_plan_reports_team_mates_at_one_table(tournament, organiser, teams):
    # Players 1-4 are team 1: the first table of round 1 seats the whole team.
    text = "round,table,east,south,west,north\n" + "".join(
        f"1,{t + 1},{4 * t + 1},{4 * t + 2},{4 * t + 3},{4 * t + 4}\n" for t in range(4)
    )
    plan = upload_seating_plan(actor=organiser, tournament=tournament, text=text)
    # 4 tables, each a whole team: 6 pairs each, 24 in all; the least possible is 0.
    assert (plan.quality["group_pairs"], plan.quality["group_pairs_least"]) == (24, 0)


def test_seating_by_standing_moves_a_team_mate_to_the_next_table():
    # A final by standing (issue 32.2) seats 1-4 at table 1; 2 is 1's team mate, so 5 takes
    # that seat and 2 sits at table 2, the next table without a team mate.
    teams = {1: "A", 2: "A", 3: "B", 4: "C", 5: "D", 6: "B", 7: "C", 8: "D"}
    assert tables_by_standing(list(range(1, 9)), 4, groups=teams) == [[1, 3, 4, 5], [2, 6, 7, 8]]
    # Three of one team over two tables: two must meet; the better placed stay ahead.
    crowded = {1: "A", 2: "A", 3: "A"}
    assert tables_by_standing(list(range(1, 9)), 4, groups=crowded) == [
        [1, 4, 5, 6],
        [2, 7, 8, 3],
    ]
    assert tables_by_standing(list(range(1, 9)), 4) == [[1, 2, 3, 4], [5, 6, 7, 8]]
