"""Shared helpers of the game services: locking, the engine run, snapshots, follow-up tasks."""

from __future__ import annotations

import logging
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from functools import partial
from typing import Any, TypedDict

from django.db import transaction
from django.utils import timezone

from core.errors import ConflictError, PermissionDenied, ValidationFailed
from scoring.engine import RecordError, RulesError, load_ruleset, replay
from scoring.models import Game
from tournaments.roles import can_edit_game, tournament_id_of_game

log = logging.getLogger(__name__)

RECORD_FORMAT = "riichi-game-record/1"


def engine_error(error: RecordError, *, prefix: str = "") -> ValidationFailed:
    """The engine's error (hand, field, message) as a ValidationFailed naming the field."""
    field = error.field or None
    if prefix and field:
        field = f"{prefix}.{field}"
    elif prefix:
        field = prefix
    return ValidationFailed(error.message, field=field, errors=[error.as_dict()])


def check_ruleset(ruleset: str, rule_overrides: Mapping[str, Any] | None) -> None:
    try:
        load_ruleset(ruleset, rule_overrides or None)
    except RulesError as error:
        raise engine_error(error) from error


def require_editor(actor: Any, game: Game) -> None:
    """`actor=None` is the system (management commands, imports run by staff tools)."""
    if actor is not None and not can_edit_game(actor, game):
        raise PermissionDenied("You may not enter or change scores of this game.")


def require_open_session(actor: Any, game: Game, *, started: bool = True) -> None:
    """Refuse a write to a tournament game whose results are locked (issue 15).

    Locked: the session is closed, or the tournament is finished or its results published.
    Nobody changes such a game, referee or organiser: an organiser reopens the session first
    (`reopen_session`, with a reason, audited), which is the one override path. With
    `started` (hands, final scores, finalize) the session must also be running: nothing is
    played before the start signal (EMA 2025 7.4). Substitutes may be seated before it (EMA
    2025 7.3: "before the beginning of the game"). `actor=None` (the system: restores, imports
    run by staff tools) is not checked. Club games have no sessions and are never locked.
    """
    if actor is None or game.table_id is None:
        return
    from tournaments.models import Session, Tournament

    session = game.table.session  # type: ignore[union-attr]
    tournament = session.tournament
    if tournament.status in (Tournament.Status.FINISHED, Tournament.Status.PUBLISHED):
        raise ValidationFailed(
            f"The results of {tournament.name} are "
            f"{'published' if tournament.status == Tournament.Status.PUBLISHED else 'final'}: "
            "no game or penalty can be changed. An organiser reopens the session first "
            "(with a reason).",
            field="session",
        )
    if session.status == Session.Status.CLOSED:
        raise ValidationFailed(
            f"Session {session.number} is closed: its games can no longer be changed. An "
            "organiser reopens the session first (with a reason).",
            field="session",
        )
    if started and session.status != Session.Status.RUNNING:
        raise ValidationFailed(
            f"Session {session.number} has not started yet: scores are entered once the "
            "organiser gives the start signal (EMA 2025 7.4).",
            field="session",
        )


def lock_game(game: Game | int, *, expected_version: int) -> Game:
    """Lock the game row for this transaction and check the client's version.

    Must be called inside `transaction.atomic`. A stale version is a ConflictError carrying the
    current one: the client reloads instead of silently overwriting another referee's entry.
    """
    pk = game if isinstance(game, int) else game.pk
    try:
        # With its tournament: the API answers with this very object.
        locked = (
            Game.objects.select_for_update(of=("self",))
            .select_related("table__session__tournament")
            .get(pk=pk)
        )
    except Game.DoesNotExist as error:
        raise ValidationFailed("This game does not exist.", field="game") from error
    if isinstance(expected_version, bool) or not isinstance(expected_version, int):
        raise ValidationFailed("expected_version must be an integer.", field="expected_version")
    if locked.version != expected_version:
        raise ConflictError(
            f"The game was changed meanwhile (now version {locked.version}, you sent "
            f"{expected_version}). Reload it and enter your change again.",
            current_version=locked.version,
        )
    return locked


