"""Paper-sheet entry: only the final table scores of a game, no hands."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from core.errors import ValidationFailed
from scoring.engine import RecordError, final_results, load_ruleset
from scoring.models import Game, GamePenalty
from scoring.records import engine_error

from ._common import (
    GAME_ENTRY_FIELDS,
    audited_game,
    lock_game,
    mark_game_entry,
    require_entry,
)
from .games import save_written_game


@transaction.atomic
def enter_final_scores(
    *,
    actor: Any,
    game: Game,
    scores: list[int],
    riichi_sticks_left: int = 0,
    expected_version: int,
    reason: str = "",
    chombos: list[int] | None = None,
) -> Game:
    """Store the table scores from a paper score sheet; the engine checks they add up.

    Uma, oka and leftover riichi sticks are applied by the engine (EMA 2025 3.7). A game that
    already has hands cannot switch to final-scores entry. `chombos` lists the seat of each
    chombo on the sheet (one entry per chombo): under rules whose chombo is a deduction after
    uma (EMA 2025: 20,000) each becomes a penalty of the game; `None` keeps those on file.
    Under rules where a chombo is paid at the table, the sheet's scores already hold it.
    """
    game = lock_game(game, expected_version=expected_version)
    owner = require_entry(actor, game)[1]
    if game.hands.exists():
        raise ValidationFailed(
            "This game has hands; its scores come from them. Delete the hands first.",
            field="scores",
        )
    if not isinstance(scores, list | tuple):
        raise ValidationFailed("scores must be a list of points.", field="scores")
    rules = load_ruleset(game.ruleset, game.rule_overrides or None)
    try:
        final_results(scores=list(scores), rules=rules, riichi_sticks_left=riichi_sticks_left)
    except RecordError as error:
        raise engine_error(error) from error
    seats = len(scores)
    if chombos is not None:
        if not isinstance(chombos, list | tuple) or not all(
            isinstance(c, int) and not isinstance(c, bool) and 0 <= c < seats for c in chombos
        ):
            raise ValidationFailed(f"chombos lists seats 0 to {seats - 1}.", field="chombos")
        if chombos and rules.chombo.mode != "penalty":
            raise ValidationFailed(
                "Under these rules a chombo is paid at the table: the sheet's scores hold it.",
                field="chombos",
            )
    with audited_game(
        game, actor=actor, action="game.final_scores", reason=reason, owner=owner
    ) as audit:
        game.entry = Game.Entry.FINAL_SCORES
        game.final_scores = {"scores": list(scores), "riichi_sticks_left": riichi_sticks_left}
        if chombos is not None:
            GamePenalty.objects.filter(game=game, kind="chombo").delete()
            GamePenalty.objects.bulk_create(
                [
                    GamePenalty(game=game, seat=seat, kind="chombo", points=rules.chombo.points)
                    for seat in chombos
                ]
            )
        # A sheet a seated club player enters waits for the others, as a hand does (issue 30.3).
        mark_game_entry(actor, game)
        save_written_game(game, fields=["entry", "final_scores", *GAME_ENTRY_FIELDS])
        audit.note(chombos=list(chombos or []))
    return game
