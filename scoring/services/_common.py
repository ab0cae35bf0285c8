"""Shared helpers of the game services: locking, the engine run, the audit of a game write,
announcing changes."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from core.audit import Audit, audited, record_audit
from core.errors import ConflictError, PermissionDenied, ValidationFailed
from scoring.engine import RecordError, RulesError, final_results, load_ruleset
from scoring.engine.constants import WINDS
from scoring.models import Game, GamePenalty
from scoring.policy import GamePolicy, Owner, can_edit_game, game_relations, policy_for
from scoring.records import engine_error, final_scores_of
from scoring.signals import announce_game_changed
from scoring.summary import GameSummary
from scoring.tiles import Situation, TileError, cross_check, evaluate


def check_ruleset(ruleset: str, rule_overrides: Mapping[str, Any] | None) -> None:
    try:
        load_ruleset(ruleset, rule_overrides or None)
    except RulesError as error:
        raise engine_error(error) from error


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
    if actor is not None:
        policy_for(game)[0].check_open(actor, game, started=started)


def require_entry(
    actor: Any, game: Game, *, started: bool = True, hands: bool = False
) -> tuple[GamePolicy, Owner]:
    """Refuse the write unless `actor` may edit the game (PermissionDenied) and it takes changes
    now (require_open_session), asking the game's policy once; with `hands`, unless the game is
    entered hand by hand. Answer the policy (for the write's other questions) and whose game it
    is (its audit scope). `actor=None` is the system (management commands, imports run by staff
    tools): not checked."""
    policy, owner = policy_for(game)
    if actor is not None:
        if not can_edit_game(actor, game, policy=policy):
            raise PermissionDenied("You may not enter or change scores of this game.")
        policy.check_open(actor, game, started=started)
    if hands and game.entry != Game.Entry.HANDS:
        raise ValidationFailed(
            "This game was entered as final scores only; it has no hands.", field="entry"
        )
    return policy, owner


def locked_games() -> QuerySet[Game]:
    """Games read for a write: the row locked for this transaction (FOR UPDATE of the game
    only), with what its app's policy reads (scoring.policy.game_relations: a tournament game's
    table, session and tournament; the API answers with this very object).

    Never the game's seats, hands or penalties in the same statement: after waiting for the
    lock they would be the rows from before the previous holder committed (issue 30.2). A
    write reads them next, with scoring.records.stored_game_after_lock.
    """
    return Game.objects.select_for_update(of=("self",)).select_related(*game_relations())


def _transaction() -> object | None:
    """The outermost atomic block open on the connection: the database transaction."""
    connection = transaction.get_connection()
    return connection.atomic_blocks[0] if connection.in_atomic_block else None


def mark_locked(game: Game) -> Game:
    """`game` was read from locked_games() in the open transaction: lock_game keeps it instead
    of reading the row again (the API's write views lock the game they check; issue 14.7)."""
    game._locked_in = _transaction()  # type: ignore[attr-defined]
    return game


def lock_game(game: Game | int, *, expected_version: int) -> Game:
    """Lock the game row for this transaction and check the client's version.

    Must be called inside `transaction.atomic`. A stale version is a ConflictError carrying the
    current one: the client reloads instead of silently overwriting another referee's entry.
    A game already locked in this very transaction (mark_locked) is not read again.
    """
    pk = game if isinstance(game, int) else game.pk
    already = isinstance(game, Game) and getattr(game, "_locked_in", None) is _transaction()
    try:
        locked = game if already else locked_games().get(pk=pk)
    except Game.DoesNotExist as error:
        raise ValidationFailed("This game does not exist.", field="game") from error
    assert isinstance(locked, Game)
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


def game_state(game: Game) -> dict[str, Any]:
    """The game's own fields an audit entry keeps as before/after (game_snapshot without the
    hand count)."""
    return {
        "version": game.version,
        "status": game.status,
        "entry": game.entry,
        "end": game.end,
        "substitutes": game.substitutes,
        "final_scores": game.final_scores,
        "result": (GameSummary.of(game.summary).final or {}).get("result"),
    }


def game_snapshot(game: Game, *, hands: int | None = None) -> dict[str, Any]:
    """The state an audit entry keeps as before/after (`hands`: the count, when known)."""
    return {**game_state(game), "hands": game.hands.count() if hands is None else hands}


@contextmanager
def audited_game(
    game: Game,
    *,
    actor: Any,
    action: str,
    obj: Any = None,
    reason: str = "",
    owner: Owner,
    hands: Sequence[Any] | None = None,
    created: bool = False,
) -> Iterator[Audit]:
    """core.audit.audited for a write to `game` (or to `obj`, one of its rows): the game's
    snapshot before and after the block (`hands`: the game's hands as the block keeps them, to
    count without a query), in the game's scope: its tournament or club, as the app owning it
    says (`owner`: scoring.policy, as the write asked it)."""
    with audited(
        actor=actor,
        action=action,
        obj=game if obj is None else obj,
        snapshot=lambda: game_snapshot(game, hands=None if hands is None else len(hands)),
        created=created,
        reason=reason,
        tournament_id=owner.tournament_id,
        game_id=game.pk,
        club_id=owner.club_id,
    ) as audit:
        yield audit


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


def tile_check(
    game: Game, *, number: int, tiles: str, hand: dict[str, Any] | None = None
) -> dict[str, Any]:
    """What the typed tiles of a win give, and where the entered han/fu/yakuman disagree.

    `game.summary` is the fresh replay; `number` is the hand's index and `hand` its data (read
    from the database when not given). The situation comes from the hand (tsumo for a tsumo;
    riichi if the winner declared it) and from the engine's replay: the round wind and dealer
    of that hand (`summary["hands"][number]` holds the round and dealer the hand was played in,
    i.e. the replay's `next` before it). A mismatch never blocks the entry (the referee
    decides); tiles that are no hand are a ValidationFailed naming "tiles".
    """
    if hand is None:
        hand = game.hands.get(number=number).data
    summary = GameSummary.of(game.summary)
    if not single_win(hand):
        raise ValidationFailed("Tiles can be checked for a single win only.", field="tiles")
    win = hand["wins"][0]
    replayed = summary.hands[number]
    players = len(replayed["scores"])
    winner = int(win["winner"])
    situation = Situation(
        tsumo=hand["outcome"] == "tsumo",
        riichi=winner in (hand.get("riichi") or []),
        seat_wind=WINDS[(winner - int(replayed["dealer"])) % players],
        round_wind=str(replayed["round"])[:1] or "E",
    )
    rules = load_ruleset(game.ruleset, game.rule_overrides or None)
    try:
        evaluation = evaluate(tiles, rules=rules, situation=situation)
    except TileError as error:
        raise ValidationFailed(error.message, field="tiles", errors=[error.as_dict()]) from error
    mismatches = cross_check(
        evaluation, han=win.get("han"), fu=win.get("fu"), yakuman=win.get("yakuman", 0)
    )
    return {
        "han": evaluation.han,
        "fu": evaluation.fu,
        "yakuman": evaluation.yakuman,
        "yaku": evaluation.yaku_entries(),
        "mismatches": mismatches,
    }


def single_win(hand: dict[str, Any]) -> bool:
    wins = hand.get("wins")
    return hand.get("outcome") in ("ron", "tsumo") and isinstance(wins, list) and len(wins) == 1


def audit_game_write(
    game: Game,
    *,
    actor: Any,
    action: str,
    obj: Any,
    owner: Owner,
    before: Mapping[str, Any],
    hands: int,
    **notes: Any,
) -> None:
    """Audit a write to `game` (`obj`: the row written) once it is done, in the game's scope
    (`owner`): `before` its snapshot when locked; after, its state now with `hands` hands, and
    `notes`. For a write whose last step is its audit (a hand entered, so that the audit is
    the write's one step into core); the other writes are wrapped in audited_game."""
    after = {**game_state(game), "hands": hands, **notes}
    record_audit(
        actor=actor,
        action=action,
        obj=obj,
        before=before,
        after=after,
        tournament_id=owner.tournament_id,
        game_id=game.pk,
        club_id=owner.club_id,
    )


def mark_game_entry(actor: Any, game: Game) -> None:
    """`actor` wrote the game's own entry (a paper score sheet, the finish): in club play
    without a referee it waits for the other players' confirmation as a hand does (issue 30.3;
    scoring.services.confirm_game); by a club admin, a referee or the system it needs none.
    Sets the fields; the caller saves entry_confirmed, entered_by, confirmed_by, confirmed."""
    waits = policy_for(game)[0].entry_waits(actor, game)
    game.entry_confirmed = not waits
    game.entered_by = actor if waits else None
    game.confirmed_by = []
    if waits:
        game.confirmed = False
    elif not game.confirmed:
        game.confirmed = not game.hands.filter(confirmed=False).exists()


GAME_ENTRY_FIELDS = ["entry_confirmed", "entered_by", "confirmed_by", "confirmed"]


def announce_change(game: Game, *, ratings: bool = False) -> None:
    """After commit, tell the upper layers the game changed (scoring.signals.game_changed):
    the tournament's standings and the ratings follow (their receivers queue the tasks).

    Only finished games count in standings and ratings, so a change to a running game (a hand
    entered, corrected or deleted) changes no results; `ratings=True` when a game stops being
    finished (reopened), whose results stop counting.
    """
    finished = game.status == Game.Status.FINISHED
    if finished or ratings:
        announce_game_changed(game, finished=finished)


def final_scores_summary(game: Game) -> dict[str, Any]:
    """The replay-shaped summary of a final-scores game (no hands; `final` from the engine)."""
    scores, sticks = final_scores_of(game)  # either stored shape
    if not scores:
        return {"hands": [], "final": None, "ended_by": None, "next": None}
    rules = load_ruleset(game.ruleset, game.rule_overrides or None)
    penalties = [
        {"seat": p.seat, "points": p.points, "kind": p.kind}
        for p in GamePenalty.objects.filter(game=game).order_by("id")
    ]
    try:
        final = final_results(
            scores=scores,
            rules=rules,
            riichi_sticks_left=sticks,
            penalties=penalties,
            substitutes=game.substitutes or (),
        )
    except RecordError as error:
        raise engine_error(error) from error
    return {"hands": [], "final": final, "ended_by": "final_scores", "next": None}
