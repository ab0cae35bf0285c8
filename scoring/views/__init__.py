"""Referee pages: pick a table, enter hands with a live payment preview, correct, finalize;
and a game's public page. One module per page group (`entry`, `hands`, `finish`, `public`;
`common`: what they share). Views parse input, call scoring.services or scoring.selectors and
render; every rule check is the engine's.
"""

from .common import locked_message, time_signal_state
from .entry import game_confirm, game_confirm_hand, game_entry, referee_home
from .finish import game_finalize, game_paper_sheet, game_reopen
from .hands import (
    game_add_hand,
    game_delete_last,
    game_edit_hand,
    game_edit_last,
    game_edit_preview,
    game_preview,
)
from .public import game_public, game_record_download

__all__ = [
    "game_add_hand",
    "game_confirm",
    "game_confirm_hand",
    "game_delete_last",
    "game_edit_hand",
    "game_edit_last",
    "game_edit_preview",
    "game_entry",
    "game_finalize",
    "game_paper_sheet",
    "game_preview",
    "game_public",
    "game_record_download",
    "game_reopen",
    "locked_message",
    "referee_home",
    "time_signal_state",
]
