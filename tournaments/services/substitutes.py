"""Substitutes (EMA 2025 7.3): a substitute takes a missing player's seat at one game.

The game seat (GameSeat) gets the substitute, who actually plays; the tournament seat (Seat)
keeps the registered player, who scores -15,000 points and -15,000 uma for that session (the
engine applies it from the game's `substitutes`; the standings give that result to the Seat's
player and show the substitute unranked). The entry also keeps `player_id` (the substitute)
and `replaced_player_id`. "start": substituted before the game began (the substitute's score
still places the others); "during": after it began (the others take the top three places).
"""

from __future__ import annotations

from functools import partial
from typing import Any

from django.db import transaction
from django.utils import timezone

from core.audit import audited
from core.errors import ValidationFailed
from core.models import Player
from scoring.models import Game, GameSeat
from scoring.policy import policy_for
from scoring.services._common import audited_game, lock_game, require_open_session
from scoring.services.games import save_written_game
from tournaments.models import Penalty, Registration, Session
from tournaments.roles import table_of
from tournaments.selectors import session_roster
from tournaments.standings.tasks import enqueue_recompute

from ._common import require_referee, user_or_none
from .penalties import penalty_snapshot

WHEN = ("start", "during")


# The API's wording; the console passes its own, translated text.
NO_GAME_AT_TABLE = "No game at this table."


def substitute_at_table(
    *,
    actor: Any,
    session: Session,
    table: int,
    seat: int,
    substitute: Player,
    reason: str,
    from_: str = "start",
    missing: str = NO_GAME_AT_TABLE,
) -> Game:
    """`substitute_player` at the game of the session's table number `table` (the console's
    form names the table, not the game); no game there is the `table` field's error."""
    game = Game.objects.filter(table__session=session, table__number=table).first()
    if game is None:
        raise ValidationFailed(missing, field="table")
    return substitute_player(
        actor=actor, game=game, seat=seat, substitute=substitute, reason=reason, from_=from_
    )


@transaction.atomic
def substitute_player(
    *,
    actor: Any,
    game: Game,
    seat: int,
    substitute: Player,
    reason: str,
    from_: str = "start",
    expected_version: int | None = None,
) -> Game:
    """Seat `substitute` for the player at `seat` (a player more than 10 minutes late, ill, or
    disqualified, EMA 2025 7.3). `expected_version` defaults to the current one."""
    table = table_of(game)
    if table is None:
        raise ValidationFailed("Substitutes exist only in tournament games.", field="game")
    tournament = table.session.tournament
    require_referee(actor, tournament)
    game = lock_game(
        game, expected_version=game.version if expected_version is None else expected_version
    )
    require_open_session(actor, game, started=False)  # EMA 2025 7.3: before the game began
    if not (reason or "").strip():
        raise ValidationFailed("Say why the player is substituted.", field="reason")
    if from_ not in WHEN:
        raise ValidationFailed('from is "start" or "during".', field="from")
    seats = {gs.seat: gs.player_id for gs in game.seats.all()}
    if isinstance(seat, bool) or seat not in seats:
        raise ValidationFailed(f"seat must be one of {sorted(seats)}.", field="seat")
    if substitute.pk in seats.values():
        raise ValidationFailed(f"{substitute} already plays at this table.", field="substitute")
    if any(s.get("seat") == seat for s in game.substitutes or []):
        raise ValidationFailed("This seat is already substituted.", field="seat")
    if from_ == "start" and game.hands.exists():
        raise ValidationFailed(
            'Hands were already played: the substitution is "during" the game.', field="from"
        )
    registration = Registration.objects.filter(tournament=tournament, player=substitute).first()
    if registration is None:
        # Someone brought in on the day: a reserve, seated only in place of a player and
        # never by a plan (issue 31).
        registration = Registration.objects.create(
            tournament=tournament, player=substitute, role=Registration.Role.RESERVE
        )
    elif registration.disqualified_at is not None or registration.dropped_at is not None:
        state = "disqualified" if registration.disqualified_at is not None else "dropped"
        raise ValidationFailed(f"{substitute} was {state}: choose a reserve.", field="substitute")
    elif registration.role == Registration.Role.PLAYER:
        raise ValidationFailed(
            f"{substitute} is a registered player, not a substitute.", field="substitute"
        )
    # Issue 31: not someone who already sits at another table of this session.
    elsewhere = session_roster(table.session).seat_of(substitute.pk)
    if elsewhere is not None:
        raise ValidationFailed(
            f"{substitute} already plays at table {elsewhere.table} in this session.",
            field="substitute",
        )
    with audited_game(
        game,
        actor=actor,
        action="game.substitute",
        reason=reason,
        owner=policy_for(game)[1],
    ) as audit:
        entry: dict[str, Any] = {
            "seat": seat,
            "from": from_,
            "player_id": substitute.pk,
            "replaced_player_id": seats[seat],
        }
        if from_ == "during":
            entry["from_hand"] = game.hands.count() + 1  # the first hand the substitute plays
        game.substitutes = [*(game.substitutes or []), entry]
        GameSeat.objects.filter(game=game, seat=seat).update(player=substitute)
        save_written_game(game, fields=["substitutes"])
        # EMA 2025 7.3: "a player who is late by more than 10 minutes is replaced with a
        # substitute player and no lateness penalty is deducted": a lateness given for this
        # session before the substitution is cancelled (audited).
        session = table.session
        for late in Penalty.objects.select_for_update().filter(
            tournament=tournament,
            session=session,
            player_id=seats[seat],
            kind=Penalty.Kind.LATENESS,
            cancelled_at__isnull=True,
        ):
            reason_late = "Substituted: no lateness penalty (EMA 2025 7.3)."
            with audited(
                actor=actor,
                action="penalty.cancel",
                obj=late,
                snapshot=partial(penalty_snapshot, late),
                reason=reason_late,
                tournament_id=tournament.pk,
            ):
                late.cancelled_at = timezone.now()
                late.cancelled_by = user_or_none(actor)
                late.cancel_reason = reason_late
                late.save(update_fields=["cancelled_at", "cancelled_by", "cancel_reason"])
        enqueue_recompute(tournament.pk)  # the substitute appears in the standings: full rebuild
        audit.note(seat=seat, substituted=seats[seat], substitute=substitute.pk)
    return game
