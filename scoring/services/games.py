"""Game services: create, read as a game record, finalize/reopen, import a whole record.

Every write locks the game row, checks the client's `expected_version`, re-runs the engine over
the whole record, stores the summary, bumps the version, audits, and after commit enqueues the
standings (tournament games) or ratings (club games) recompute.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from django.db import transaction
from django.utils import timezone

from core.errors import ValidationFailed
from core.models import Player
from scoring.engine import (
    RecordError,
    Ruleset,
    check_penalty_amounts,
    load_ruleset,
    preview_hand,
)
from scoring.engine.constants import RECORD_FORMAT
from scoring.models import Game, GamePenalty, GameSeat, Hand
from scoring.policy import policy_for
from scoring.records import (
    engine_error,
    game_record,  # the one game-record writer (re-exported)
    replay_record,
    resolve_player_label,
    stored_game_after_lock,
)
from scoring.selectors import chombo_points
from scoring.signals import record_imported
from scoring.summary import GameSummary

from ._common import (
    GAME_ENTRY_FIELDS,
    announce_change,
    audited_game,
    bump_version,
    check_ruleset,
    final_scores_summary,
    keep_loaded,
    lock_game,
    mark_game_entry,
    require_entry,
)

END_VALUES = ("complete", "time")


def seat_players(game: Game) -> list[Player]:
    return [s.player for s in game.seats.select_related("player").order_by("seat")]


def compute_summary(game: Game) -> dict[str, Any]:
    """The engine's replay of the game as stored (raises ValidationFailed if it contradicts)."""
    if game.entry == Game.Entry.FINAL_SCORES:
        return final_scores_summary(game)
    return replay_record(game_record(game))


def is_over(summary: Mapping[str, Any] | None) -> bool:
    """Whether the rules ended the game (replay's `next` is None once it is over)."""
    return GameSummary.of(summary).over


def save_written_game(game: Game, *, fields: Sequence[str] = (), ratings: bool = False) -> None:
    """Re-run the engine, store the summary and the next version (inside the transaction)."""
    game.summary = compute_summary(game)
    bump_version(game, fields=[*fields, "summary"])
    announce_change(game, ratings=ratings)


class Place(Protocol):
    """Where a new game is played, as the upper app owning the place passes it down (a
    tournament table: tournaments.places.TablePlace; a club night: club.places.NightPlace).
    Scoring asks it these questions and looks nothing up (issue 29)."""

    @property
    def pk(self) -> Any:
        """The id of the place's row."""

    @property
    def one_game(self) -> bool:
        """Whether the place holds one game only (a tournament table)."""
        ...

    def check_create(self, actor: Any, players: Sequence[Player]) -> None:
        """Raise PermissionDenied or ValidationFailed if `actor` (never None: the system is not
        checked) may not create a game for `players` here."""

    def check_open(self, actor: Any) -> None:
        """Raise ValidationFailed if nothing may be played here now (an import)."""

    def taken(self) -> bool:
        """Whether the place holds its one game already."""
        ...

    def seated_game(self) -> Game | None:
        """The game the seating created here for an import to fill (issue 20), if any."""
        ...

    def check_fill(self, actor: Any) -> None:
        """Raise PermissionDenied if `actor` (never None) may not import into seated_game."""

    def attach(self, game: Game) -> None:
        """Link the new (saved) `game` to the place: afterwards its app owns it."""


