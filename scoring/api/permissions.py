"""Who may change a game, and read its audit trail, over the API: asked of the app the game
belongs to through scoring.policy (a tournament's referees and organisers; a club's admins and
the players seated at a casual game), built on core.api.permissions.

The services check the same again; these classes answer early with 403 and keep the schema
honest.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from core.api.permissions import ObjectRole
from scoring.models import Game
from scoring.policy import can_edit_game, with_editor_check


class CanEditGame(ObjectRole):
    message = "You may not enter or change scores of this game."

    def allowed(self, user: Any, obj: Any) -> bool:
        return isinstance(obj, Game) and can_edit_game(user, obj)

    @staticmethod
    def in_query(games: QuerySet[Game], user: Any) -> QuerySet[Game]:
        """`games` answering this check in their own query (whether `user` referees the
        game's tournament): allowed() then asks nothing more of the database for a
        tournament game (issue 14.7: a hand POST)."""
        return with_editor_check(games, user)


class CanReadGameAudit(ObjectRole):
    """A game's audit trail: whoever may change the game (a tournament game: its tournament's
    referees and organisers; a club game: its club's admins and seated players)."""

    guards_reads = True
    message = "Only this game's referees and organisers may read its audit log."

    def allowed(self, user: Any, obj: Any) -> bool:
        return isinstance(obj, Game) and can_edit_game(user, obj)
