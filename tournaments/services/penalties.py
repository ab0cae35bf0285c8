"""Tournament penalties that are not hands: lateness, obstruction, score sheets, other.

Chombo is a hand of the game record (outcome "chombo"); the engine deducts it in that game's
result, so it is never a tournament Penalty. Points are deducted after uma (EMA 2025 6.12, 7.2,
7.5) and never change the table ranks.
"""

from __future__ import annotations

import math
from typing import Any

from django.db import transaction
from django.utils import timezone

from core.audit import audited
from core.enqueue import deferred_tasks
from core.errors import ValidationFailed
from core.models import Player
from scoring.engine import Ruleset, load_ruleset

# EMA 2025 6.12 amounts, shared with the engine's game-record check.
from scoring.engine.validate import OBSTRUCTION_MAX, OBSTRUCTION_MIN, OBSTRUCTION_SERIOUS
from scoring.models import Game, GameSeat
from tournaments.models import Penalty, Registration, Seat, Session, Table, Tournament
from tournaments.standings.tasks import enqueue_recompute

from ._common import require_referee, user_or_none


def penalty_snapshot(p: Penalty) -> dict[str, Any]:
    return {
        "player": p.player_id,
        "session": p.session.number if p.session is not None else None,
        "kind": p.kind,
        "points": p.points,
        "minutes_late": p.minutes_late,
        "reason": p.reason,
        "cancelled_at": p.cancelled_at,
        "cancel_reason": p.cancel_reason,
    }


def lateness_seconds(minutes_late: Any, seconds_late: Any = None) -> int:
    """How late, in seconds, from minutes (a whole or decimal number) and seconds (0-59)."""
    if minutes_late is None and seconds_late is None:
        raise ValidationFailed("Give the minutes late (EMA 2025 7.2).", field="minutes_late")
    minutes = 0 if minutes_late is None else minutes_late
    if isinstance(minutes, bool) or not isinstance(minutes, int | float) or minutes != minutes:
        raise ValidationFailed("Give the minutes late as a number.", field="minutes_late")
    if minutes < 0:
        raise ValidationFailed("The minutes late cannot be negative.", field="minutes_late")
    seconds = 0 if seconds_late is None else seconds_late
    if isinstance(seconds, bool) or not isinstance(seconds, int) or not 0 <= seconds <= 59:
        raise ValidationFailed(
            "Give the seconds late as a whole number from 0 to 59.", field="seconds_late"
        )
    if minutes_late is not None and seconds_late is not None and not float(minutes).is_integer():
        raise ValidationFailed(
            "With seconds, give the minutes as a whole number (9 minutes 30 seconds, not 9.5).",
            field="minutes_late",
        )
    return math.ceil(minutes * 60) + seconds


def format_lateness(seconds: int) -> str:
    """A lateness as the referee says it: 570 -> "9:30"."""
    return f"{seconds // 60}:{seconds % 60:02d}"


def lateness_points(minutes_late: Any, rules: Ruleset, seconds_late: Any = None) -> int:
    """EMA 2025 7.2: 1,000 points per minute late, rounded up ("a player who is 9 minutes and
    30 seconds late has a 10,000-point penalty"), for a lateness of 10 minutes or less.

    EMA 2025 7.3: a player later than that is replaced by a substitute and gets no lateness
    penalty, so more than `lateness_max_minutes` is refused here (substitute_player instead).
    """
    late = lateness_seconds(minutes_late, seconds_late)
    field = "seconds_late" if minutes_late is None else "minutes_late"
    if late <= 0:
        raise ValidationFailed("A late player is late by more than 0 minutes.", field=field)
    if late > rules.lateness_max_minutes * 60:
        raise ValidationFailed(
            f"{format_lateness(late)} is more than {rules.lateness_max_minutes} minutes late: "
            "the player is replaced by a substitute for this session and no lateness penalty "
            "is deducted (EMA 2025 7.3). Enter a substitution instead.",
            field=field,
        )
    return started_minutes(late) * rules.lateness_per_minute


