"""Club play without a referee: seated players enter hands, the others confirm (issue 19)."""

from __future__ import annotations

import pytest

from club.models import Membership, RatingChange
from club.places import NightPlace
from club.ratings.league import league_standings
from core.errors import PermissionDenied, ValidationFailed
from scoring.models import Game
from scoring.services import confirm_hand, correct_hand, create_game, enter_hand, finalize_game
from tests.factories import (
    ClubFactory,
    ClubNightFactory,
    LeagueFactory,
    MembershipFactory,
    PlayerFactory,
    UserFactory,
    non_dealer_rons,
)

pytestmark = pytest.mark.django_db


def _table(confirmations: str = "one"):
    club = ClubFactory(ruleset="wdmc-2019", confirmations=confirmations)
    night = ClubNightFactory(club=club, league=LeagueFactory(club=club, min_games=1))
    users = [UserFactory() for _ in range(4)]
    players = [PlayerFactory(user=u) for u in users]
    for p in players:
        MembershipFactory(club=club, player=p)
    game = create_game(
        actor=users[0], players=players, ruleset="wdmc-2019", place=NightPlace(night)
    )
    return club, night, users, game


def _play(game, user):
    for hand in non_dealer_rons(8):
        game = enter_hand(actor=user, game=game, hand=hand, expected_version=game.version).game
    return finalize_game(actor=user, game=game, expected_version=game.version)


def test_unconfirmed_games_do_not_count_until_another_player_confirms(
    django_capture_on_commit_callbacks,
):
    club, night, users, game = _table("one")
    with django_capture_on_commit_callbacks(execute=True):
        game = _play(game, users[0])
    assert game.status == Game.Status.FINISHED and not game.confirmed
    assert game.hands.filter(confirmed=False).count() == 8
    assert not RatingChange.objects.exists()
    assert league_standings(night.league) == []  # the unconfirmed game is not in the table
    # The one who entered the hands cannot confirm them; a player from another table neither.
    with pytest.raises(PermissionDenied, match="another player at the table"):
        confirm_hand(actor=users[0], game=game, number=0, expected_version=game.version)
    stranger = UserFactory()
    MembershipFactory(club=club, player=PlayerFactory(user=stranger))
    with pytest.raises(PermissionDenied, match="seated at this game"):
        confirm_hand(actor=stranger, game=game, number=0, expected_version=game.version)
    with django_capture_on_commit_callbacks(execute=True):
        for number in range(8):
            game = confirm_hand(
                actor=users[2], game=game, number=number, expected_version=game.version
            )
    assert game.confirmed
    assert RatingChange.objects.filter(game=game).count() == 4
    rows = league_standings(night.league)
    assert {r.player.pk for r in rows if r.games == 1} == {s.player_id for s in game.seats.all()}


def test_all_confirmations_when_the_club_says_so():
    _club, _night, users, game = _table("all")
    game = enter_hand(
        actor=users[1], game=game, hand=non_dealer_rons(1)[0], expected_version=0
    ).game
    for n, user in enumerate((users[0], users[2])):
        game = confirm_hand(actor=user, game=game, number=0, expected_version=game.version)
        assert not game.confirmed and len(game.hands.get().confirmed_by) == n + 1
    with pytest.raises(ValidationFailed, match="already confirmed"):
        confirm_hand(actor=users[2], game=game, number=0, expected_version=game.version)
    game = confirm_hand(actor=users[3], game=game, number=0, expected_version=game.version)
    assert game.confirmed and game.hands.get().confirmed


def test_a_correction_needs_confirming_again_and_an_organiser_needs_none():
    club, _night, users, game = _table("one")
    game = enter_hand(
        actor=users[1], game=game, hand=non_dealer_rons(1)[0], expected_version=0
    ).game
    game = confirm_hand(actor=users[0], game=game, number=0, expected_version=game.version)
    assert game.confirmed
    game = correct_hand(
        actor=users[1],
        game=game,
        number=0,
        hand=non_dealer_rons(2)[1] | {"wins": [{"winner": 2, "han": 3, "fu": 30}]},
        expected_version=game.version,
        reason="3 han, not 2",
    )
    assert not game.confirmed
    organiser = UserFactory()
    MembershipFactory(club=club, player=PlayerFactory(user=organiser), role=Membership.Role.ADMIN)
    game = correct_hand(
        actor=organiser,
        game=game,
        number=0,
        hand=non_dealer_rons(1)[0],
        expected_version=game.version,
        reason="as the table agreed",
    )
    assert game.confirmed and game.hands.get().confirmed
