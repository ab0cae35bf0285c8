"""Which objects a user may read through the API (selectors for the views' querysets).

Public: every tournament past its draft (registration open, running, finished, published) with
its sessions, seating, games, penalties and standings; clubs, their nights, leagues and games;
players. A draft tournament is visible to its staff and site admins only.

The rule itself lives in `tournaments.selectors`, shared with the web pages.
"""

from __future__ import annotations

from tournaments.selectors import visible_games, visible_tournaments

__all__ = ["visible_games", "visible_tournaments"]
