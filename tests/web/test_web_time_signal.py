"""The referee's "time signal" checkbox and the end by time on the game pages.

EMA 2025 7.4: 15 minutes before the end of a session a signal sounds; the hand in progress is
finished and one more hand is played (a chombo counts as one), then the game ends by time. The
engine reads the hand key ``"time_signal": true`` under rules with ``time_limit: "ema"``
(scoring/engine/README.md); the entry form sends it only when the box is checked.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from scoring.models import Game
from tests.factories import ron

pytestmark = pytest.mark.django_db

LABEL = "Time signal sounded during this hand (EMA 7.4)"
TIME_END = "Game over: time (EMA 2025 7.4)"


def ron_post(game: Game, **extra: Any) -> dict[str, Any]:
    """Ben (seat 1) wins 3 han 30 fu from Clara (seat 2), at the game's current version."""
    game.refresh_from_db()
    data = {
        "outcome": "ron",
        "winners": ["1"],
        "loser": "2",
        "han_1": "3",
        "fu_1": "30",
        "expected_version": str(game.version),
    }
    data.update(extra)
    return data


def checkbox(html: str) -> str | None:
    """The rendered time-signal <input>, or None when the form does not offer it."""
    found = re.search(r'<input[^>]*name="time_signal"[^>]*>', html)
    return found.group(0) if found else None


def add(client: Client, game: Game, **extra: Any) -> Any:
    return client.post(reverse("scoring:add_hand", args=[game.pk]), ron_post(game, **extra))


def set_rules(game: Game, ruleset: str, overrides: dict[str, Any] | None = None) -> None:
    game.ruleset = ruleset
    game.rule_overrides = overrides or {}
    game.save(update_fields=["ruleset", "rule_overrides"])


@pytest.mark.parametrize(
    ("ruleset", "overrides", "shown"),
    [
        ("ema-2025", None, True),
        ("wdmc-2019", None, False),
        ("wdmc-2019", {"time_limit": "ema"}, True),  # the rules key can be overridden
    ],
)
def test_checkbox_only_under_ema_time_limit(
    referee_client: Client, game: Game, ruleset: str, overrides: Any, shown: bool
) -> None:
    """EMA 2025 7.4: the box is offered only where the rules end a game by the time signal."""
    set_rules(game, ruleset, overrides)
    html = referee_client.get(reverse("scoring:entry", args=[game.pk])).content.decode()
    assert (LABEL in html) is shown
    box = checkbox(html)
    assert (box is not None) is shown
    if box:
        assert 'type="checkbox"' in box and "checked" not in box  # unchecked by default


def test_checked_box_stores_the_signal_and_unchecked_leaves_no_key(
    referee_client: Client, game: Game
) -> None:
    """EMA 2025 7.4: ``time_signal: true`` only when checked; never ``false``."""
    assert add(referee_client, game).status_code == 302
    assert "time_signal" not in game.hands.get(number=0).data
    assert add(referee_client, game, time_signal="on").status_code == 302
    assert game.hands.get(number=1).data == {**ron(winner=1, loser=2, han=3), "time_signal": True}


def test_box_is_ignored_where_not_offered(referee_client: Client, game: Game) -> None:
    set_rules(game, "wdmc-2019")
    assert add(referee_client, game, time_signal="on").status_code == 302
    assert "time_signal" not in game.hands.get().data


def test_preview_reflects_the_signal(referee_client: Client, game: Game) -> None:
    """EMA 2025 7.4: the preview says one more hand follows, then that it ends the game."""
    url = reverse("scoring:preview", args=[game.pk])
    html = referee_client.post(url, ron_post(game, time_signal="on")).content.decode()
    assert "one more hand after this one" in html
    assert "one more hand" not in referee_client.post(url, ron_post(game)).content.decode()
    add(referee_client, game, time_signal="on")
    html = referee_client.post(url, ron_post(game)).content.decode()
    assert "This hand ends the game: time (EMA 2025 7.4)." in html
    assert game.hands.count() == 1


