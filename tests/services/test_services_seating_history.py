"""Generated plans see the tournament so far (issue 17): Swiss after a drop and a substitute,
groups kept apart in Swiss, and a random re-plan from session 2 that keeps session 1."""

from __future__ import annotations

from itertools import combinations

import pytest

from tests.factories import PlayerFactory, RegistrationFactory
from tournaments.models import SeatingPlan
from tournaments.services import (
    apply_seating_plan,
    create_sessions,
    drop_player,
    request_seating_plan,
    seat_session,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def first_session(tournament, organiser, registrations):
    """Session 1 seated 1-4, 5-8, 9-12, 13-16 (registration order)."""
    create_sessions(actor=organiser, tournament=tournament)
    s = tournament.sessions.get(number=1)
    players = [r.player for r in registrations]
    seat_session(actor=organiser, session=s, tables=[players[i : i + 4] for i in range(0, 16, 4)])
    return s


def _pairs(tables):
    return {frozenset(p) for t in tables for p in combinations(t, 2)}


def _request(organiser, tournament, capture, **kwargs):
    with capture(execute=True):
        plan = request_seating_plan(actor=organiser, tournament=tournament, **kwargs)
    plan.refresh_from_db()
    assert plan.status == SeatingPlan.Status.DONE, plan.error
    return plan


def test_swiss_after_a_drop_and_a_substitute_keeps_history_and_groups(
    tournament, organiser, registrations, first_session, django_capture_on_commit_callbacks
):
    # Issue 17: after a drop the history has a table of three and the field a player never
    # seated; Swiss used to fail for the rest of the event. Club members sat together.
    drop_player(actor=organiser, registration=registrations[15], reason="ill")
    substitute = RegistrationFactory(
        tournament=tournament, player=PlayerFactory(), is_substitute=True
    )
    club = [registrations[i] for i in (0, 4, 8, 12)]  # one per table of session 1
    for r in club:
        r.club_name = "Riichi Club Nord"
        r.save(update_fields=["club_name"])
    plan = _request(
        organiser,
        tournament,
        django_capture_on_commit_callbacks,
        mode="swiss",
        options={"from_session": 2, "separate_by": "club"},
    )
    (tables,) = plan.plan
    active = {r.pk for r in registrations[:15]} | {substitute.pk}
    assert sorted(p for t in tables for p in t) == sorted(active)
    session1 = [[r.pk for r in registrations[i : i + 4]] for i in range(0, 16, 4)]
    assert not _pairs(tables) & _pairs(session1)  # nobody sits with a session-1 opponent
    club_ids = {r.pk for r in club}
    assert all(len(club_ids & set(t)) <= 1 for t in tables)
    # The report covers the whole tournament: 17 players seated, 32 tables' worth of pairs.
    assert plan.quality["players"] == 17 and plan.quality["rounds"] == 2
    assert plan.quality["extra_meetings"] == 0
    (s2,) = apply_seating_plan(actor=organiser, plan=plan)
    assert s2.number == 2 and s2.tables.count() == 4


def test_random_replan_from_session_two_keeps_session_one(
    tournament, organiser, registrations, first_session, django_capture_on_commit_callbacks
):
    # Issue 17.4: a random re-plan from session 2 used to ignore session 1 (10 pairs met
    # again while the stored report said 0 extra meetings).
    plan = _request(
        organiser,
        tournament,
        django_capture_on_commit_callbacks,
        mode="random",
        seed=5,
        options={"from_session": 2, "rounds": 3},
    )
    session1 = [[r.pk for r in registrations[i : i + 4]] for i in range(0, 16, 4)]
    met = [p for rnd in [session1, *plan.plan] for p in _pairs(rnd)]
    assert len(met) == len(set(met)) == 4 * 24  # 4 rounds of 24 pairs, none twice
    assert plan.quality["rounds"] == 4 and plan.quality["extra_meetings"] == 0


def test_random_plan_keeps_clubs_apart_in_every_session_and_reports_it(
    tournament, organiser, registrations, django_capture_on_commit_callbacks
):
    # Issue 17.5: groups are a hard rule in random plans too (separate_rounds 0: every
    # session); the stored report counts same-club pairs at a table and the least possible.
    for i, r in enumerate(registrations):
        r.club_name = f"Club {i % 4}"  # four clubs of four at four tables: all can be apart
        r.save(update_fields=["club_name"])
    plan = _request(
        organiser,
        tournament,
        django_capture_on_commit_callbacks,
        mode="random",
        seed=2,
        options={"rounds": 4, "separate_by": "club"},
    )
    club = {r.pk: r.club_name for r in registrations}
    for rnd in plan.plan:
        assert all(len({club[p] for p in t}) == 4 for t in rnd)
    assert plan.quality["group_pairs"] == 0 and plan.quality["group_pairs_least"] == 0
    assert plan.quality["extra_meetings"] == 0


def test_swiss_report_counts_group_pairs_it_could_not_avoid(
    tournament, organiser, registrations, first_session, django_capture_on_commit_callbacks
):
    # Five players of one club at four tables: one pair must share a table, and the report
    # says so (1, least possible 1).
    for r in registrations[:5]:
        r.club_name = "Big Club"
        r.save(update_fields=["club_name"])
    plan = _request(
        organiser,
        tournament,
        django_capture_on_commit_callbacks,
        mode="swiss",
        options={"from_session": 2, "separate_by": "club"},
    )
    assert plan.quality["group_pairs"] == 1 and plan.quality["group_pairs_least"] == 1


def test_random_replan_after_a_drop_keeps_the_remaining_sessions_free_of_repeats(
    tournament, organiser, django_capture_on_commit_callbacks
):
    # Issue 34.4: 40 players, 8 sessions; one drops after session 3 and a fill-in takes the
    # place. The re-plan from session 4 (the entry point issue 31's roster work calls:
    # request_seating_plan(mode="random", options={"from_session": k})) seats the field of
    # sessions 4-8 with no pair meeting twice over the whole tournament: the plan in force
    # goes on with the fill-in in the dropped player's seats.
    regs = [RegistrationFactory(tournament=tournament, player=PlayerFactory()) for _ in range(40)]
    first = _request(
        organiser,
        tournament,
        django_capture_on_commit_callbacks,
        mode="random",
        seed=1,
        options={"rounds": 8},
    )
    assert first.quality["extra_meetings"] == 0
    apply_seating_plan(actor=organiser, plan=first, from_session=1)
    dropped = regs[7]
    drop_player(actor=organiser, registration=dropped, reason="ill")
    fill_in = RegistrationFactory(tournament=tournament, player=PlayerFactory(), is_substitute=True)
    again = _request(
        organiser,
        tournament,
        django_capture_on_commit_callbacks,
        mode="random",
        seed=1,
        options={"from_session": 4, "rounds": 5},
    )
    field = {r.pk for r in regs if r is not dropped} | {fill_in.pk}
    for rnd in again.plan:
        assert sorted(p for t in rnd for p in t) == sorted(field)
    met = [p for rnd in [*first.plan[:3], *again.plan] for p in _pairs(rnd)]
    assert len(met) == len(set(met))  # no pair twice in sessions 1-8
    assert again.quality["rounds"] == 8 and again.quality["extra_meetings"] == 0
    assert again.quality["players"] == 41  # the dropped player's sessions count too
    assert [s.number for s in apply_seating_plan(actor=organiser, plan=again)] == [4, 5, 6, 7, 8]


def test_random_replan_after_a_drop_goes_on_with_the_design(
    tournament, organiser, django_capture_on_commit_callbacks
):
    # 40 players, 12 sessions, a drop after session 4: the search alone left 41 extra
    # meetings in sessions 5-12; the design's remaining rounds have none.
    regs = [RegistrationFactory(tournament=tournament, player=PlayerFactory()) for _ in range(40)]
    first = _request(
        organiser,
        tournament,
        django_capture_on_commit_callbacks,
        mode="random",
        seed=1,
        options={"rounds": 12},
    )
    apply_seating_plan(actor=organiser, plan=first, from_session=1)
    drop_player(actor=organiser, registration=regs[3], reason="ill")
    fill_in = RegistrationFactory(tournament=tournament, player=PlayerFactory(), is_substitute=True)
    again = _request(
        organiser,
        tournament,
        django_capture_on_commit_callbacks,
        mode="random",
        seed=1,
        options={"from_session": 5, "rounds": 8},
    )
    assert again.quality["extra_meetings"] == 0 and again.quality["rounds"] == 12
    swapped = {regs[3].pk: fill_in.pk}
    # The same tables as the plan in force, the fill-in where the dropped player was.
    assert [
        sorted(sorted(swapped.get(p, p) for p in t) for t in rnd) for rnd in first.plan[4:]
    ] == [sorted(sorted(t) for t in rnd) for rnd in again.plan]
