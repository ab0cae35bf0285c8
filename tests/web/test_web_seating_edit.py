"""Seating console: swap two players in a session (quality report shown again) and upload a
predefined plan (CSV)."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from tests.factories import (
    HandFactory,
    PlayerFactory,
    RegistrationFactory,
    SeatFactory,
    SessionFactory,
    TableFactory,
    game_at_table,
)
from tournaments.models import Seat, SeatingPlan, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def eight(tournament: Tournament) -> list[Any]:
    """Eight registered players seated at the same two tables in sessions 1 and 2."""
    people = [PlayerFactory(first_name=f"P{i}", last_name=f"Player{i}") for i in range(8)]
    for p in people:
        RegistrationFactory(tournament=tournament, player=p)
    for number in (1, 2):
        session = SessionFactory(tournament=tournament, number=number)
        for t, group in enumerate((people[:4], people[4:]), start=1):
            table = TableFactory(session=session, number=t)
            for wind, p in enumerate(group):
                SeatFactory(table=table, wind=wind, player=p)
    return people


def seating_url(tournament: Tournament, name: str = "seating_console") -> str:
    return reverse(f"tournaments:{name}", args=[tournament.slug])


def test_console_shows_the_quality_of_the_current_seating(
    organiser_client: Client, tournament: Tournament, eight: list[Any]
) -> None:
    response = organiser_client.get(seating_url(tournament))
    assert response.status_code == 200
    # Same tables twice: each of the 12 pairs meets one time too many.
    assert response.context["quality"]["extra_meetings"] == 12
    assert '<span id="q-extra">12</span>' in response.content.decode()


def test_swap_shows_the_updated_quality(
    organiser_client: Client, tournament: Tournament, eight: list[Any]
) -> None:
    d, e = eight[3], eight[4]
    response = organiser_client.post(
        seating_url(tournament, "seating_swap"),
        {"session": "2", "a": str(d.pk), "b": str(e.pk)},
        follow=True,
    )
    assert response.status_code == 200
    assert Seat.objects.get(table__session__number=2, player=d).table.number == 2
    assert Seat.objects.get(table__session__number=2, player=e).table.number == 1
    # Session 2 now: {0,1,2,4} and {3,5,6,7}: only 3 + 3 pairs meet twice.
    assert response.context["quality"]["extra_meetings"] == 6
    html = response.content.decode()
    assert '<span id="q-extra">6</span>' in html
    assert "swapped seats in session 2" in html


def test_swap_errors_name_the_field(
    organiser_client: Client, tournament: Tournament, eight: list[Any]
) -> None:
    same = organiser_client.post(
        seating_url(tournament, "seating_swap"),
        {"session": "2", "a": str(eight[0].pk), "b": str(eight[0].pk)},
    )
    assert same.status_code == 400
    assert "Choose two different players." in same.content.decode()
    missing = organiser_client.post(
        seating_url(tournament, "seating_swap"),
        {"session": "7", "a": str(eight[0].pk), "b": str(eight[4].pk)},
    )
    assert missing.status_code == 400
    assert "No such session." in missing.content.decode()


def test_swap_is_refused_once_hands_are_entered(
    organiser_client: Client, tournament: Tournament, eight: list[Any]
) -> None:
    from scoring.models import GameSeat

    table = tournament.sessions.get(number=2).tables.get(number=1)
    game = game_at_table(table, ruleset=tournament.ruleset)
    for wind, p in enumerate(eight[:4]):
        GameSeat.objects.create(game=game, seat=wind, player=p)
    HandFactory(game=game)
    response = organiser_client.post(
        seating_url(tournament, "seating_swap"),
        {"session": "2", "a": str(eight[0].pk), "b": str(eight[4].pk)},
    )
    assert response.status_code == 400
    assert "Scores were already entered" in response.content.decode()
    assert Seat.objects.get(table=table, wind=0).player == eight[0]


@pytest.mark.parametrize("who", ["plain", "referee", "stranger"])
def test_only_organisers_swap_and_upload(
    who: str,
    plain_user_client: Client,
    referee_client: Client,
    stranger_client: Client,
    tournament: Tournament,
    eight: list[Any],
) -> None:
    browser = {"plain": plain_user_client, "referee": referee_client, "stranger": stranger_client}[
        who
    ]
    swap = browser.post(
        seating_url(tournament, "seating_swap"),
        {"session": "2", "a": str(eight[0].pk), "b": str(eight[4].pk)},
    )
    assert swap.status_code == 403
    assert Seat.objects.get(table__session__number=2, player=eight[0]).table.number == 1
    plan = SimpleUploadedFile("plan.csv", b"1,1,1,2,3,4\n1,2,5,6,7,8\n", "text/csv")
    assert (
        browser.post(seating_url(tournament, "seating_upload"), {"file": plan}).status_code == 403
    )


def test_anonymous_swap_goes_to_login(client: Client, tournament: Tournament) -> None:
    response = client.post(seating_url(tournament, "seating_swap"), {})
    assert response.status_code == 302 and "login" in response["Location"]


def test_upload_a_predefined_plan(
    organiser_client: Client, tournament: Tournament, eight: list[Any]
) -> None:
    text = "round,table,east,south,west,north\n1,1,1,2,3,4\n1,2,5,6,7,8\n2,1,1,5,3,7\n2,2,2,6,4,8\n"
    response = organiser_client.post(
        seating_url(tournament, "seating_upload"),
        {"file": SimpleUploadedFile("plan.csv", text.encode(), "text/csv")},
    )
    assert response.status_code == 302
    plan = SeatingPlan.objects.get(tournament=tournament)
    assert plan.mode == SeatingPlan.Mode.UPLOADED
    assert response["Location"] == reverse(
        "tournaments:seating_plan", args=[tournament.slug, plan.pk]
    )
    page = organiser_client.get(response["Location"])
    assert page.status_code == 200
    assert "Extra meetings" in page.content.decode()


def test_upload_a_bad_plan_shows_the_row(
    organiser_client: Client, tournament: Tournament, eight: list[Any]
) -> None:
    text = "1,1,1,2,3\n"
    response = organiser_client.post(
        seating_url(tournament, "seating_upload"),
        {"file": SimpleUploadedFile("plan.csv", text.encode(), "text/csv")},
    )
    assert response.status_code == 400
    assert "row 1" in response.content.decode()
    assert not SeatingPlan.objects.filter(tournament=tournament).exists()
