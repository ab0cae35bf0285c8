"""Issue 15 on the console: disqualify a player (EMA 2025 6.12); the registration list and
the public standings mark them, the standings without a rank."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tournaments.models import Registration, Tournament
from tournaments.standings.services import recompute_standings

pytestmark = pytest.mark.django_db


def test_console_disqualifies_a_player(
    organiser_client: Client,
    client: Client,
    tournament: Tournament,
    players: list[Any],
    game: Any,
) -> None:
    url = reverse("tournaments:registrations", args=[tournament.slug])
    assert 'id="disqualify"' in organiser_client.get(url).content.decode()
    registration = Registration.objects.get(tournament=tournament, player=players[1])
    data = {"action": "disqualify", "dq-registration": registration.pk, "dq-reason": "cheating"}
    response = organiser_client.post(url, data, follow=True)
    html = response.content.decode()
    assert "Ben Berg disqualified (EMA 2025 6.12)." in html
    assert 'title="cheating">disqualified</span>' in html
    # Seated at table 1 of session 1: a substitute takes the seat (EMA 2025 7.3).
    assert "still seated in session 1 at table 1" in html
    recompute_standings(tournament_id=tournament.pk)
    standings = client.get(reverse("tournaments:standings", args=[tournament.slug]))
    row = standings.content.decode().split(f"/players/{players[1].pk}/")[1].split("</tr>")[0]
    assert "disqualified (not ranked)" in row


def test_console_needs_a_reason(
    organiser_client: Client, tournament: Tournament, players: list[Any]
) -> None:
    url = reverse("tournaments:registrations", args=[tournament.slug])
    registration = Registration.objects.get(tournament=tournament, player=players[1])
    response = organiser_client.post(
        url, {"action": "disqualify", "dq-registration": registration.pk, "dq-reason": ""}
    )
    assert response.status_code == 400 and 'class="errorlist"' in response.content.decode()
    registration.refresh_from_db()
    assert registration.disqualified_at is None
