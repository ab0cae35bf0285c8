"""Tile cross-check on hand entry: the tiles are evaluated under the game's rules and situation,
stored on the hand (`Hand.tile_check`) and in the audit entry; a mismatch never blocks the entry
(the referee decides), tiles that are no hand are refused naming "tiles"."""

from __future__ import annotations

import pytest

from core.audit import audit_for_game
from core.errors import ValidationFailed
from scoring.models import Game, Hand
from scoring.services import correct_hand, enter_hand
from tests.factories import (
    GameFactory,
    StaffRoleFactory,
    TableFactory,
    draw,
    ron,
    tsumo,
)

pytestmark = pytest.mark.django_db

# Riichi, menzen tsumo, pinfu: 3 han 20 fu (EMA 2025 4.1.1: no self-draw fu with pinfu).
PINFU_TSUMO = "234567m234p2355s+1s"
# Open, the only yaku a pon of south: 1 han 30 fu for the player whose seat wind is south.
SOUTH_PON = "123m456p789s5m+5m 222z"


@pytest.fixture
def game(referee) -> Game:
    table = TableFactory()
    StaffRoleFactory(tournament=table.session.tournament, user=referee, role="referee")
    return GameFactory(table=table, ruleset="ema-2025")


def test_matching_tiles_are_stored_without_mismatches(game, referee):
    hand = tsumo(winner=1, han=3, fu=20, riichi=[1])
    game = enter_hand(
        actor=referee, game=game, hand=hand, expected_version=0, tiles=PINFU_TSUMO
    ).game
    stored = Hand.objects.get(game=game, number=0)
    assert stored.tiles == PINFU_TSUMO
    assert stored.tile_check["han"] == 3 and stored.tile_check["fu"] == 20
    assert stored.tile_check["yakuman"] == 0
    assert {y["name"] for y in stored.tile_check["yaku"]} == {"Menzen Tsumo", "Riichi", "Pinfu"}
    assert stored.tile_check["mismatches"] == []


def test_a_mismatch_is_kept_and_audited_but_does_not_block(game, referee):
    hand = tsumo(winner=1, han=3, fu=30, riichi=[1])  # the referee wrote 30 fu
    game = enter_hand(
        actor=referee, game=game, hand=hand, expected_version=0, tiles=PINFU_TSUMO
    ).game
    assert game.version == 1 and game.hands.count() == 1  # saved as entered
    check = Hand.objects.get(game=game, number=0).tile_check
    assert check["mismatches"][0] == "fu: entered 30, the tiles give 20"
    entry = audit_for_game(game.pk).get(action="hand.add")
    assert entry.after["hand"]["tile_check"] == check


def test_situation_takes_riichi_and_tsumo_from_the_hand(game, referee):
    # Without the riichi in the hand the tiles give 2 han (tsumo, pinfu): a mismatch.
    hand = tsumo(winner=1, han=3, fu=20)
    game = enter_hand(
        actor=referee, game=game, hand=hand, expected_version=0, tiles=PINFU_TSUMO
    ).game
    check = Hand.objects.get(game=game, number=0).tile_check
    assert check["han"] == 2 and check["mismatches"][0] == "han: entered 3, the tiles give 2"


def test_seat_wind_follows_the_dealer_of_the_replayed_hand(game, referee):
    # Hand 0: dealer seat 0, so seat 1 sits south and the south pon is a yaku.
    game = enter_hand(
        actor=referee,
        game=game,
        hand=ron(winner=1, loser=0, han=1, fu=30),
        expected_version=0,
        tiles=SOUTH_PON,
    ).game
    assert Hand.objects.get(game=game, number=0).tile_check["mismatches"] == []
    # Hand 1: the dealership moved to seat 1; now seat 2 sits south, seat 1 is east.
    game = enter_hand(
        actor=referee,
        game=game,
        hand=ron(winner=2, loser=0, han=1, fu=30),
        expected_version=1,
        tiles=SOUTH_PON,
    ).game
    assert Hand.objects.get(game=game, number=1).tile_check["yaku"] == [
        {"name": "Yakuhai (seat wind south)", "ema_name": "Seat Wind Triplet", "han": 1}
    ]
    # Seat 1 (east now) has no yaku with these tiles: refused, naming "tiles".
    with pytest.raises(ValidationFailed) as err:
        enter_hand(
            actor=referee,
            game=game,
            hand=ron(winner=1, loser=0, han=1, fu=30),
            expected_version=2,
            tiles=SOUTH_PON,
        )
    assert err.value.field == "tiles" and "no yaku" in err.value.message


def test_tile_error_is_a_400_field_and_nothing_is_saved(game, referee):
    with pytest.raises(ValidationFailed) as err:
        enter_hand(
            actor=referee,
            game=game,
            hand=ron(winner=1, loser=2, han=1, fu=30),
            expected_version=0,
            tiles="123m",
        )
    assert err.value.field == "tiles"
    game.refresh_from_db()
    assert game.version == 0 and not game.hands.exists()
    assert not audit_for_game(game.pk).filter(action="hand.add").exists()


def test_tiles_need_a_single_win(game, referee):
    with pytest.raises(ValidationFailed) as err:
        enter_hand(actor=referee, game=game, hand=draw(), expected_version=0, tiles=PINFU_TSUMO)
    assert err.value.field == "tiles"
    assert not Hand.objects.filter(game=game).exists()


def test_no_tiles_no_check(game, referee):
    game = enter_hand(
        actor=referee, game=game, hand=ron(winner=1, loser=2, han=2), expected_version=0
    ).game
    assert Hand.objects.get(game=game, number=0).tile_check is None


def test_correction_rechecks_the_tiles_and_audits_before_and_after(game, referee):
    game = enter_hand(
        actor=referee,
        game=game,
        hand=tsumo(winner=1, han=3, fu=30, riichi=[1]),
        expected_version=0,
        tiles=PINFU_TSUMO,
    ).game
    game = correct_hand(
        actor=referee,
        game=game,
        number=0,
        hand=tsumo(winner=1, han=3, fu=20, riichi=[1]),
        expected_version=1,
        reason="fu from the tiles",
    )
    assert Hand.objects.get(game=game, number=0).tile_check["mismatches"] == []
    entry = audit_for_game(game.pk).get(action="hand.correct")
    assert entry.before["hand"]["tile_check"]["mismatches"]
    assert entry.after["hand"]["tile_check"]["mismatches"] == []


def test_correction_with_new_tiles_and_to_a_draw(game, referee):
    game = enter_hand(
        actor=referee,
        game=game,
        hand=ron(winner=1, loser=0, han=1, fu=30),
        expected_version=0,
        tiles=SOUTH_PON,
    ).game
    with pytest.raises(ValidationFailed) as err:
        correct_hand(
            actor=referee,
            game=game,
            number=0,
            hand=ron(winner=1, loser=0, han=1, fu=30),
            expected_version=1,
            reason="typo",
            tiles="1m",
        )
    assert err.value.field == "tiles"
    # A hand corrected to a draw without new tiles drops the old ones (kept in the audit).
    game = correct_hand(
        actor=referee, game=game, number=0, hand=draw(), expected_version=1, reason="was a draw"
    )
    stored = Hand.objects.get(game=game, number=0)
    assert stored.tiles == "" and stored.tile_check is None
    entry = audit_for_game(game.pk).get(action="hand.correct")
    assert entry.before["hand"]["tiles"] == SOUTH_PON
