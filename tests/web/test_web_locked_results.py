"""Issue 15 on the web: locked results, session states, "finalize on time" with a
confirmation after the time signal (EMA 2025 7.4), reopening a game and a session."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from core.audit import audit_for_tournament
from scoring.models import Game
from scoring.services import enter_hand, finalize_game
from tests.factories import GameFactory, SessionFactory, TableFactory, non_dealer_rons
from tournaments.models import Session, Tournament

pytestmark = pytest.mark.django_db


def _played(game: Game, actor: Any) -> Game:
    for hand in non_dealer_rons(8):
        game = enter_hand(actor=actor, game=game, hand=hand, expected_version=game.version).game
    return finalize_game(actor=actor, game=game, expected_version=game.version)


def _close(game: Game, tournament: Tournament, *, publish: bool = False) -> None:
    Session.objects.filter(pk=game.table.session_id).update(
        status=Session.Status.CLOSED, closed_at=timezone.now()
    )
    if publish:
        Tournament.objects.filter(pk=tournament.pk).update(
            status=Tournament.Status.PUBLISHED, published_at=timezone.now()
        )


def test_referee_list_shows_running_sessions_only(
    referee_client: Client, game: Game, tournament: Tournament
) -> None:
    seated = GameFactory(
        table=TableFactory(
            session=SessionFactory(tournament=tournament, number=2, status="seated"), number=1
        )
    )
    closed = GameFactory(
        table=TableFactory(
            session=SessionFactory(tournament=tournament, number=3, status="closed"), number=1
        )
    )
    html = referee_client.get(reverse("scoring:referee")).content.decode()
    assert reverse("scoring:entry", args=[game.pk]) in html
    assert reverse("scoring:entry", args=[seated.pk]) not in html
    assert reverse("scoring:entry", args=[closed.pk]) not in html


def test_no_hand_enters_a_session_that_has_not_started(referee_client: Client, game: Game) -> None:
    Session.objects.filter(pk=game.table.session_id).update(status=Session.Status.SEATED)
    page = referee_client.get(reverse("scoring:entry", args=[game.pk])).content.decode()
    assert 'id="locked"' in page and "has not started yet" in page
    assert 'id="hand-form"' not in page
    data = {
        "outcome": "ron",
        "winners": ["1"],
        "loser": "2",
        "han_1": "3",
        "fu_1": "30",
        "expected_version": "0",
    }
    response = referee_client.post(reverse("scoring:add_hand", args=[game.pk]), data)
    assert response.status_code == 400 and "has not started yet" in response.content.decode()
    assert game.hands.count() == 0


def test_referee_cannot_correct_a_published_game(
    referee_client: Client, referee: Any, game: Game, tournament: Tournament
) -> None:
    """The issue's report: han 13 on the last hand of a published game moved first place."""
    game = _played(game, referee)
    _close(game, tournament, publish=True)
    before = list(game.hands.order_by("number").values_list("data", flat=True))
    url = reverse("scoring:edit_last", args=[game.pk])
    response = referee_client.get(url)
    assert response.status_code == 302  # back to the table, with the reason
    page = referee_client.get(reverse("scoring:entry", args=[game.pk])).content.decode()
    assert "published" in page and 'id="reopen-form"' not in page
    data = {
        "outcome": "ron",
        "winners": ["1"],
        "loser": "2",
        "han_1": "13",
        "expected_version": str(game.version),
        "reason": "han 13",
    }
    response = referee_client.post(url, data)
    assert response.status_code == 302
    assert list(game.hands.order_by("number").values_list("data", flat=True)) == before
    response = referee_client.post(
        reverse("scoring:reopen", args=[game.pk]),
        {"expected_version": str(game.version), "reason": "again"},
    )
    assert Game.objects.get(pk=game.pk).status == Game.Status.FINISHED


def test_finalize_on_time_is_offered_after_the_signal_or_to_an_organiser(
    referee_client: Client, organiser_client: Client, referee: Any, game: Game
) -> None:
    session = game.table.session
    Session.objects.filter(pk=session.pk).update(started_at=timezone.now())
    enter_hand(actor=referee, game=game, hand=non_dealer_rons(1)[0], expected_version=0)
    entry = reverse("scoring:entry", args=[game.pk])
    page = referee_client.get(entry).content.decode()
    assert "Session over: finalize on time" not in page and 'id="finalize-after-signal"' in page
    # A forged POST is refused by the service (EMA 2025 7.4).
    url = reverse("scoring:finalize", args=[game.pk])
    referee_client.post(url, {"expected_version": "1", "end": "time", "confirm": "yes"})
    assert Game.objects.get(pk=game.pk).status == Game.Status.IN_PROGRESS
    # The organiser sees the button; the confirmation page says it is an override.
    assert "Session over: finalize on time" in organiser_client.get(entry).content.decode()
    asked = organiser_client.post(url, {"expected_version": "1", "end": "time"})
    assert 'id="override-note"' in asked.content.decode()
    organiser_client.post(
        url, {"expected_version": "1", "end": "time", "confirm": "yes", "reason": "fire alarm"}
    )
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.end == "time"
    # ... and undoes it on the web while the session runs.
    page = organiser_client.get(entry).content.decode()
    assert 'id="reopen-form"' in page
    organiser_client.post(
        reverse("scoring:reopen", args=[game.pk]),
        {"expected_version": str(game.version), "reason": "ended too early"},
    )
    assert Game.objects.get(pk=game.pk).status == Game.Status.IN_PROGRESS


def test_organiser_reopens_a_closed_session_with_a_reason(
    organiser_client: Client, referee: Any, game: Game, tournament: Tournament
) -> None:
    game = _played(game, referee)
    _close(game, tournament, publish=True)
    url = reverse("tournaments:session_action", args=[tournament.slug, 1, "reopen"])
    page = organiser_client.get(
        reverse("tournaments:session", args=[tournament.slug, 1])
    ).content.decode()
    assert 'id="reopen-session-form"' in page
    organiser_client.post(url, {"reason": ""})
    assert Session.objects.get(pk=game.table.session_id).status == Session.Status.CLOSED
    organiser_client.post(url, {"reason": "table 1 sheet"})
    assert Session.objects.get(pk=game.table.session_id).status == Session.Status.RUNNING
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING and tournament.published_at is None
    entry = audit_for_tournament(tournament.pk).get(action="session.reopen")
    assert entry.reason == "table 1 sheet"
