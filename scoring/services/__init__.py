"""Write services for games and hands (docs/services.md says how they work)."""

from ._common import game_snapshot, locked_games, mark_locked
from .confirmations import confirm_game, confirm_hand
from .final_scores import enter_final_scores
from .games import (
    create_game,
    finalize_game,
    game_record,
    import_game_record,
    preview,
    reopen_game,
    set_substitutes,
)
from .hands import HandEntry, correct_hand, delete_last_hand, enter_hand

__all__ = [
    "HandEntry",
    "confirm_game",
    "confirm_hand",
    "correct_hand",
    "create_game",
    "delete_last_hand",
    "enter_final_scores",
    "enter_hand",
    "finalize_game",
    "game_record",
    "game_snapshot",
    "import_game_record",
    "locked_games",
    "mark_locked",
    "preview",
    "reopen_game",
    "set_substitutes",
]
