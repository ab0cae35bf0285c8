"""Issue 33: Confirm's one request (header X-Hanchan-Swap) is answered, while the game goes on,
with a small fragment (scoreboard, hand list, a fresh expected_version), not the whole entry
page; the non-JS POST-redirect-GET path is unchanged, and the whole page comes back once the
hand ends the game."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.models import Game
from scoring.services import enter_hand
from tests.factories import non_dealer_rons

pytestmark = pytest.mark.django_db


def _dealer_tenpai_draw(version: int) -> dict[str, str]:
    # EMA 2025 3.4.5: the dealer tenpai keeps the deal, so the game goes on.
    return {"outcome": "draw", "tenpai": ["0"], "expected_version": str(version)}


def test_confirm_swap_answers_a_fragment_and_prg_is_unchanged(
    referee_client: Client, game: Game
) -> None:
    url = reverse("scoring:add_hand", args=[game.pk])
    page = referee_client.get(reverse("scoring:entry", args=[game.pk])).content.decode()

    swap = referee_client.post(url, _dealer_tenpai_draw(0), HTTP_X_HANCHAN_SWAP="1")
    html = swap.content.decode()
    assert swap.status_code == 200
    assert 'id="scoreboard"' in html and 'id="hand-list"' in html and "Hand saved." in html
    assert 'id="offline-config"' in html and '"version": 1' in html.replace('":1', '": 1')
    assert 'name="expected_version" value="1"' in html  # the actions' forms, fresh
    # Not the page: no document, no hand form's fields, far fewer bytes.
    assert "<html" not in html and 'name="outcome"' not in html
    assert len(html) * 2 < len(page)

    # Without the header: POST, redirect, GET, as before.
    plain = referee_client.post(url, _dealer_tenpai_draw(1))
    assert plain.status_code == 302 and plain["Location"] == reverse(
        "scoring:entry", args=[game.pk]
    )
    game.refresh_from_db()
    assert game.version == 2 and game.hands.count() == 2


def test_confirm_swap_reads_the_game_once(referee_client: Client, game: Game) -> None:
    """Issue 33.4: the answer is built from the game enter_hand wrote (its seats and hands
    loaded): after the write nothing of the game is read again (it read game, seats and hands
    a second time)."""
    url = reverse("scoring:add_hand", args=[game.pk])
    with CaptureQueriesContext(connection) as captured:
        swap = referee_client.post(url, _dealer_tenpai_draw(0), HTTP_X_HANCHAN_SWAP="1")
    assert swap.status_code == 200 and "Hand saved." in swap.content.decode()
    sql = [q["sql"] for q in captured.captured_queries]
    audit = max(i for i, text in enumerate(sql) if text.startswith('INSERT INTO "club_auditentry"'))
    game_tables = ('"scoring_game"', '"scoring_gameseat"', '"scoring_hand"', '"club_player"')
    reread = [text for text in sql[audit + 1 :] if any(t in text for t in game_tables)]
    assert reread == []


def test_confirm_swap_answers_the_whole_page_once_the_game_is_over(
    referee_client: Client, referee: Any, game: Game
) -> None:
    hands = non_dealer_rons(8)
    for version, hand in enumerate(hands[:-1]):
        enter_hand(actor=referee, game=game, hand=hand, expected_version=version)
    last = hands[-1]
    win = last["wins"][0]
    data = {
        "outcome": "ron",
        "winners": [str(win["winner"])],
        "loser": str(last["loser"]),
        f"han_{win['winner']}": str(win["han"]),
        f"fu_{win['winner']}": str(win["fu"]),
        "expected_version": "7",
    }
    swap = referee_client.post(
        reverse("scoring:add_hand", args=[game.pk]), data, HTTP_X_HANCHAN_SWAP="1"
    )
    html = swap.content.decode()
    assert swap.status_code == 200, html[:500]
    assert "<html" in html and 'id="finalize"' in html