def bump_version(game: Game, *, fields: list[str]) -> None:
    """Save `fields` and the next version, only if nobody bumped the version in between.

    The conditional UPDATE keeps the check sound even where select_for_update is a no-op
    (SQLite serialises writers instead).
    """
    expected = game.version
    game.version = expected + 1
    game.updated_at = timezone.now()
    values = {name: getattr(game, name) for name in {*fields, "version", "updated_at"}}
    updated = Game.objects.filter(pk=game.pk, version=expected).update(**values)
    if updated != 1:
        current = Game.objects.filter(pk=game.pk).values_list("version", flat=True).first()
        raise ConflictError(
            "The game was changed meanwhile. Reload it and enter your change again.",
            current_version=current if current is not None else expected,
        )


def club_id_of(game: Game) -> int | None:
    if game.club_night_id is None:
        return None
    return game.club_night.club_id  # type: ignore[union-attr]


class AuditScope(TypedDict):
    game_id: int | None
    tournament_id: int | None
    club_id: int | None


def audit_scope(game: Game) -> AuditScope:
    return {
        "game_id": game.pk,
        "tournament_id": tournament_id_of_game(game),
        "club_id": club_id_of(game),
    }


def keep_loaded(game: Game, *, seats: Sequence[Any], hands: Sequence[Any]) -> None:
    """Keep the seats (with players) and hands a write has just read and written on `game`, as
    if prefetched: the answer (scoring.api.serializers.game_payload) reads them from here.

    Marked fresh, unlike a prefetch made before the write, which game_payload drops.
    """
    cache: dict[str, Any] = {}
    for name, rows in (("seats", seats), ("hands", hands)):
        queryset = getattr(game, name).all()
        queryset._result_cache = list(rows)
        queryset._prefetch_done = True
        cache[name] = queryset
    game._prefetched_objects_cache = cache  # type: ignore[attr-defined]
    game._loaded_after_write = True  # type: ignore[attr-defined]


def run_engine(record: Mapping[str, Any]) -> dict[str, Any]:
    try:
        return dict(replay(record))
    except RecordError as error:
        raise engine_error(error) from error


# Bulk writers (seed_demo, imports) collect follow-ups here and run each once at the end.
_deferred: ContextVar[set[tuple[str, int]] | None] = ContextVar("deferred_follow_ups", default=None)


@contextmanager
def deferred_follow_ups() -> Iterator[set[tuple[str, int]]]:
    """Within this block, no standings/ratings task is enqueued; the yielded set collects
    ("tournament", id) and ("club_game", id) for the caller to handle once."""
    collected: set[tuple[str, int]] = set()
    token = _deferred.set(collected)
    try:
        yield collected
    finally:
        _deferred.reset(token)


def mark_standings_stale(tournament_id: int) -> None:
    from tournaments.models import Tournament

    Tournament.objects.filter(pk=tournament_id).update(standings_stale=True)


def enqueue_follow_ups(game: Game, *, ratings: bool = False) -> None:
    """After commit: update the tournament's standings (tournament games) and the ratings
    (finished games, or `ratings=True` when a game stops being finished).

    Only finished games count in standings and ratings, so a change to a running game (a hand
    entered, corrected or deleted) has nothing to update and queues nothing.
    """
    rate = ratings or game.status == Game.Status.FINISHED
    if not rate:
        return
    tournament_id = tournament_id_of_game(game)
    game_id = game.pk
    deferred = _deferred.get()
    if deferred is not None:
        if tournament_id is not None:
            deferred.add(("tournament", tournament_id))
        deferred.add(("ratings", game_id))
        return

    if tournament_id is not None:
        # With the game id the standings task updates just this game's rows.
        transaction.on_commit(partial(_queue_standings, tournament_id, game_id))
    transaction.on_commit(partial(_queue_rating_update, game_id))


def _queue_standings(tournament_id: int, game_id: int) -> None:
    from tournaments.standings.tasks import recompute_standings

    try:
        recompute_standings.delay(tournament_id, game_id)
    except Exception:  # a broker outage must not turn a saved hand into an error
        log.exception("could not queue the standings of tournament %s", tournament_id)
        mark_standings_stale(tournament_id)


def _queue_rating_update(game_id: int) -> None:
    from club.ratings.tasks import update_ratings

    try:
        update_ratings.delay(game_id)
    except Exception:  # lost until the next full rebuild_ratings (see docs/reliability.md)
        log.exception("could not queue the rating update of game %s", game_id)
