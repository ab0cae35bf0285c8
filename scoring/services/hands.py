"""Hand services: add, correct and delete hands of a game, hand by hand from the table.

Each call locks the game, checks `expected_version`, replays the whole record with the change
through the engine (a hand that contradicts the rules is a ValidationFailed naming its field,
and nothing is saved), stores the new summary and version, and audits before and after.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction

from core.errors import ValidationFailed
from core.idempotency import write_transaction
from scoring.engine.validate import MAX_HANDS
from scoring.models import Game, Hand
from scoring.records import own_record, replay_record, stored_game_after_lock

from ._common import (
    audit_game_write,
    audited_game,
    bump_version,
    game_state,
    keep_loaded,
    lock_game,
    require_entry,
    single_win,
    tile_check,
)
from .confirmations import mark_entered, refresh_game
from .games import is_over, save_written_game

MAX_TILES_LENGTH = Hand._meta.get_field("tiles").max_length or 120


def _check_hand_shape(hand: Any) -> dict[str, Any]:
    if not isinstance(hand, dict):
        raise ValidationFailed("A hand must be a JSON object.", field="hand")
    if "outcome" not in hand:
        raise ValidationFailed("outcome is missing.", field="outcome")
    return dict(hand)


def _check_tiles(tiles: str) -> str:
    tiles = (tiles or "").strip()
    if len(tiles) > MAX_TILES_LENGTH:
        raise ValidationFailed(
            f"The tile notation is longer than {MAX_TILES_LENGTH} characters.", field="tiles"
        )
    return tiles


def _user(actor: Any) -> Any:
    return actor if actor is not None and getattr(actor, "is_authenticated", False) else None


@dataclass(frozen=True)
class HandEntry:
    """What entering a hand produced: the saved game (its `summary` is the one replay), the
    new hand (its `tile_check` the one tile evaluation), for the answer to be built from."""

    game: Game
    hand: Hand

    @property
    def mismatches(self) -> list[str]:
        """Where the typed tiles disagree with the entered han/fu (warnings, not errors)."""
        return list((self.hand.tile_check or {}).get("mismatches") or [])


@write_transaction  # transaction.atomic, without a savepoint inside an idempotent request
def enter_hand(
    *, actor: Any, game: Game, hand: dict[str, Any], expected_version: int, tiles: str = ""
) -> HandEntry:
    """Append the next hand: the one hand-entry path of the web page and the API.

    The game's rows are read once; the engine replays the record with the new hand once
    (before anything is written: a hand the rules reject saves nothing); typed tiles are
    evaluated once against that replay; then the hand, the game's summary and version, and
    the audit entry are written. The game comes back with its seats and hands loaded, so an
    answer needs no further query.
    """
    game = lock_game(game, expected_version=expected_version)
    before = game_state(game)
    policy, owner = require_entry(actor, game, hands=True)
    if game.status == Game.Status.FINISHED:
        raise ValidationFailed(
            "The game is finished; reopen it to add a hand, or correct a hand.", field="status"
        )
    data = _check_hand_shape(hand)
    tiles = _check_tiles(tiles)
    if is_over(game.summary):
        raise ValidationFailed("The rules have ended this game: no more hands.", field="hand")
    # Read after the lock, never with it: a hand committed while this request waited for the
    # lock must be counted (issue 30.2). One query on PostgreSQL, else three.
    stored = stored_game_after_lock(game)
    number = len(stored.hands)
    if number >= MAX_HANDS:  # the longest legal game (scoring/engine/validate.py, issue 16.2)
        raise ValidationFailed(
            f"A game has at most {MAX_HANDS} hands; this one has {number}.", field="hand"
        )
    new = Hand(game=game, number=number, data=data, tiles=tiles, entered_by=_user(actor))
    # Club play without a referee: the other players confirm (the game's policy says so).
    new.confirmed = policy.entry_waits(actor, game) == 0
    new.confirmed_by = []
    stored.hands.append(new)
    record = own_record(game, stored)
    # The one replay; a bad hand raises here, before anything is written.
    game.summary = replay_record(record)
    if tiles:
        new.tile_check = tile_check(game, number=number, tiles=tiles, hand=data)
    new.save(force_insert=True)
    game.confirmed = game.entry_confirmed and all(h.confirmed for h in stored.hands)
    # A running game: its results count nowhere yet, so nothing is announced.
    bump_version(game, fields=["confirmed", "summary"])
    keep_loaded(game, seats=stored.seats, hands=stored.hands)
    audit_game_write(
        game,
        actor=actor,
        action="hand.add",
        obj=new,
        owner=owner,
        before={**before, "hands": number},
        hands=len(stored.hands),
        hand={"number": number, "data": data, "tiles": tiles, "tile_check": new.tile_check},
    )
    return HandEntry(game=game, hand=new)


@transaction.atomic
def correct_hand(
    *,
    actor: Any,
    game: Game,
    number: int,
    hand: dict[str, Any],
    expected_version: int,
    reason: str,
    tiles: str | None = None,
) -> Game:
    """Replace hand `number` (0-based); later hands are replayed on top of the correction."""
    game = lock_game(game, expected_version=expected_version)
    owner = require_entry(actor, game, hands=True)[1]
    if not (reason or "").strip():
        raise ValidationFailed("Say why the hand is corrected.", field="reason")
    data = _check_hand_shape(hand)
    try:
        existing = game.hands.get(number=number)
    except (Hand.DoesNotExist, ValueError, TypeError) as error:
        raise ValidationFailed(f"The game has no hand {number}.", field="number") from error
    before_hand = {
        "number": number,
        "data": existing.data,
        "tiles": existing.tiles,
        "tile_check": existing.tile_check,
    }
    with audited_game(
        game, actor=actor, action="hand.correct", obj=existing, reason=reason, owner=owner
    ) as audit:
        audit.before = {**(audit.before or {}), "hand": before_hand}
        existing.data = data
        if tiles is not None:
            existing.tiles = _check_tiles(tiles)
        elif existing.tiles and not single_win(data):
            # Not re-sent and the hand is no longer one win: the old tiles describe nothing now
            # (the audit keeps them in `before`).
            existing.tiles = ""
        existing.entered_by = _user(actor)
        existing.save(update_fields=["data", "tiles", "entered_by", "updated_at"])
        mark_entered(actor, game, existing)  # a corrected hand is confirmed again
        save_written_game(game, fields=["confirmed"], ratings=True)
        # The tiles are checked against the corrected entry (and the corrected round/dealer).
        existing.tile_check = (
            tile_check(game, number=number, tiles=existing.tiles, hand=existing.data)
            if existing.tiles
            else None
        )
        existing.save(update_fields=["tile_check"])
        if (
            game.status == Game.Status.FINISHED
            and game.end == "complete"
            and not is_over(game.summary)
        ):
            raise ValidationFailed(
                "After this correction the rules would not have ended the game; reopen the "
                "game first if hands are missing.",
                field="hand",
            )
        audit.note(
            hand={
                "number": number,
                "data": data,
                "tiles": existing.tiles,
                "tile_check": existing.tile_check,
            }
        )
    return game


@transaction.atomic
def delete_last_hand(
    *, actor: Any, game: Game, expected_version: int, reason: str, number: int | None = None
) -> Game:
    """Remove the last hand (only the last: earlier ones are corrected, not removed); `number`:
    the hand the client means, refused unless it is the last."""
    if number is not None:
        at = game.hands.order_by("-number").values_list("number", flat=True).first()
        if at is None or at != number:
            raise ValidationFailed(
                f"Only the last hand (number {at}) can be deleted; correct others instead.",
                field="number",
            )
    game = lock_game(game, expected_version=expected_version)
    owner = require_entry(actor, game, hands=True)[1]
    if not (reason or "").strip():
        raise ValidationFailed("Say why the hand is deleted.", field="reason")
    if game.status == Game.Status.FINISHED:
        raise ValidationFailed(
            "The game is finished; reopen it before deleting a hand.", field="status"
        )
    last = game.hands.order_by("-number").first()
    if last is None:
        raise ValidationFailed("The game has no hands.", field="number")
    with audited_game(
        game,
        owner=owner,
        actor=actor,
        action="hand.delete",
        obj=last,
        reason=reason,
    ) as audit:
        audit.before = {
            **(audit.before or {}),
            "hand": {"number": last.number, "data": last.data, "tiles": last.tiles},
        }
        audit.object_id = last.pk
        last.delete()
        refresh_game(game)
        save_written_game(game, fields=["confirmed"])
    return game
