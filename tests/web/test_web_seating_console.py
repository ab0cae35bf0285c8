"""Issue 18 (4): plan tables with wind headers, the right session numbers and defaults, rank
and points on Swiss plans, plan numbers per tournament, and a confirmation with the quality
before and after when a plan replaces seated sessions."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import (
    PlayerFactory,
    RegistrationFactory,
    SeatFactory,
    SessionFactory,
    TableFactory,
    TournamentFactory,
)
from tournaments.models import Registration, SeatingPlan, Session, StandingRow, Tournament
from tournaments.seating import generate_plan, quality

pytestmark = pytest.mark.django_db


@pytest.fixture
def eight(tournament: Tournament) -> list[Registration]:
    people = [PlayerFactory(first_name=f"P{i}", last_name=f"Player{i}") for i in range(8)]
    return [RegistrationFactory(tournament=tournament, player=p) for p in people]


def seat(tournament: Tournament, number: int, regs: list[Registration], status: str) -> Session:
    session = SessionFactory(tournament=tournament, number=number, status=status)
    for t, group in enumerate((regs[:4], regs[4:]), start=1):
        table = TableFactory(session=session, number=t)
        for wind, r in enumerate(group):
            SeatFactory(table=table, wind=wind, player=r.player)
    return session


def make_plan(tournament: Tournament, regs: list[Registration], **kwargs: Any) -> SeatingPlan:
    ids = [r.pk for r in regs]
    rounds = kwargs.pop("rounds", [[ids[0::2], ids[1::2]]])
    return SeatingPlan.objects.create(
        tournament=tournament, status=SeatingPlan.Status.DONE, progress=1, plan=rounds, **kwargs
    )


def plan_url(plan: SeatingPlan) -> str:
    return reverse("tournaments:seating_plan", args=[plan.tournament.slug, plan.pk])


def test_swiss_plan_for_session_two_shows_winds_ranks_and_session_two(
    organiser_client: Client, tournament: Tournament, eight: list[Registration]
) -> None:
    seat(tournament, 1, eight, Session.Status.CLOSED)
    for rank, r in enumerate(eight, start=1):
        StandingRow.objects.create(
            tournament=tournament, player=r.player, rank=rank, total=40000 - 1000 * rank
        )
    TournamentFactory()  # another tournament's plan must not shift the numbering
    SeatingPlan.objects.create(tournament=TournamentFactory(), mode="random")
    plan = make_plan(tournament, eight, mode=SeatingPlan.Mode.SWISS, options={"from_session": 2})
    response = organiser_client.get(plan_url(plan))
    html = response.content.decode()
    assert "Seating plan #1" in html  # the tournament's first plan
    assert "<h3>Session 2</h3>" in html and "Session 1</h3>" not in html
    assert "<th>East</th><th>South</th><th>West</th><th>North</th>" in html
    assert "P0 Player0 (1., 39000)" in html
    assert response.context["apply_form"]["from_session"].value() == 2


def test_applying_over_seated_sessions_asks_first_with_quality_before_and_after(
    organiser_client: Client, tournament: Tournament, eight: list[Registration]
) -> None:
    seat(tournament, 1, eight, Session.Status.CLOSED)
    seat(tournament, 2, eight, Session.Status.SEATED)
    ids = [r.pk for r in eight]
    plan = make_plan(
        tournament, eight, mode=SeatingPlan.Mode.RANDOM, rounds=[[ids[0::2], ids[1::2]]]
    )
    first = organiser_client.post(plan_url(plan), {"from_session": "2"})
    html = first.content.decode()
    assert first.status_code == 200 and 'id="replace-warning"' in html
    assert "replaces the seating of session 2." in html
    effect = first.context["effect"]
    # Same tables in both sessions: 12 extra meetings now; the new session 2 mixes them.
    assert effect["before"]["extra_meetings"] == 12
    assert effect["after"]["extra_meetings"] < 12
    session = Session.objects.get(tournament=tournament, number=2)
    assert sorted(session.tables.get(number=1).seats.values_list("player_id", flat=True)) == sorted(
        r.player_id for r in eight[:4]
    )  # nothing applied yet
    confirmed = organiser_client.post(plan_url(plan), {"from_session": "2", "confirm": "1"})
    assert confirmed.status_code == 302
    assert sorted(session.tables.get(number=1).seats.values_list("player_id", flat=True)) == sorted(
        r.player_id for r in eight[0::2]
    )


def test_applying_to_unseated_sessions_needs_no_confirmation(
    organiser_client: Client, tournament: Tournament, eight: list[Registration]
) -> None:
    plan = make_plan(tournament, eight, mode=SeatingPlan.Mode.RANDOM)
    assert organiser_client.post(plan_url(plan), {"from_session": "1"}).status_code == 302
    assert Session.objects.get(tournament=tournament, number=1).tables.count() == 2


def test_plan_page_shows_group_pairs_that_could_not_be_kept_apart(
    organiser_client: Client, tournament: Tournament, eight: list[Registration]
) -> None:
    # Issue 17.5: unavoidable same-club pairs are reported with the least possible.
    quality = {
        "players": 8,
        "rounds": 1,
        "extra_meetings": 0,
        "extra_meetings_lower_bound": 0,
        "max_meetings": 1,
        "wind_spread": 0,
        "min_shared_opponents_unmet": 0,
        "consecutive_repeats": 0,
        "rank_spread_mean": None,
        "group_pairs": 2,
        "group_pairs_least": 2,
    }
    plan = make_plan(tournament, eight, mode=SeatingPlan.Mode.RANDOM, quality=quality)
    html = organiser_client.get(plan_url(plan)).content.decode()
    assert '<span id="q-groups">2</span>' in html
    assert "least possible 2" in html


def test_plan_page_shows_the_other_qualities(
    organiser_client: Client, tournament: Tournament, eight: list[Registration]
) -> None:
    # Issue 34: table revisits, winds and shared opponents beside the least possible / aim.
    measured = quality(generate_plan(players=8, rounds=5, seed=1)).to_dict()
    measured["min_shared_opponents_unmet"] = 1  # as a bigger field would have
    measured["shared_opponents_aim"] = 3
    plan = make_plan(tournament, eight, mode=SeatingPlan.Mode.RANDOM, quality=measured)
    html = organiser_client.get(plan_url(plan)).content.decode()
    assert f'<span id="q-revisits">{measured["table_revisits"]}</span>' in html
    assert f"least possible {measured['table_revisits_least']}" in html
    assert f'<span id="q-wind">{measured["wind_spread"]}</span>' in html
    assert "(aim 3)" in html
    # A plan stored before issue 34 has none of these figures: no empty "least possible".
    old = {k: v for k, v in measured.items() if k not in ("table_revisits", "wind_spread_least")}
    plan = make_plan(tournament, eight, mode=SeatingPlan.Mode.RANDOM, quality=old)
    html = organiser_client.get(plan_url(plan)).content.decode()
    assert 'id="q-revisits"' not in html and "least possible )" not in html
