"""A 13-player club night in the browser (issue 19): the club admin seats who turned up
(4+3+3+3), seated players enter their own hands on the phone page, another player at the
table confirms them, and the ratings page shows the players once the games count."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from club.models import ClubNight, Membership, RatingChange
from scoring.models import Game
from tests.browser.pages import PHONE, logged_in_page
from tests.factories import ClubFactory, MembershipFactory, PlayerFactory, UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _play_on_phone(page: Any, players: int) -> None:
    """East and South rounds; each hand won by the seat after the dealer (2 han 30 fu)."""
    for number in range(2 * players):
        dealer = number % players
        winner, loser = (dealer + 1) % players, (dealer + 2) % players
        page.locator("label.chip:has(input[name='outcome'][value='ron'])").click()
        page.locator(f"label.chip:has(input[name='winners'][value='{winner}'])").click()
        page.locator(f"label.chip:has(input[name='loser'][value='{loser}'])").click()
        block = page.locator(f".winner-block[data-seat='{winner}']")
        block.locator(f"label.chip:has(input[name='han_{winner}'][value='2'])").click()
        block.locator("label.chip:has(input[value='30'])").click()
        page.wait_for_selector("#preview table")
        page.locator("#confirm-hand").click()
        page.wait_for_selector(".messages li.success")


def test_a_thirteen_player_club_night_in_the_browser(
    chromium: Any, live_server: Any, artifacts: Path
) -> None:
    club: Any = ClubFactory(name="Tiger Club", slug="tigers")
    organiser: Any = UserFactory()
    MembershipFactory(club=club, player=PlayerFactory(user=organiser), role=Membership.Role.ADMIN)
    players: list[Any] = [PlayerFactory(user=UserFactory()) for _ in range(13)]
    for p in players:
        MembershipFactory(club=club, player=p)

    admin = logged_in_page(chromium, live_server, organiser, viewport=PHONE)
    admin.goto(f"{live_server.url}/clubs/tigers/")
    admin.fill("input[name='date']", "2026-03-05")
    admin.get_by_role("button", name="Create").click()
    admin.wait_for_selector("text=Seat a round")
    for p in players:  # the 13 who turned up (the organiser does not play tonight)
        admin.locator(f"input[name='players'][value='{p.pk}']").check()
    admin.get_by_role("button", name="Seat these players").click()
    admin.wait_for_selector(".messages li.success")
    admin.screenshot(path=str(artifacts / "club-night-seated-390.png"), full_page=True)
    night = ClubNight.objects.get(club=club)
    games = list(Game.objects.filter(club_game__night=night).order_by("pk"))
    assert sorted(g.seats.count() for g in games) == [3, 3, 3, 4]

    # Play the table of 4 and one table of 3 on the phone, each entered by a seated player.
    played = [next(g for g in games if g.seats.count() == 4)]
    played.append(next(g for g in games if g.seats.count() == 3))
    for game in played:
        seats = [s.player for s in game.seats.order_by("seat")]
        page = logged_in_page(chromium, live_server, seats[0].user, viewport=PHONE)
        page.goto(f"{live_server.url}/games/referee/")
        page.locator(f"#club-games a[href='/games/{game.pk}/entry/']").click()
        page.wait_for_selector("#hand-form")
        _play_on_phone(page, len(seats))
        page.locator("#finalize").click()
        page.wait_for_selector("text=This game is finalized.")
        assert not RatingChange.objects.filter(game=game).exists()  # not confirmed yet

        other = logged_in_page(chromium, live_server, seats[1].user, viewport=PHONE)
        other.goto(f"{live_server.url}/games/{game.pk}/entry/")
        other.wait_for_selector("#unconfirmed")
        if len(seats) == 3:
            other.screenshot(path=str(artifacts / "club-confirm-390.png"), full_page=True)
        for _ in range(2 * len(seats)):
            other.locator("#unconfirmed button").first.click()
            other.wait_for_selector(".messages li.success")
        assert other.locator("#unconfirmed").count() == 0
        game.refresh_from_db()
        assert game.confirmed
        assert RatingChange.objects.filter(game=game).count() == len(seats)

    admin.goto(f"{live_server.url}/clubs/tigers/ratings/")
    text = admin.locator("body").inner_text()
    for game in played:
        for seat in game.seats.all():
            assert str(seat.player) in text
    admin.screenshot(path=str(artifacts / "club-ratings-390.png"), full_page=True)