@transaction.atomic
def create_game(
    *,
    actor: Any,
    players: Sequence[Player],
    ruleset: str,
    rule_overrides: dict[str, Any] | None = None,
    place: Place | None = None,
    entry: str = Game.Entry.HANDS,
) -> Game:
    """A new game at `place` (a tournament table, a club night, as the app owning it passes it:
    it checks who may create the game there and links it); `players` in seat order (seat 0 is
    East at the start)."""
    if place is None:
        raise ValidationFailed("A game belongs to either a table or a club night.", field="table")
    check_ruleset(ruleset, rule_overrides)
    seats = load_ruleset(ruleset, rule_overrides or None).players
    if len(players) != seats:
        raise ValidationFailed(f"A game needs {seats} players.", field="players")
    if len({p.pk for p in players}) != len(players):
        raise ValidationFailed("A player cannot sit twice at one table.", field="players")
    if entry not in Game.Entry.values:
        raise ValidationFailed("Unknown entry mode.", field="entry")
    if place.taken():
        raise ValidationFailed("This table already has a game.", field="table")
    game = Game(ruleset=ruleset, rule_overrides=rule_overrides or {}, entry=entry)
    if actor is not None:
        place.check_create(actor, players)
    game.save()
    place.attach(game)
    GameSeat.objects.bulk_create(
        [GameSeat(game=game, seat=i, player=p) for i, p in enumerate(players)]
    )
    with audited_game(
        game, actor=actor, action="game.create", created=True, owner=policy_for(game)[1]
    ) as audit:
        game.summary = compute_summary(game)
        game.save(update_fields=["summary"])
        audit.note(players=[p.pk for p in players], ruleset=ruleset)
    return game


def preview(*, game: Game, hand: dict[str, Any], at: int | None = None) -> dict[str, Any]:
    """What the game would look like with `hand` appended; writes nothing. With `at`, `hand`
    is put in place of hand `at` (a correction): only the hands before it count."""
    record = game_record(game)
    if at is not None:
        record = {**record, "hands": record["hands"][:at]}
    try:
        result = dict(preview_hand(record, hand))
    except RecordError as error:
        raise engine_error(error) from error
    if isinstance(hand, dict) and hand.get("outcome") == "chombo":
        # EMA 2025 3.4.6: nothing changes hands at the table; say what it costs after uma
        # (`points` None where the rules pay it at the table, then in `deltas`).
        rules = load_ruleset(game.ruleset, game.rule_overrides or None)
        result["chombo"] = {"seat": hand.get("offender"), "points": chombo_points(rules)}
    return result


@transaction.atomic
def finalize_game(
    *,
    actor: Any,
    game: Game,
    expected_version: int,
    end: str | None = None,
    reason: str = "",
) -> Game:
    """Mark the game finished so its results count.

    A game the rules have not ended yet needs `end="time"`: a time-limited session stopped
    after the last hand (EMA 2025 7.4), allowed once the session's time signal has sounded
    (before it, organisers only: `check_time_signal`).
    """
    override: str | None = None
    game = lock_game(game, expected_version=expected_version)
    owner = require_entry(actor, game)[1]
    if game.status == Game.Status.FINISHED:
        raise ValidationFailed("The game is already finished.", field="status")
    # Its seats, hands and penalties, read after the lock (issue 30.2): the game is replayed
    # from these rows, and the answer is built from them (issue 14.7).
    stored = stored_game_after_lock(game)
    with audited_game(
        game, actor=actor, action="game.finalize", reason=reason, hands=stored.hands, owner=owner
    ) as audit:
        if end is not None:
            if end not in END_VALUES:
                raise ValidationFailed('end must be "complete" or "time".', field="end")
            game.end = end
        summary: dict[str, Any] | None = None
        if game.entry == Game.Entry.FINAL_SCORES:
            if not game.final_scores:
                raise ValidationFailed("Enter the final scores first.", field="final_scores")
        else:
            if not stored.hands:
                raise ValidationFailed("The game has no hands yet.", field="hands")
            # One record, replayed as it will be stored (finishing changes nothing the engine
            # reads) and, for an end on time, once more as if the rules had to end it.
            record = game_record(game, stored)
            summary = replay_record(record)
            if game.end == "complete" and not is_over(summary):
                raise ValidationFailed(
                    "The rules have not ended this game yet; if the session stopped on time, "
                    'finish it with end "time" (EMA 2025 7.4).',
                    field="end",
                )
            if game.end == "time" and not _ended_by_rules(game, record):
                override = check_time_signal(actor, game)
                if override and actor is not None and not reason.strip():
                    raise ValidationFailed(
                        "The time signal has not sounded yet: say why the game ends on time now "
                        "(EMA 2025 7.4; kept in the audit trail).",
                        field="reason",
                    )
        game.status = Game.Status.FINISHED
        game.finished_at = timezone.now()
        # Finishing a club game alone is an entry the other players confirm (issue 30.3) where
        # it is the player's choice: a paper sheet's game, or an end on time. A hand game the
        # rules ended follows from its hands, which wait on their own.
        chosen = game.entry == Game.Entry.FINAL_SCORES or game.end == "time"
        mark_game_entry(actor if chosen else None, game)
        fields = ["status", "finished_at", "end", *GAME_ENTRY_FIELDS]
        if summary is None:
            save_written_game(game, fields=fields)
        else:
            game.summary = summary
            bump_version(game, fields=[*fields, "summary"])
            announce_change(game)
        if override:
            audit.note(override=override)  # an organiser ended it before the time signal
    keep_loaded(game, seats=stored.seats, hands=stored.hands)  # the answer needs no read
    return game


