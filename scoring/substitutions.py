"""Who a substitute replaces at a game (EMA 2025 7.3), from the game's own `substitutes`
(each entry: `seat`, `from` "start" | "during", `player_id` the substitute who plays the
seat, `replaced_player_id`, and `from_hand` when "during"). Scoring's pages (the referee's
table list, the hand-entry header) say "X for Y" from it without asking the tournament."""

from __future__ import annotations

from dataclasses import dataclass

from core.models import Player
from scoring.models import Game


@dataclass(frozen=True)
class SubstituteNote:
    """`substitute` plays `seat` for `replaced`, from the start (`from_hand` None) or from
    hand `from_hand` (1-based, the first hand the substitute plays)."""

    seat: int
    substitute: str
    replaced: str
    from_hand: int | None


def substitute_notes(game: Game) -> list[SubstituteNote]:
    """The game's substitutes by seat; one query for the names, none without substitutes."""
    entries = [
        entry
        for entry in game.substitutes or []
        if isinstance(entry, dict) and entry.get("replaced_player_id") is not None
    ]
    if not entries:
        return []
    ids = {e["replaced_player_id"] for e in entries} | {
        e["player_id"] for e in entries if e.get("player_id") is not None
    }
    names = {p.pk: str(p) for p in Player.objects.filter(pk__in=ids)}
    notes = []
    for entry in entries:
        from_hand = entry.get("from_hand") if entry.get("from") == "during" else None
        notes.append(
            SubstituteNote(
                seat=int(entry.get("seat", 0)),
                substitute=names.get(entry.get("player_id") or 0, ""),
                replaced=names.get(entry["replaced_player_id"], ""),
                from_hand=from_hand if isinstance(from_hand, int) else None,
            )
        )
    return sorted(notes, key=lambda note: note.seat)
