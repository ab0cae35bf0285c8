"""Issue 15 on the organiser console: lateness in minutes and seconds, rounded up per
started minute (EMA 2025 7.2)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import SessionFactory
from tournaments.models import Penalty, Tournament

pytestmark = pytest.mark.django_db


def _post(client: Client, tournament: Tournament, player: Any, **extra: str) -> Any:
    SessionFactory(tournament=tournament, number=1)
    data = {"player": player.pk, "kind": "lateness", "session": "1", "reason": "late", **extra}
    return client.post(reverse("tournaments:penalties", args=[tournament.slug]), data)


def test_console_takes_minutes_and_seconds(
    organiser_client: Client, tournament: Tournament, players: list[Any]
) -> None:
    page = organiser_client.get(reverse("tournaments:penalties", args=[tournament.slug]))
    assert 'name="seconds_late"' in page.content.decode()
    response = _post(organiser_client, tournament, players[0], minutes_late="9", seconds_late="30")
    assert response.status_code == 302, response.content.decode()[-2000:]
    penalty = Penalty.objects.get()
    assert (penalty.points, penalty.minutes_late) == (10000, 10)  # EMA 2025 7.2
    listing = organiser_client.get(reverse("tournaments:penalties", args=[tournament.slug]))
    assert "10 started minutes" in listing.content.decode()


@pytest.mark.parametrize(
    ("minutes", "seconds", "message"),
    [("9", "75", "less than or equal to 59"), ("10", "1", "substitute")],
)
def test_console_errors_sit_by_the_field(
    organiser_client: Client,
    tournament: Tournament,
    players: list[Any],
    minutes: str,
    seconds: str,
    message: str,
) -> None:
    response = _post(
        organiser_client, tournament, players[0], minutes_late=minutes, seconds_late=seconds
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert message in html and 'class="errorlist"' in html
    assert not Penalty.objects.exists()