def _ended_by_rules(game: Game, record: Mapping[str, Any] | None = None) -> bool:
    """Whether the rules ended the game without an `end: "time"` (the engine's own EMA 2025
    7.4 end, the signal hand and one more, counts). `record`: the game's record, already
    written (game_record leaves `end` out for "complete")."""
    if record is not None:
        return is_over(replay_record({k: v for k, v in record.items() if k != "end"}))
    chosen = game.end
    game.end = "complete"
    try:
        return is_over(compute_summary(game))
    finally:
        game.end = chosen


def check_time_signal(actor: Any, game: Game) -> str | None:
    """EMA 2025 7.4: a game the rules have not ended stops on time only after the time signal
    (15 minutes before the session's end). Before it only an organiser may end it (the audit
    entry then says `"override": "before_time_signal"`); a referee is refused. The game's
    policy says when the signal sounds (club games have no session clock)."""
    on_time = policy_for(game)[0].check_open(actor, game, on_time=True)
    if on_time.allowed:
        return "before_time_signal" if on_time.override else None
    if on_time.waits_for_hand:
        raise ValidationFailed(f"{on_time.note} Only an organiser may end it earlier.", field="end")
    when = (
        f"It sounds at {on_time.signal_at:%H:%M} UTC."
        if on_time.signal_at is not None
        else "The session has no start time yet."
    )
    raise ValidationFailed(
        "The time signal has not sounded yet (15 minutes before the end of the session, EMA "
        f"2025 7.4), so the game cannot end on time. {when} Only an organiser may end it "
        "earlier.",
        field="end",
    )


@transaction.atomic
def reopen_game(*, actor: Any, game: Game, expected_version: int, reason: str) -> Game:
    """Undo finalize (e.g. a hand was forgotten); the results stop counting until finalized."""
    game = lock_game(game, expected_version=expected_version)
    owner = require_entry(actor, game)[1]
    if not reason.strip():
        raise ValidationFailed("Say why the game is reopened.", field="reason")
    if game.status != Game.Status.FINISHED:
        raise ValidationFailed("The game is not finished.", field="status")
    with audited_game(game, actor=actor, action="game.reopen", reason=reason, owner=owner):
        game.status = Game.Status.IN_PROGRESS
        game.finished_at = None
        if game.entry == Game.Entry.HANDS:
            game.end = "complete"
        save_written_game(game, fields=["status", "finished_at", "end"], ratings=True)
    return game


@transaction.atomic
def set_substitutes(
    *,
    actor: Any,
    game: Game,
    substitutes: list[dict[str, Any]],
    expected_version: int,
    reason: str = "",
) -> Game:
    """Replace the game's `substitutes` list (EMA 2025 7.3); validated by the engine."""
    game = lock_game(game, expected_version=expected_version)
    owner = require_entry(actor, game, started=False)[1]  # EMA 2025 7.3: before the game began
    with audited_game(game, actor=actor, action="game.substitutes", reason=reason, owner=owner):
        game.substitutes = list(substitutes)
        save_written_game(game, fields=["substitutes"])
    return game