def test_signal_hand_and_one_more_end_the_game_by_time(
    referee_client: Client, client: Client, game: Game
) -> None:
    """EMA 2025 7.4: the signal hand and exactly one more are played, then the game is over."""
    entry = reverse("scoring:entry", args=[game.pk])
    add(referee_client, game)  # E1: Ben wins, the deal moves on
    add(referee_client, game, time_signal="on")  # E2: the signal sounds
    html = referee_client.get(entry).content.decode()
    assert "The time signal sounded during E2: the next hand is the last one" in html
    assert checkbox(html) is None  # one signal per game
    assert html.count(">time signal<") == 2  # the note and the hand in the list
    assert 'id="hand-form"' in html

    add(referee_client, game)  # the one more hand
    game.refresh_from_db()
    assert game.summary["ended_by"] == "time" and game.summary["next"] is None
    html = referee_client.get(entry).content.decode()
    assert TIME_END in html
    assert "The time signal sounded during E2 and one more hand has been played." in html
    assert "game over: time" in html
    assert 'id="hand-form"' not in html and checkbox(html) is None
    assert 'id="finalize"' in html

    # Another hand is refused: by the services, and in the preview with the engine's message
    # on the hand's outcome.
    response = add(referee_client, game)
    assert response.status_code == 400
    assert "no more hands" in response.content.decode()
    assert game.hands.count() == 3
    preview = referee_client.post(reverse("scoring:preview", args=[game.pk]), ron_post(game))
    assert "the EMA 2025 7.4 time signal sounded during hand 1" in preview.content.decode()

    public = client.get(reverse("scoring:game", args=[game.pk])).content.decode()
    assert TIME_END in public
    assert public.count('<span class="badge warn">time signal</span>') == 1


def test_game_without_the_signal_says_nothing_about_time(client: Client, game: Game) -> None:
    from scoring.services import enter_hand

    enter_hand(actor=None, game=game, hand=ron(winner=1, loser=2, han=3), expected_version=0)
    html = client.get(reverse("scoring:game", args=[game.pk])).content.decode()
    assert TIME_END not in html and "time signal" not in html


def test_correction_keeps_or_clears_the_signal(referee_client: Client, game: Game) -> None:
    """EMA 2025 7.4: correcting the signal hand shows the box pre-filled; it can be cleared."""
    add(referee_client, game, time_signal="on")
    url = reverse("scoring:edit_last", args=[game.pk])
    box = checkbox(referee_client.get(url).content.decode())
    assert box is not None and "checked" in box

    keep = ron_post(game, han_1="4", time_signal="on", reason="misread han")
    assert referee_client.post(url, keep).status_code == 302
    assert game.hands.get().data["time_signal"] is True
    assert game.hands.get().data["wins"][0]["han"] == 4

    clear = ron_post(game, reason="the signal came later")
    assert referee_client.post(url, clear).status_code == 302
    assert "time_signal" not in game.hands.get().data
    box = checkbox(referee_client.get(url).content.decode())
    assert box is not None and "checked" not in box


def test_correcting_the_hand_after_the_signal_keeps_it(referee_client: Client, game: Game) -> None:
    """EMA 2025 7.4: the signal sits on the hand before; correcting the last hand keeps it."""
    add(referee_client, game, time_signal="on")
    add(referee_client, game)
    url = reverse("scoring:edit_last", args=[game.pk])
    assert checkbox(referee_client.get(url).content.decode()) is None
    response = referee_client.post(url, ron_post(game, han_1="4", reason="misread han"))
    assert response.status_code == 302
    assert game.hands.get(number=0).data["time_signal"] is True
    assert "time_signal" not in game.hands.get(number=1).data
    game.refresh_from_db()
    assert game.summary["ended_by"] == "time"


def test_correction_keeps_a_stored_signal_under_other_rules(
    referee_client: Client, game: Game
) -> None:
    """A flag sent through the API under rules that ignore it is shown and kept, not lost."""
    from scoring.services import enter_hand

    set_rules(game, "wdmc-2019")
    hand = {**ron(winner=1, loser=2, han=3), "time_signal": True}
    enter_hand(actor=None, game=game, hand=hand, expected_version=game.version)
    url = reverse("scoring:edit_last", args=[game.pk])
    box = checkbox(referee_client.get(url).content.decode())
    assert box is not None and "checked" in box
    data = ron_post(game, han_1="4", time_signal="on", reason="misread han")
    assert referee_client.post(url, data).status_code == 302
    assert game.hands.get().data["time_signal"] is True
