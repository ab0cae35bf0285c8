"""Club play without a referee: a hand a seated player enters waits for the others' word.

At a club night any seated player may enter a hand; the other players at the table confirm it
(the club sets whether one of them or all must). Until then the hand is unconfirmed, and so is
its game: ratings and league tables count confirmed games only. A hand entered by a club admin
(or the system) needs no confirmation: they act as the referee. Tournament games have
referees and are always confirmed.

The game's own entries follow the same rule (issue 30.3): a paper score sheet or a finish by a
seated player who is not a club admin waits (`Game.entry_confirmed`) until the others confirm
it with confirm_game; until then the game is unconfirmed and not rated.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from core.errors import PermissionDenied, ValidationFailed
from core.roles import player_of
from scoring.models import Game, Hand
from scoring.policy import policy_for

from ._common import GAME_ENTRY_FIELDS, audited_game, lock_game
from .games import save_written_game


def needs_confirmation(actor: Any, game: Game) -> bool:
    """Whether a hand ``actor`` enters in ``game`` waits for the other players (club play
    without a referee: the club's policy, scoring.policy)."""
    return policy_for(game)[0].entry_waits(actor, game) > 0


def confirmations_needed(game: Game, entered_by: Any) -> int:
    """How many confirmations a waiting entry needs (a hand, or the game's sheet or finish):
    as many as one by the player who entered it does (scoring.policy), and at least one."""
    return max(policy_for(game)[0].entry_waits(entered_by, game), 1)


def mark_entered(actor: Any, game: Game, hand: Hand) -> None:
    """A hand was entered or corrected by ``actor``: reset its confirmations, and the game's."""
    hand.confirmed = not needs_confirmation(actor, game)
    hand.confirmed_by = []
    hand.save(update_fields=["confirmed", "confirmed_by"])
    refresh_game(game)


def refresh_game(game: Game) -> None:
    """game.confirmed: neither a hand nor the game's own entry waits (saved by the caller's
    save_written_game)."""
    game.confirmed = game.entry_confirmed and not game.hands.filter(confirmed=False).exists()


def _seated_player(actor: Any, game: Game, message: str) -> Any:
    me = player_of(actor)
    seated = set(game.seats.values_list("player_id", flat=True))
    if me is None or me.pk not in seated:
        raise PermissionDenied(message)
    return me


@transaction.atomic
def confirm_game(*, actor: Any, game: Game, expected_version: int) -> Game:
    """A seated player other than the one who entered it confirms the game's paper score
    sheet or finish (issue 30.3: the same rule as a hand's, club play without a referee)."""
    game = lock_game(game, expected_version=expected_version)
    me = _seated_player(
        actor, game, _("Only a player seated at this game may confirm its final scores.")
    )
    if game.entry_confirmed:
        raise ValidationFailed(
            _("The game's final scores and finish need no more confirmation."), field="game"
        )
    if game.entered_by_id is not None and game.entered_by_id == getattr(actor, "pk", None):
        raise PermissionDenied(_("You entered this: another player at the table confirms it."))
    if me.pk in game.confirmed_by:
        raise ValidationFailed(_("You have already confirmed this game."), field="game")
    with audited_game(game, actor=actor, action="game.confirm", owner=policy_for(game)[1]) as audit:
        game.confirmed_by = [*game.confirmed_by, me.pk]
        game.entry_confirmed = len(game.confirmed_by) >= confirmations_needed(game, game.entered_by)
        refresh_game(game)
        save_written_game(game, fields=GAME_ENTRY_FIELDS)  # a finished game now confirmed is rated
        audit.note(confirmed_by=game.confirmed_by, entry_confirmed=game.entry_confirmed)
    return game


@transaction.atomic
def confirm_hand(*, actor: Any, game: Game, number: int, expected_version: int) -> Game:
    """A seated player other than the one who entered it confirms hand ``number``."""
    game = lock_game(game, expected_version=expected_version)
    me = _seated_player(actor, game, _("Only a player seated at this game may confirm its hands."))
    try:
        hand = game.hands.select_related("entered_by").get(number=number)
    except (Hand.DoesNotExist, ValueError, TypeError) as error:
        raise ValidationFailed(
            _("The game has no hand %(number)s.") % {"number": number}, field="number"
        ) from error
    if hand.confirmed:
        raise ValidationFailed(_("This hand needs no more confirmation."), field="number")
    if hand.entered_by_id is not None and hand.entered_by_id == getattr(actor, "pk", None):
        raise PermissionDenied(_("You entered this hand: another player at the table confirms it."))
    if me.pk in hand.confirmed_by:
        raise ValidationFailed(_("You have already confirmed this hand."), field="number")
    with audited_game(
        game, actor=actor, action="hand.confirm", obj=hand, owner=policy_for(game)[1]
    ) as audit:
        hand.confirmed_by = [*hand.confirmed_by, me.pk]
        hand.confirmed = len(hand.confirmed_by) >= confirmations_needed(game, hand.entered_by)
        hand.save(update_fields=["confirmed", "confirmed_by"])
        refresh_game(game)
        save_written_game(game, fields=["confirmed"])  # a finished game now confirmed is rated
        audit.note(
            hand={"number": number, "confirmed_by": hand.confirmed_by}, confirmed=hand.confirmed
        )
    return game