@transaction.atomic
def import_game_record(
    *,
    actor: Any,
    record: dict[str, Any],
    players: Sequence[Player],
    place: Place | None = None,
    finalize: bool = True,
) -> Game:
    """Create a game from a whole game record at `place` (as create_game); all of it is
    checked before anything is kept."""
    if not isinstance(record, Mapping):
        raise ValidationFailed("A game record must be a JSON object.", field="record")
    if record.get("format", RECORD_FORMAT) != RECORD_FORMAT:
        raise ValidationFailed(f'format must be "{RECORD_FORMAT}".', field="format")
    if not isinstance(record.get("ruleset"), str):
        raise ValidationFailed("ruleset is missing.", field="ruleset")
    hands = record.get("hands") or []
    if not isinstance(hands, list):
        raise ValidationFailed("hands must be a list.", field="hands")
    end = record.get("end", "complete")
    if end not in END_VALUES:
        raise ValidationFailed('end must be "complete" or "time".', field="end")
    names = record.get("players")
    if isinstance(names, list) and len(names) != len(players):
        raise ValidationFailed(
            f"The record has {len(names)} players, {len(players)} were given.", field="players"
        )
    if place is not None and actor is not None:
        # A record for a table of a session that has not started or is closed: refused.
        place.check_open(actor)
    summary = replay_record({**record, "format": RECORD_FORMAT})  # reject before writing anything
    try:
        # Issue 15: penalty amounts as the rule text fixes them (EMA 2025 6.12, 7.2, 7.5).
        check_penalty_amounts({**record, "format": RECORD_FORMAT})
    except RecordError as error:
        raise engine_error(error) from error
    if finalize and end == "complete" and not is_over(summary):
        # A finished game counts for standings and ratings: only one the rules ended.
        raise ValidationFailed(
            "The rules have not ended this game yet, so it cannot be imported as finished: "
            'import it with finalize false, or with end "time" if the session stopped on '
            "time (EMA 2025 7.4).",
            field="finalize",
        )
    substitutes = _record_substitutes(record, players)
    sheet = record.get("final_scores")
    seated = _seated_empty_game(actor, place, record, players, substitutes)
    if seated is not None:
        game = seated  # issue 20: fill the game the seating created
    else:
        game = create_game(
            actor=actor,
            players=players,
            ruleset=record["ruleset"],
            rule_overrides=record.get("rules") or None,
            place=place,
        )
    Hand.objects.bulk_create(
        [
            Hand(game=game, number=i, data=h, entered_by=user_or_none(actor))
            for i, h in enumerate(hands)
        ]
    )
    rules = load_ruleset(record["ruleset"], record.get("rules") or None)
    for p in record.get("penalties") or []:
        if p.get("kind") == "chombo" and not isinstance(sheet, Mapping):
            continue  # the engine derives chombo penalties from chombo hands
        # A paper sheet (extension final_scores) has no hands: its chombos are these penalties
        # (EMA 2025 3.4.6), kept as the web and API sheet keep them.
        GamePenalty.objects.create(
            game=game,
            seat=p["seat"],
            kind=p.get("kind", "other"),
            points=_penalty_points(p, rules),
            note=p.get("note", ""),
        )
    if isinstance(sheet, Mapping):
        # Extension (issue 20): a paper score sheet.
        game.entry = Game.Entry.FINAL_SCORES
        game.final_scores = {
            "scores": list(sheet["scores"]),
            "riichi_sticks_left": int(sheet.get("riichi_sticks_left") or 0),
        }
        game.save(update_fields=["entry", "final_scores"])
    if substitutes:
        for sub in substitutes:
            GameSeat.objects.filter(game=game, seat=sub["seat"]).update(player_id=sub["player_id"])
    # What the record says beyond the game (issue 20: the tournament's penalties, substitute
    # registrations) is kept by the app owning it.
    kept = {
        key
        for _receiver, keys in record_imported.send(
            sender=Game,
            actor=actor,
            game=game,
            record=record,
            players=players,
            substitutes=substitutes,
        )
        for key in keys or ()
    }
    if record.get("tournament_penalties") and "tournament_penalties" not in kept:
        raise ValidationFailed(
            "Tournament penalties belong to a tournament game.", field="tournament_penalties"
        )
    if hands and policy_for(game)[0].entry_waits(actor, game):
        # Club play without a referee: the other players confirm an imported record too.
        game.hands.update(confirmed=False)
        game.confirmed = False
    game.end = end
    game.substitutes = substitutes or list(record.get("substitutes") or [])
    fields = ["end", "substitutes", "confirmed"]
    if isinstance(sheet, Mapping) or finalize:
        # A paper sheet or a finish imported by a seated club player waits too (issue 30.3).
        mark_game_entry(actor, game)
        fields += GAME_ENTRY_FIELDS
    if finalize:
        game.status = Game.Status.FINISHED
        game.finished_at = timezone.now()
        fields += ["status", "finished_at"]
    with audited_game(
        game, actor=actor, action="game.import", created=True, owner=policy_for(game)[1]
    ) as audit:
        save_written_game(game, fields=fields)
        audit.note(record=game_record(game))
    return game


