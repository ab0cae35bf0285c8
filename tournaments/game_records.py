"""A tournament game's record beyond the game itself (issue 20): the tournament penalties its
players got (extension ``tournament_penalties``, written into the record and read back from an
imported one) and the registrations of its substitutes. Scoring asks through its signals
`record_extensions` and `record_imported` (the receivers below, connected in
TournamentsConfig.ready()): it imports no tournaments (issue 14)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from core.models import Player
from scoring.models import Game, GameSeat
from scoring.services.games import user_or_none
from tournaments.models import Penalty, Registration, Seat, Table
from tournaments.roles import table_of
from tournaments.standings.tasks import enqueue_recompute


def _first_session(tournament_id: int, player_id: int) -> int | None:
    """The first session in which the player sat (seated, or in a game as a substitute)."""

    numbers = list(
        Seat.objects.filter(
            table__session__tournament_id=tournament_id, player_id=player_id
        ).values_list("table__session__number", flat=True)
    ) + list(
        GameSeat.objects.filter(
            game__table__session__tournament_id=tournament_id, player_id=player_id
        ).values_list("game__table__session__number", flat=True)
    )
    return min(numbers) if numbers else None


def tournament_penalties(game: Game, seats: Sequence[GameSeat]) -> list[dict[str, Any]]:
    """Extension (issue 20): the tournament penalties of this game's players (or the players
    its substitutes replaced) in this session; a penalty without a session goes with the
    player's first game of the tournament. Deducted from the standings, not the game."""
    table = table_of(game)
    if table is None:
        return []
    session = table.session
    seat_of = {gs.player_id: gs.seat for gs in seats}
    replaced_ids = set()
    for x in game.substitutes or []:
        if x.get("replaced_player_id"):
            seat_of[x["replaced_player_id"]] = x["seat"]
            replaced_ids.add(x["replaced_player_id"])
    out: list[dict[str, Any]] = []
    penalties = Penalty.objects.filter(
        tournament_id=session.tournament_id, player_id__in=list(seat_of), cancelled_at__isnull=True
    ).order_by("created_at", "id")
    for p in penalties:
        if p.session_id is None:
            if _first_session(session.tournament_id, p.player_id) != session.number:
                continue
        elif p.session_id != session.pk:
            continue
        entry: dict[str, Any] = {"seat": seat_of[p.player_id], "kind": p.kind, "points": p.points}
        if p.player_id in replaced_ids:
            entry["replaced"] = True  # the absent player the substitute at that seat replaced
        if p.minutes_late is not None:
            entry["minutes"] = p.minutes_late
        if p.reason:
            entry["reason"] = p.reason
        if p.session_id is None:
            entry["session"] = None
        out.append(entry)
    return out


def _register_substitutes(table: Table, substitutes: Sequence[Mapping[str, Any]]) -> None:
    """A substitute needs a (substitute) registration to be shown in the standings."""
    tournament_id = table.session.tournament_id
    for sub in substitutes:
        Registration.objects.get_or_create(
            tournament_id=tournament_id,
            player_id=sub["player_id"],
            defaults={"is_substitute": True},
        )


def import_extensions(
    actor: Any,
    game: Game,
    record: Mapping[str, Any],
    players: Sequence[Player],
    substitutes: Sequence[Mapping[str, Any]],
) -> None:
    """After a record was imported into the tournament game `game` (issue 20): its substitutes
    registered (as substitutes), its extension ``tournament_penalties`` back into the
    tournament's penalties (and the standings recomputed)."""
    table = table_of(game)
    assert table is not None
    if substitutes:
        _register_substitutes(table, substitutes)
    entries = record.get("tournament_penalties") or []
    if not entries:
        return
    session = table.session
    replaced = {s["seat"]: s["replaced_player_id"] for s in substitutes}
    for p in entries:
        seat = int(p["seat"])
        player_id = replaced[seat] if p.get("replaced") and seat in replaced else players[seat].pk
        Penalty.objects.create(
            tournament_id=session.tournament_id,
            session=None if "session" in p and p["session"] is None else session,
            player_id=player_id,
            kind=p["kind"],
            points=int(p["points"]),
            minutes_late=p.get("minutes"),
            reason=p.get("reason") or "imported with the game record",
            assigned_by=user_or_none(actor),
        )

    enqueue_recompute(session.tournament_id)


def add_record_extensions(
    sender: Any, *, game: Game, seats: Sequence[GameSeat], **kwargs: Any
) -> dict[str, Any]:
    """scoring.signals.record_extensions: a tournament game's record carries its players'
    tournament penalties (issue 20); other games' records nothing."""
    deducted = tournament_penalties(game, seats)
    return {"tournament_penalties": deducted} if deducted else {}


def keep_imported_extensions(
    sender: Any,
    *,
    actor: Any,
    game: Game,
    record: Mapping[str, Any],
    players: Sequence[Player],
    substitutes: Sequence[Mapping[str, Any]],
    **kwargs: Any,
) -> tuple[str, ...]:
    """scoring.signals.record_imported: a record imported into a tournament game registers its
    substitutes and keeps its tournament penalties (import_extensions); not for other games."""
    if table_of(game) is None:
        return ()
    import_extensions(actor, game, record, players, substitutes)
    return ("tournament_penalties",)
