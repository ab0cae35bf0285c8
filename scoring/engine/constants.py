"""Names the whole project shares with the game-record format (formats/game-record.md)."""

from __future__ import annotations

# The `format` of every game record this project reads and writes.
RECORD_FORMAT = "riichi-game-record/1"

# Seat winds in order (seat 0 is East at the start), as the record and the engine write them...
WINDS = ("E", "S", "W", "N")
# ...and as the API and plain-text outputs name them (pages translate: tournaments.models).
WIND_NAMES = ("East", "South", "West", "North")