def _record_substitutes(
    record: Mapping[str, Any], players: Sequence[Player]
) -> list[dict[str, Any]]:
    """The record's substitutes with the players (extension ``replaces``, issue 20): the
    substitute is the player at the seat, ``replaces`` names the absent player."""

    out: list[dict[str, Any]] = []
    for i, sub in enumerate(record.get("substitutes") or []):
        entry = {"seat": sub["seat"], "from": sub["from"]}
        if sub.get("replaces"):
            replaced = resolve_player_label(str(sub["replaces"]), create=False)
            if replaced is None:
                raise ValidationFailed(
                    f"substitutes[{i}].replaces: no player {sub['replaces']!r}.",
                    field=f"substitutes[{i}].replaces",
                )
            entry["player_id"] = players[sub["seat"]].pk
            entry["replaced_player_id"] = replaced.pk
        out.append(entry)
    return out if any("replaced_player_id" in e for e in out) else []


def _seated_empty_game(
    actor: Any,
    place: Place | None,
    record: Mapping[str, Any],
    players: Sequence[Player],
    substitutes: Sequence[Mapping[str, Any]],
) -> Game | None:
    """The game the seating created at ``place``, if it is still empty (issue 20: import fills
    it); the record's players must be the seated ones, a substitute in the seat it replaced."""
    if place is None:
        return None
    game = place.seated_game()
    if game is None:
        return None
    if (
        game.hands.exists()
        or game.final_scores
        or game.status != Game.Status.IN_PROGRESS
        or game.penalties.exists()
    ):
        raise ValidationFailed("This table already has a game.", field="table")
    if actor is not None:
        place.check_fill(actor)
    if record["ruleset"] != game.ruleset or (record.get("rules") or {}) != (
        game.rule_overrides or {}
    ):
        raise ValidationFailed(
            "The record's rules are not the rules of this table's game.", field="ruleset"
        )
    replaced = {s["seat"]: s["replaced_player_id"] for s in substitutes}
    seated = dict(GameSeat.objects.filter(game=game).values_list("seat", "player_id"))
    expected = {seat: replaced.get(seat, pid) for seat, pid in seated.items()}
    given = {seat: p.pk for seat, p in enumerate(players)}
    given.update(replaced)
    if expected != given:
        raise ValidationFailed(
            "The record's players are not the players seated at this table.", field="players"
        )
    return game


def _penalty_points(penalty: Mapping[str, Any], rules: Ruleset) -> int:
    """A record penalty's points, with the defaults the engine applies when they are left out."""
    if penalty.get("points") is not None:
        return int(penalty["points"])
    kind = penalty.get("kind", "other")
    if kind == "lateness":
        return math.ceil(penalty["minutes"]) * rules.lateness_per_minute  # EMA 2025 7.2
    if kind == "score_sheet":
        return rules.score_sheet_penalty  # EMA 2025 7.5
    if kind == "all_last_sheet":
        return rules.all_last_sheet_penalty
    if kind == "chombo":
        return rules.chombo.points  # a paper sheet's chombo, EMA 2025 3.4.6
    return 0


def user_or_none(actor: Any) -> Any:
    return actor if actor is not None and getattr(actor, "is_authenticated", False) else None
