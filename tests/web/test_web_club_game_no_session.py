"""Issue 33.5: a club night's game has no session, so its entry page never says "Session over:
finalize on time" nor shows the time-signal note; its players may still stop before the rules
end the game (a plain "Finalize the game", confirmed on a page that speaks of no session)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from club.models import ClubNight, Membership
from scoring.models import Game
from tests.factories import ClubFactory, MembershipFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


def _login(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_club_game_speaks_of_no_session_or_time_signal() -> None:
    club = ClubFactory(slug="cranes", ruleset="wdmc-2019")
    organiser = UserFactory()
    MembershipFactory(club=club, player=PlayerFactory(user=organiser), role=Membership.Role.ADMIN)
    players = [PlayerFactory(user=UserFactory()) for _ in range(4)]
    for p in players:
        MembershipFactory(club=club, player=p)
    admin = _login(organiser)
    admin.post(reverse("club:create_night", args=[club.slug]), {"date": "2026-03-05"})

    night = ClubNight.objects.get(club=club)
    admin.post(
        reverse("club:night", args=[club.slug, night.pk]), {"players": [p.pk for p in players]}
    )
    game = Game.objects.get(club_game__night=night)
    east = _login(game.seats.order_by("seat")[0].player.user)
    post = {
        "outcome": "ron",
        "winners": ["1"],
        "loser": "2",
        "han_1": "2",
        "fu_1": "30",
        "expected_version": "0",
    }
    assert east.post(reverse("scoring:add_hand", args=[game.pk]), post).status_code == 302

    page = east.get(reverse("scoring:entry", args=[game.pk])).content.decode()
    assert "Session over" not in page and "finalize on time" not in page.lower()
    # No time-signal UI: no box to mark the signal, no note, no "after the signal" hint.
    for marker in ('class="time-signal"', 'id="time-signal-note"', 'id="finalize-after-signal"'):
        assert marker not in page
    # The players may still stop here: one plain button, and its confirmation names no session.
    assert 'id="finalize"' in page and "Finalize the game" in page
    game.refresh_from_db()
    url = reverse("scoring:finalize", args=[game.pk])
    asked = east.post(url, {"expected_version": str(game.version), "end": "time"})
    text = asked.content.decode()
    assert asked.status_code == 200 and 'id="confirm-finalize"' in text
    assert "session" not in text.lower().split('id="confirm-finalize"')[1].split("</form>")[0]
    assert "EMA 2025 7.4" not in text
    east.post(url, {"expected_version": str(game.version), "end": "time", "confirm": "yes"})
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
