"""Issue 18 (5): a table playing on paper enters its final scores, the riichi sticks left and
its chombos on the web (EMA 2025 7.5 score sheet; 3.7 uma and sticks)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from scoring.models import Game

pytestmark = pytest.mark.django_db


def paper_url(game: Any) -> str:
    return reverse("scoring:paper_sheet", args=[game.pk])


def test_paper_sheet_scores_chombo_and_finalize(referee_client: Client, game: Any) -> None:
    entry = referee_client.get(reverse("scoring:entry", args=[game.pk])).content.decode()
    assert paper_url(game) in entry  # offered while no hand is entered
    page = referee_client.get(paper_url(game))
    assert page.status_code == 200 and "Chombos" in page.content.decode()  # EMA: -20,000
    data = {
        "expected_version": game.version,
        "score_0": "45000",
        "score_1": "32000",
        "score_2": "24000",
        "score_3": "18000",
        "riichi_sticks_left": "1",
        "chombo_0": "0",
        "chombo_1": "0",
        "chombo_2": "0",
        "chombo_3": "1",
    }
    response = referee_client.post(paper_url(game), data)
    assert response.status_code == 302, response.content.decode()[-1500:]
    game.refresh_from_db()
    assert game.entry == Game.Entry.FINAL_SCORES
    assert game.final_scores == {"scores": [45000, 32000, 24000, 18000], "riichi_sticks_left": 1}
    assert list(game.penalties.values_list("seat", "kind", "points")) == [(3, "chombo", 20000)]
    entry = referee_client.get(reverse("scoring:entry", args=[game.pk])).content.decode()
    assert 'id="paper-entered"' in entry
    referee_client.post(
        reverse("scoring:finalize", args=[game.pk]), {"expected_version": game.version}
    )
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    final = game.summary["final"]
    # The chombo is deducted after uma (EMA 2025): the last player is 20 points lower.
    assert final["result"][3] < final["result"][2]


def test_scores_that_do_not_add_up_are_refused(referee_client: Client, game: Any) -> None:
    data = {
        "expected_version": game.version,
        "score_0": "45000",
        "score_1": "32000",
        "score_2": "24000",
        "score_3": "10000",
        "riichi_sticks_left": "0",
    }
    response = referee_client.post(paper_url(game), data)
    assert response.status_code == 400
    assert 'role="alert"' in response.content.decode()
    game.refresh_from_db()
    assert game.final_scores is None


def test_strangers_cannot_enter_a_paper_sheet(stranger_client: Client, game: Any) -> None:
    assert stranger_client.get(paper_url(game)).status_code == 403
