"""Issue 22: no English left in a translated page - seat winds and tie-break names."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from scoring.models import Game
from tournaments.models import Seat, StandingRow, Tournament
from tournaments.views.public import standings_lines

pytestmark = pytest.mark.django_db


def test_where_do_i_sit_shows_the_winds_in_the_page_language(
    client: Client, game: Game, tournament: Tournament
) -> None:
    url = reverse("tournaments:seating", args=[tournament.slug])
    try:
        english = client.get(url).content.decode()
        german = client.get(url, HTTP_ACCEPT_LANGUAGE="de").content.decode()
        dutch = client.get(url, HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    finally:
        translation.activate("en")  # the middleware leaves the last language active
    assert "<th>East</th>" in english
    assert "<th>Ost</th>" in german and "<th>East</th>" not in german
    assert "<th>Oost</th>" in dutch and "<th>Noord</th>" in dutch
    assert Seat.WINDS == ["East", "South", "West", "North"]  # the API's names stay English


def test_tie_break_names_follow_the_language() -> None:
    row = StandingRow(player_id=1, total=0, per_session=[], tie_break_values=[42, 3])
    tie_breaks = ("best_game", "most_firsts")
    with translation.override("en"):
        assert standings_lines([row], [], tie_breaks)[0]["tie_breaks"] == (
            "best game: 42; first places: 3"
        )
    with translation.override("fr"):
        assert standings_lines([row], [], tie_breaks)[0]["tie_breaks"] == (
            "meilleure partie: 42; premières places: 3"
        )


def test_small_labels_of_issue_18_read_right() -> None:
    """French agrees with "la session" (was "Session 1 Clôturé"); the admin's plural is English."""
    from scoring.models import GamePenalty
    from tournaments.models import Session

    with translation.override("fr"):
        assert str(Session.Status.CLOSED.label) == "Clôturée"
    assert GamePenalty._meta.verbose_name_plural == "game penalties"