def started_minutes(seconds: int) -> int:
    """EMA 2025 7.2: every started minute counts ("rounded up")."""
    return -(-seconds // 60)


def was_substituted(player: Player, session: Session | None) -> bool:
    """Whether `player`'s seat in `session` was taken by a substitute (EMA 2025 7.3)."""
    if session is None:
        return False

    for table_id, wind in Seat.objects.filter(table__session=session, player=player).values_list(
        "table_id", "wind"
    ):
        game = Game.objects.filter(table__id=table_id).only("substitutes").first()
        if game is not None and any(int(s.get("seat", -1)) == wind for s in game.substitutes or []):
            return True
    return False


def require_open_results(actor: Any, tournament: Tournament, session: Session | None) -> None:
    """Issue 15: no penalty is given or cancelled once the results are final or published, or
    in a closed session; an organiser reopens the session first (with a reason, audited)."""
    if actor is None:
        return
    if tournament.status in (Tournament.Status.FINISHED, Tournament.Status.PUBLISHED):
        raise ValidationFailed(
            f"The results of {tournament.name} are "
            f"{'published' if tournament.status == Tournament.Status.PUBLISHED else 'final'}: "
            "no penalty can be given or cancelled. An organiser reopens the session first "
            "(with a reason).",
            field="session",
        )
    if session is not None and session.status == Session.Status.CLOSED:
        raise ValidationFailed(
            f"Session {session.number} is closed: no penalty can be given or cancelled for it. "
            "An organiser reopens the session first (with a reason).",
            field="session",
        )


def _points_for(
    *,
    kind: str,
    points: int | None,
    minutes_late: int | float | None,
    rules: Ruleset,
    seconds_late: int | None = None,
) -> int:
    if kind == Penalty.Kind.CHOMBO:
        raise ValidationFailed(
            "A chombo is entered as a hand of the game (outcome chombo, the offender's seat); "
            "the game's result then deducts it. It is not a tournament penalty.",
            field="kind",
        )
    if kind not in Penalty.Kind.values:
        raise ValidationFailed(
            f"kind must be one of {', '.join(k for k in Penalty.Kind.values if k != 'chombo')}.",
            field="kind",
        )
    if kind == Penalty.Kind.LATENESS:
        computed = lateness_points(minutes_late, rules, seconds_late)
        if points is not None and points != computed:
            late = format_lateness(lateness_seconds(minutes_late, seconds_late))
            raise ValidationFailed(
                f"{late} late is {computed} points (EMA 2025 7.2: per started minute), "
                f"not {points}.",
                field="points",
            )
        return computed
    if points is None:
        defaults: dict[str, int] = {
            Penalty.Kind.SCORE_SHEET: rules.score_sheet_penalty,  # EMA 2025 7.5
            Penalty.Kind.ALL_LAST_SHEET: rules.all_last_sheet_penalty,
        }
        if kind not in defaults:
            raise ValidationFailed("Give the penalty's points.", field="points")
        return defaults[kind]
    if isinstance(points, bool) or not isinstance(points, int) or points <= 0:
        raise ValidationFailed("points must be a positive whole number.", field="points")
    if points % 100:
        raise ValidationFailed("points must be a multiple of 100.", field="points")
    ema = rules.id.startswith("ema")
    if (
        kind == Penalty.Kind.OBSTRUCTION
        and ema
        and points != OBSTRUCTION_MIN
        and not OBSTRUCTION_SERIOUS <= points <= OBSTRUCTION_MAX
    ):
        # EMA 2025 6.12: "point penalties of 8,000 or 12,000 points, or in serious or repeated
        # cases with point penalties between 12,000 and 48,000".
        raise ValidationFailed(
            f"Obstruction is {OBSTRUCTION_MIN:,} or {OBSTRUCTION_SERIOUS:,} points, or between "
            f"{OBSTRUCTION_SERIOUS:,} and {OBSTRUCTION_MAX:,} in serious or repeated cases "
            f"(EMA 2025 6.12), not {points:,}.",
            field="points",
        )
    if kind == Penalty.Kind.SCORE_SHEET and ema and points != rules.score_sheet_penalty:
        # EMA 2025 7.5: "a 2,000-point penalty for each of the players".
        raise ValidationFailed(
            f"A score-sheet penalty is {rules.score_sheet_penalty:,} points per player (EMA "
            f"2025 7.5), not {points:,}.",
            field="points",
        )
    return points


@transaction.atomic
def add_penalty(
    *,
    actor: Any,
    tournament: Tournament,
    player: Player,
    kind: str,
    reason: str,
    points: int | None = None,
    minutes_late: int | float | None = None,
    session: Session | None = None,
    seconds_late: int | None = None,
    table: Table | None = None,
) -> Penalty:
    """A point penalty, deducted from the player's tournament total after uma.

    Lateness is given in `minutes_late` and, optionally, `seconds_late` (0-59); it costs
    every started minute (EMA 2025 7.2: 9 minutes 30 seconds is 10,000 points), and the
    penalty keeps the started minutes in `minutes_late` (the exact time is in the audit).
    `table`: the table a table-wide penalty was given to (add_table_penalty), for the audit.
    """
    require_referee(actor, tournament)
    if not (reason or "").strip():
        raise ValidationFailed("Say what the penalty is for.", field="reason")
    registration = Registration.objects.filter(tournament=tournament, player=player).first()
    if registration is None:
        raise ValidationFailed(f"{player} is not registered in this tournament.", field="player")
    if session is not None and session.tournament_id != tournament.pk:
        raise ValidationFailed("The session belongs to another tournament.", field="session")
    tournament = Tournament.objects.get(pk=tournament.pk)  # the caller's copies may be stale
    if session is not None:
        session = Session.objects.get(pk=session.pk)
    require_open_results(actor, tournament, session)
    if kind == Penalty.Kind.LATENESS and session is None:
        raise ValidationFailed("Say which session the player was late for.", field="session")
    if minutes_late is not None and kind != Penalty.Kind.LATENESS:
        raise ValidationFailed("minutes_late is only for lateness.", field="minutes_late")
    if seconds_late is not None and kind != Penalty.Kind.LATENESS:
        raise ValidationFailed("seconds_late is only for lateness.", field="seconds_late")
    if kind == Penalty.Kind.LATENESS and session is not None and was_substituted(player, session):
        raise ValidationFailed(
            f"{player} was replaced by a substitute in session {session.number}: no lateness "
            "penalty is deducted (EMA 2025 7.3).",
            field="player",
        )
    rules = load_ruleset(tournament.ruleset, tournament.rule_overrides or None)
    amount = _points_for(
        kind=kind, points=points, minutes_late=minutes_late, rules=rules, seconds_late=seconds_late
    )
    late = lateness_seconds(minutes_late, seconds_late) if kind == Penalty.Kind.LATENESS else None
    if (
        kind == Penalty.Kind.LATENESS
        and Penalty.objects.filter(
            tournament=tournament,
            session=session,
            player=player,
            kind=Penalty.Kind.LATENESS,
            cancelled_at__isnull=True,
        ).exists()
    ):
        raise ValidationFailed(
            "The player already has a lateness penalty for this session; cancel it to change it.",
            field="kind",
        )
    with audited(
        actor=actor, action="penalty.add", reason=reason, tournament_id=tournament.pk
    ) as audit:
        penalty = Penalty.objects.create(
            tournament=tournament,
            session=session,
            player=player,
            kind=kind,
            points=amount,
            minutes_late=started_minutes(late) if late is not None else None,
            reason=reason.strip(),
            assigned_by=user_or_none(actor),
        )
        audit.obj = penalty
        audit.after = {
            **penalty_snapshot(penalty),
            **({"late": format_lateness(late)} if late is not None else {}),
            **({"table": table.number} if table is not None else {}),
        }
    enqueue_recompute(tournament.pk)
    return penalty


@transaction.atomic
def add_table_penalty(
    *,
    actor: Any,
    tournament: Tournament,
    session: Session,
    table_number: int,
    reason: str,
    kind: str = Penalty.Kind.SCORE_SHEET,
) -> list[Penalty]:
    """EMA 2025 7.5: "Any mistake on the score sheet that cannot be fixed from the score sheet
    itself or from the all-last sheet is subject to a 2,000-point penalty for each of the
    players": one score-sheet penalty for every player who played at the table, all or none.

    Who played: the game's seats (a substitute who sat in is penalised, the absent player
    they replaced is not, EMA 2025 7.3); the seating's players while the table has no game.
    Each player's penalty is an ordinary penalty with its own audit entry ("penalty.add",
    naming the table), so each can be cancelled on its own.
    """
    require_referee(actor, tournament)
    if kind != Penalty.Kind.SCORE_SHEET:
        raise ValidationFailed(
            "Only a score-sheet penalty (EMA 2025 7.5) is given to a whole table.", field="kind"
        )
    if session is None or session.tournament_id != tournament.pk:
        raise ValidationFailed("Say which session of this tournament.", field="session")
    if isinstance(table_number, bool) or not isinstance(table_number, int):
        raise ValidationFailed("Give the table number.", field="table")
    found = Table.objects.filter(session=session, number=table_number).first()
    if found is None:
        raise ValidationFailed(
            f"Session {session.number} has no table {table_number}.", field="table"
        )

    players = [
        gs.player for gs in GameSeat.objects.filter(game__table=found).select_related("player")
    ] or [s.player for s in Seat.objects.filter(table=found).select_related("player")]
    if not players:
        raise ValidationFailed(f"Table {table_number} has no players.", field="table")
    with deferred_tasks():  # one standings update for the table, not one per player
        penalties = [
            add_penalty(
                actor=actor,
                tournament=tournament,
                player=player,
                kind=kind,
                reason=reason,
                session=session,
                table=found,
            )
            for player in players
        ]
    enqueue_recompute(tournament.pk)
    return penalties


@transaction.atomic
def cancel_penalty(*, actor: Any, penalty: Penalty, reason: str) -> Penalty:
    """Cancel (never delete) a penalty; it stays visible, struck out, in the audit trail."""
    require_referee(actor, penalty.tournament_id)
    if not (reason or "").strip():
        raise ValidationFailed("Say why the penalty is cancelled.", field="reason")
    penalty = (
        Penalty.objects.select_for_update(of=("self",))
        .select_related("tournament", "session")
        .get(pk=penalty.pk)
    )
    require_open_results(actor, penalty.tournament, penalty.session)
    if penalty.cancelled_at is not None:
        raise ValidationFailed("The penalty is already cancelled.", field="penalty")
    with audited(
        actor=actor,
        action="penalty.cancel",
        obj=penalty,
        reason=reason,
        tournament_id=penalty.tournament_id,
        snapshot=lambda: penalty_snapshot(penalty),
    ):
        penalty.cancelled_at = timezone.now()
        penalty.cancelled_by = user_or_none(actor)
        penalty.cancel_reason = reason.strip()
        penalty.save(update_fields=["cancelled_at", "cancelled_by", "cancel_reason"])
    enqueue_recompute(penalty.tournament_id)
    return penalty
