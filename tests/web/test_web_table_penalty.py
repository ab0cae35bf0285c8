"""Issue 15 on the organiser console: the EMA 2025 7.5 score-sheet penalty for a whole
table at once (2,000 points for each of the players)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tournaments.models import Penalty, Tournament

pytestmark = pytest.mark.django_db


def test_console_penalises_a_whole_table(
    organiser_client: Client, tournament: Tournament, players: list[Any], game: Any
) -> None:
    page = organiser_client.get(reverse("tournaments:penalties", args=[tournament.slug]))
    assert 'id="table-penalty"' in page.content.decode()
    url = reverse("tournaments:penalty_table", args=[tournament.slug])
    data = {"table-session": "1", "table-table": "1", "table-reason": "sheet unreadable"}
    response = organiser_client.post(url, data, follow=True)
    assert response.status_code == 200
    assert "each of the 4 players" in response.content.decode()
    assert sorted(Penalty.objects.values_list("player_id", "points")) == sorted(
        (p.pk, 2000) for p in players
    )


def test_console_names_a_missing_table(
    organiser_client: Client, tournament: Tournament, game: Any
) -> None:
    url = reverse("tournaments:penalty_table", args=[tournament.slug])
    data = {"table-session": "1", "table-table": "8", "table-reason": "sheet"}
    response = organiser_client.post(url, data)
    assert response.status_code == 400
    html = response.content.decode()
    assert "Session 1 has no table 8." in html and 'class="errorlist"' in html
    assert not Penalty.objects.exists()


def test_referees_do_not_use_the_console(
    referee_client: Client, tournament: Tournament, game: Any
) -> None:
    url = reverse("tournaments:penalty_table", args=[tournament.slug])
    data = {"table-session": "1", "table-table": "1", "table-reason": "sheet"}
    assert referee_client.post(url, data).status_code == 403
    assert not Penalty.objects.exists()
