"""The one way `scoring` tells the apps above it that something happened to a game.

`scoring` imports neither `tournaments` nor `club` (issue 14; import-linter keeps it so): it
announces, and the upper layers subscribe in their AppConfig.ready() and only enqueue their
own tasks (tournaments: the standings; club: the ratings).
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.dispatch import Signal

game_changed = Signal()
"""
This signal is sent out after a scoring service changed what a game counts for, once the
transaction that changed it has committed (never for a write that was rolled back): a finished
game corrected, confirmed or given new final scores or substitutes, a game finalized, reopened
or imported finished. Standings, ratings and league tables count finished games only, so a
change to a running game (a hand entered in it) is not announced: it changes no results, and
the worker is spared one task per hand.

Receivers run in the request (or task) that wrote the game and only enqueue work
(`core.enqueue.enqueue_after_commit`), never compute it: a slow receiver slows the hand entry.

Arguments sent with this signal:

``sender``
    The `scoring.models.Game` class.
``game``
    The `Game` as written (committed; its `version`, `status` and `summary` are current).
    Related rows the writer did not load are read again by the receiver if it needs them.
``finished``
    True if the game is finished (its result counts); False if it has just stopped being
    finished (reopened), so its old result must stop counting.
"""


record_extensions = Signal()
"""
Sent while scoring writes a game's record (`scoring.records.game_record`): the app owning the
game answers the keys it adds to the record (its extensions, issue 20: a tournament game's
``tournament_penalties``), or nothing. Sent in the reading request; receivers only read.

Arguments: ``sender`` (the `Game` class), ``game``, ``seats`` (the game's seats as read, with
their players). Each receiver answers a dict of record keys (empty or None: none).
"""

record_imported = Signal()
"""
Sent inside the import's transaction once a game record was imported into a game
(`scoring.services.games.import_game_record`): the app owning the game keeps what the record
says beyond the game (issue 20: a tournament's penalties, its substitutes' registrations). An
error a receiver raises rolls the whole import back.

Arguments: ``sender`` (the `Game` class), ``actor``, ``game``, ``record`` (the document),
``players`` (in seat order), ``substitutes``. Each receiver answers the extension keys of the
record it kept (scoring refuses a record whose ``tournament_penalties`` nobody kept).
"""


def announce_game_changed(game: Any, *, finished: bool) -> None:
    """Send `game_changed` for `game` once the current transaction commits."""
    transaction.on_commit(
        lambda: game_changed.send(sender=type(game), game=game, finished=finished)
    )
