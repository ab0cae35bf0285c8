"""The public results.pdf is built once per standings version (issue 14, item 7): a PDF of 400
players takes seconds, and six concurrent builds stalled the standings reads."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client, override_settings
from django.urls import reverse

from tests.factories import PlayerFactory
from tests.test_health import closed_port, redis_at
from tournaments import pdf
from tournaments.models import StandingRow, Tournament
from tournaments.standings.cache import touch

pytestmark = pytest.mark.django_db


@pytest.fixture
def builds(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls: list[int] = []
    original = pdf.final_results_pdf

    def counting(tournament: Tournament) -> bytes:
        calls.append(tournament.pk)
        return original(tournament)

    monkeypatch.setattr(pdf, "final_results_pdf", counting)
    return calls


def test_results_pdf_is_built_once_per_standings_version(
    client: Client, tournament: Any, builds: list[int]
) -> None:
    StandingRow.objects.create(tournament=tournament, player=PlayerFactory(), rank=1, total=9)
    tournament.status = Tournament.Status.PUBLISHED
    tournament.save()
    url = reverse("tournaments:results_pdf", args=[tournament.slug])
    first, second = client.get(url), client.get(url)
    assert first.status_code == second.status_code == 200
    assert first.content == second.content and first.content.startswith(b"%PDF")
    assert len(builds) == 1
    touch(tournament.pk)  # the standings changed: a new version, a new PDF
    assert client.get(url).status_code == 200
    assert len(builds) == 2
    tournament.refresh_from_db()
    tournament.name = "Hamburg Open 2026"  # the heading changed: built again
    tournament.save()
    client.get(url)
    assert len(builds) == 3


def test_results_pdf_is_served_with_the_cache_down(
    client: Client, tournament: Any, builds: list[int]
) -> None:
    tournament.status = Tournament.Status.PUBLISHED
    tournament.save()
    url = reverse("tournaments:results_pdf", args=[tournament.slug])
    with override_settings(CACHES=redis_at(closed_port())):
        response = client.get(url)
    assert response.status_code == 200 and response.content.startswith(b"%PDF")
    assert len(builds) == 1
