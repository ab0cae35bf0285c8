"""Games, hands and tile evaluation over the API. Views parse, call a service or selector,
serialize: `games` (GameViewSet: read, create, import, finish, reopen, paper sheets, the
record, the audit trail; a tournament game's substitutes are the tournament API's,
tournaments/api/views/substitutes.py), `hands` (GameHandViewSet: `/games/<id>/hands/...`),
`tiles` (TileEvaluateView); `base`, what they share.

Every write on a game takes the `version` the client last read; a stale one is 409 with the
game as it is now (`current`). POSTs honour `Idempotency-Key` (core.idempotency).
"""

from .base import game_filter
from .games import GameViewSet
from .hands import GameHandViewSet
from .tiles import TileEvaluateView

__all__ = ["GameHandViewSet", "GameViewSet", "TileEvaluateView", "game_filter"]
