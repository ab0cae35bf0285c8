"""Club nights seat whoever turns up in tables of 4 and 3 under the house rules (issue 19)."""

from __future__ import annotations

import itertools

import pytest

from club.models import Membership
from club.nightseating import seat_round, table_sizes
from club.services import seat_club_night
from core.errors import PermissionDenied, ValidationFailed
from core.models import AuditEntry
from scoring.models import Game
from tests.factories import (
    ClubFactory,
    ClubNightFactory,
    MembershipFactory,
    PlayerFactory,
    UserFactory,
)


@pytest.mark.parametrize(
    ("players", "sizes", "out"),
    [
        (3, [3], 0),
        (4, [4], 0),
        (5, [3], 2),
        (6, [3, 3], 0),
        (7, [4, 3], 0),
        (9, [3, 3, 3], 0),
        (13, [4, 3, 3, 3], 0),
        (14, [4, 4, 3, 3], 0),
        (16, [4, 4, 4, 4], 0),
    ],
)
def test_table_sizes_prefer_fours_and_seat_everyone_but_at_five(players, sizes, out):
    assert table_sizes(players) == (sizes, out)


def test_fewer_than_three_cannot_play():
    with pytest.raises(ValueError, match="at least 3"):
        table_sizes(2)


def _pairs(tables):
    return {tuple(sorted(p)) for t in tables for p in itertools.combinations(t, 2)}


def test_later_rounds_rotate_so_the_same_people_do_not_keep_meeting():
    ids = list(range(1, 14))
    first = seat_round(ids, seed=1)
    met = dict.fromkeys(_pairs(first.tables), 1)
    second = seat_round(ids, met=met, seed=2)
    assert sorted(len(t) for t in second.tables) == [3, 3, 3, 4]
    assert sorted(p for t in second.tables for p in t) == ids
    # 13 players, 4+3+3+3: a second round exists that repeats no pair; the search finds one.
    assert second.repeats == 0 and not (_pairs(second.tables) & set(met))


def test_sitting_out_takes_turns():
    ids = [1, 2, 3, 4, 5]
    first = seat_round(ids, seed=3)
    assert len(first.sitting_out) == 2
    second = seat_round(ids, sat_out=dict.fromkeys(first.sitting_out, 1), seed=4)
    assert not set(second.sitting_out) & set(first.sitting_out)
    assert set(first.sitting_out) <= set(second.tables[0])


@pytest.fixture
def night_world(db):
    club = ClubFactory(ruleset="wdmc-2019", ruleset_3p="wdmc-2019-3p")
    admin = UserFactory()
    MembershipFactory(club=club, player=PlayerFactory(user=admin), role=Membership.Role.ADMIN)
    players = [PlayerFactory() for _ in range(13)]
    for p in players:
        MembershipFactory(club=club, player=p)
    return club, ClubNightFactory(club=club), admin, players


def test_thirteen_players_make_one_table_of_four_and_three_of_three(night_world):
    _club, night, admin, players = night_world
    seating = seat_club_night(actor=admin, night=night, players=players)
    sizes = sorted(g.seats.count() for g in seating.games)
    assert sizes == [3, 3, 3, 4] and not seating.sitting_out and not seating.message
    # Each table under the club's house rules for its size.
    for game in seating.games:
        expected = "wdmc-2019" if game.seats.count() == 4 else "wdmc-2019-3p"
        assert game.ruleset == expected and game.club_game.night_id == night.pk
    assert AuditEntry.objects.filter(action="club_night.seat").count() == 1
    # The second round keeps apart those who met in the first.
    again = seat_club_night(actor=admin, night=night, players=players)
    first = _pairs([[s.player_id for s in g.seats.all()] for g in seating.games])
    second = _pairs([[s.player_id for s in g.seats.all()] for g in again.games])
    assert not first & second and again.repeats == 0


def test_five_players_one_table_of_three_and_a_clear_message(night_world):
    _club, night, admin, players = night_world
    seating = seat_club_night(actor=admin, night=night, players=players[:5])
    assert [g.seats.count() for g in seating.games] == [3]
    assert len(seating.sitting_out) == 2
    assert "sit out this round" in seating.message and "3 or 4 players" in seating.message
    for p in seating.sitting_out:
        assert str(p) in seating.message
    # Next round, the two who sat out play.
    nxt = seat_club_night(actor=admin, night=night, players=players[:5])
    assert {p.pk for p in seating.sitting_out} <= {s.player_id for s in nxt.games[0].seats.all()}


def test_refusals_write_nothing(night_world):
    club, night, admin, players = night_world
    member = UserFactory()
    MembershipFactory(club=club, player=PlayerFactory(user=member))
    with pytest.raises(PermissionDenied):
        seat_club_night(actor=member, night=night, players=players)
    with pytest.raises(ValidationFailed) as err:
        seat_club_night(actor=admin, night=night, players=players[:2])
    assert err.value.field == "players"
    club.ruleset_3p = "wdmc-2019"  # a 4-player ruleset cannot run a table of three
    club.save()
    with pytest.raises(ValidationFailed) as err:
        seat_club_night(actor=admin, night=night, players=players)
    assert err.value.field == "ruleset_3p"
    assert Game.objects.count() == 0
    assert not AuditEntry.objects.filter(action__in=["club_night.seat", "game.create"]).exists()


def test_the_club_sets_its_three_player_rules_and_confirmations(night_world):
    from club.services import update_club_rules

    club, _night, admin, _players = night_world
    club = update_club_rules(
        actor=admin, club=club, ruleset="wdmc-2019", ruleset_3p="wdmc-2019-3p", confirmations="all"
    )
    club.refresh_from_db()
    assert (club.ruleset_3p, club.confirmations) == ("wdmc-2019-3p", "all")
    for kwargs, field in (
        ({"ruleset_3p": "ema-2025"}, "ruleset_3p"),  # a 4-player ruleset for tables of 3
        ({"ruleset_3p": "nonsense"}, "ruleset_3p"),
        ({"confirmations": "some"}, "confirmations"),
    ):
        with pytest.raises(ValidationFailed) as err:
            update_club_rules(actor=admin, club=club, ruleset="wdmc-2019", **kwargs)
        assert err.value.field == field
    club.refresh_from_db()
    assert (club.ruleset_3p, club.confirmations) == ("wdmc-2019-3p", "all")
