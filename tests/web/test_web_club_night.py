"""A 13-player club night through the pages (issue 19 / issue 18 item 6): create the night,
seat 4+3+3+3 under the club's 4- and 3-player house rules, seated players enter their own
hands on the entry page, another player confirms them, and only then do ratings count."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from club.models import ClubNight, Membership, RatingChange
from scoring.models import Game
from tests.factories import ClubFactory, MembershipFactory, PlayerFactory, UserFactory

pytestmark = pytest.mark.django_db


def _login(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _ron_post(game: Game, number: int, players: int) -> dict[str, str]:
    """Hand ``number``: the seat after the dealer wins 2 han 30 fu from the next one."""
    dealer = number % players
    winner, loser = (dealer + 1) % players, (dealer + 2) % players
    return {
        "outcome": "ron",
        "winners": [str(winner)],
        "loser": str(loser),
        f"han_{winner}": "2",
        f"fu_{winner}": "30",
        "expected_version": str(game.version),
    }


def test_a_thirteen_player_club_night_seat_play_confirm_rate(django_capture_on_commit_callbacks):
    club = ClubFactory(slug="tigers", ruleset="wdmc-2019", ruleset_3p="wdmc-2019-3p")
    organiser = UserFactory()
    MembershipFactory(club=club, player=PlayerFactory(user=organiser), role=Membership.Role.ADMIN)
    players = [PlayerFactory(user=UserFactory()) for _ in range(13)]
    for p in players:
        MembershipFactory(club=club, player=p)
    admin = _login(organiser)

    # The club page offers a new night; the night is a link.
    assert "New club night" in admin.get(reverse("club:detail", args=[club.slug])).content.decode()
    created = admin.post(reverse("club:create_night", args=[club.slug]), {"date": "2026-03-05"})
    night = ClubNight.objects.get(club=club)
    assert created.status_code == 302 and created["Location"] == reverse(
        "club:night", args=[club.slug, night.pk]
    )
    assert reverse("club:night", args=[club.slug, night.pk]) in (
        Client().get(reverse("club:detail", args=[club.slug])).content.decode()
    )

    # Seat everyone who turned up: one table of 4, three of 3.
    seated = admin.post(
        reverse("club:night", args=[club.slug, night.pk]), {"players": [p.pk for p in players]}
    )
    assert seated.status_code == 302
    games = list(Game.objects.filter(club_game__night=night).order_by("pk"))
    assert sorted(g.seats.count() for g in games) == [3, 3, 3, 4]
    assert {g.ruleset for g in games if g.seats.count() == 3} == {"wdmc-2019-3p"}
    page = admin.get(reverse("club:night", args=[club.slug, night.pk])).content.decode()
    assert page.count(reverse("scoring:entry", args=[games[0].pk])) == 1

    for game in games:
        with django_capture_on_commit_callbacks(execute=True):  # run the rating tasks
            seats = [s.player for s in game.seats.order_by("seat")]
            n = len(seats)
            east = _login(seats[0].user)
            # Members find their own games on "Your tables".
            mine = east.get(reverse("scoring:referee")).content.decode()
            assert reverse("scoring:entry", args=[game.pk]) in mine
            for number in range(2 * n):  # East and South rounds, the dealer never keeps it
                game.refresh_from_db()
                answer = east.post(
                    reverse("scoring:add_hand", args=[game.pk]), _ron_post(game, number, n)
                )
                assert answer.status_code == 302, answer.content.decode()[:2000]
            game.refresh_from_db()
            east.post(
                reverse("scoring:finalize", args=[game.pk]),
                {"expected_version": str(game.version)},
            )
        game.refresh_from_db()
        assert game.status == Game.Status.FINISHED and not game.confirmed
        assert not RatingChange.objects.filter(game=game).exists()
        with django_capture_on_commit_callbacks(execute=True):
            # Another player at the table sees the hands waiting and confirms them.
            south = _login(seats[1].user)
            entry = south.get(reverse("scoring:entry", args=[game.pk])).content.decode()
            assert "unconfirmed" in entry and "Confirm" in entry
            assert 'id="awaiting-confirmation"' in entry
            for number in range(2 * n):
                game.refresh_from_db()
                south.post(
                    reverse("scoring:confirm_hand", args=[game.pk, number]),
                    {"expected_version": str(game.version)},
                )
        game.refresh_from_db()
        assert game.confirmed
        assert RatingChange.objects.filter(game=game).count() == n

    assert RatingChange.objects.values("player").distinct().count() == 13
    ratings = Client().get(reverse("club:ratings", args=[club.slug])).content.decode()
    assert str(players[0]) in ratings


def test_a_club_member_alone_cannot_rate_a_paper_game_through_the_pages(
    django_capture_on_commit_callbacks,
):
    """Issue 30.3: a seated member (no club admin) enters the paper sheet and finishes the
    game through the pages: the game waits, unrated, until another player at the table
    confirms it there; the member is offered no confirm button on his own entry."""
    club = ClubFactory(slug="cranes", ruleset="wdmc-2019")
    players = [PlayerFactory(user=UserFactory()) for _ in range(4)]
    for p in players:
        MembershipFactory(club=club, player=p)
    organiser = UserFactory()
    MembershipFactory(club=club, player=PlayerFactory(user=organiser), role=Membership.Role.ADMIN)
    night = ClubNight.objects.create(club=club, date="2026-03-05")
    _login(organiser).post(
        reverse("club:night", args=[club.slug, night.pk]), {"players": [p.pk for p in players]}
    )
    game = Game.objects.get(club_game__night=night)
    seats = [s.player for s in game.seats.order_by("seat")]
    east, south = _login(seats[0].user), _login(seats[1].user)
    with django_capture_on_commit_callbacks(execute=True):
        sheet = {"expected_version": str(game.version), "riichi_sticks_left": "0"}
        for seat, score in enumerate([45000, 35000, 25000, 15000]):
            sheet[f"score_{seat}"] = str(score)
            sheet[f"chombo_{seat}"] = "0"
        answer = east.post(reverse("scoring:paper_sheet", args=[game.pk]), sheet)
        assert answer.status_code == 302, answer.content.decode()[-1500:]
        game.refresh_from_db()
        east.post(reverse("scoring:finalize", args=[game.pk]), {"expected_version": game.version})
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.entry == Game.Entry.FINAL_SCORES
    assert not game.confirmed and not game.entry_confirmed
    assert not RatingChange.objects.filter(game=game).exists()
    own = east.get(reverse("scoring:entry", args=[game.pk])).content.decode()
    assert 'id="unconfirmed-entry"' in own and 'id="confirm-game"' not in own
    refused = east.post(
        reverse("scoring:confirm_game", args=[game.pk]), {"expected_version": game.version}
    )
    assert refused.status_code == 403
    entry = south.get(reverse("scoring:entry", args=[game.pk])).content.decode()
    assert 'id="confirm-game"' in entry and 'id="awaiting-confirmation"' in entry
    with django_capture_on_commit_callbacks(execute=True):
        south.post(
            reverse("scoring:confirm_game", args=[game.pk]), {"expected_version": game.version}
        )
    game.refresh_from_db()
    assert game.confirmed and game.entry_confirmed
    assert game.confirmed_by == [seats[1].pk]
    assert RatingChange.objects.filter(game=game).count() == 4
