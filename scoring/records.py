"""Game records (formats/game-record.md) out of and into the database, and a game's results.

- ``game_record(game)``: the game as a ``riichi-game-record/1`` document. This is the only
  implementation: the services (``scoring.services.game_record`` re-exports it), the API, the
  web pages and the export commands all write records through it.
- ``game_final(game)``: the engine's ``final`` object of a finished game (what standings,
  ratings and statistics read), from the cached ``Game.summary`` or computed afresh.
- ``import_game_records(...)``: validate records with the engine and create the games, all or
  nothing.

Player names in a record are strings; ours are "First Last", with the EMA number in square
brackets when the player has one ("Anna Berg [04120017]"), so an import can find the player
again. An import resolves each name by EMA number, else by a unique exact name, else creates
the player.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.db import connection
from django.db.models import DateTimeField, JSONField
from django.db.models.expressions import RawSQL
from django.utils.dateparse import parse_datetime

from core.errors import ValidationFailed
from core.models import Player
from scoring.engine import (
    RecordError,
    check_final_scores,
    final_results,
    load_ruleset,
    replay,
)
from scoring.engine.constants import RECORD_FORMAT
from scoring.models import Game, GamePenalty, GameSeat, Hand
from scoring.signals import record_extensions
from scoring.summary import GameSummary

_NAME_WITH_EMA = re.compile(r"^(?P<name>.*?)\s*\[(?P<ema>\d{8})\]$")


def player_label(player: Player) -> str:
    """A player's name in a game record: "First Last", plus "[EMA number]" when known."""
    name = f"{player.first_name} {player.last_name}".strip()
    return f"{name} [{player.ema_number}]" if player.ema_number else name


def final_scores_of(game: Game) -> tuple[list[int], int]:
    """Paper-sheet scores and riichi sticks left, whichever shape ``final_scores`` was saved in.

    Accepted: a list of scores, or {"scores": [...], "riichi_sticks_left": n}.
    """
    stored: Any = game.final_scores
    if isinstance(stored, Mapping):
        return list(stored.get("scores") or []), int(stored.get("riichi_sticks_left") or 0)
    return list(stored or []), 0


@dataclass
class StoredGame:
    """The rows a game record is made of, read once: seats (with players), hands, penalties.

    A write that replays the game keeps them to answer with (seats and hands of the API's
    answer) instead of reading them again.
    """

    seats: list[GameSeat]
    hands: list[Hand]
    penalties: list[GamePenalty]


# ---- the rows in one query (PostgreSQL) ------------------------------------------------------
# A game's seats, hands and penalties in one query instead of three: on PostgreSQL each list
# comes as an array of its rows (`to_jsonb`: every column, by its name), and becomes model
# instances again here. The SQL is written once (compiling the same thing from ORM expressions
# cost more CPU than the round trips it saves). Other databases (SQLite in development and
# `make test`) read the rows with load_stored_game.
#
# Never inside the statement that locks the game for a write (issue 30.2): a SELECT ... FOR
# UPDATE that waited for another transaction's lock returns the newest game row, but its
# subqueries still read the snapshot taken before the wait, without the hand that transaction
# just committed. A write reads the rows after the lock, with stored_game_after_lock.

_ROWS = "_stored_rows_"


@functools.cache
def _rows_sql() -> dict[str, str]:
    game = Game._meta.db_table
    seat, player = GameSeat._meta.db_table, Player._meta.db_table
    hand, penalty = Hand._meta.db_table, GamePenalty._meta.db_table

    def array(select: str, where: str, order: str) -> str:
        return f'ARRAY({select} WHERE {where} = "{game}"."id" ORDER BY {order})'

    return {
        "seats": array(
            f"SELECT to_jsonb(s) || jsonb_build_object('player', to_jsonb(p)) FROM \"{seat}\" s "
            f'JOIN "{player}" p ON p."id" = s."player_id"',
            's."game_id"',
            's."seat"',
        ),
        "hands": array(f'SELECT to_jsonb(h) FROM "{hand}" h', 'h."game_id"', 'h."number"'),
        "penalties": array(f'SELECT to_jsonb(x) FROM "{penalty}" x', 'x."game_id"', 'x."id"'),
    }


def stored_rows_annotations() -> dict[str, Any]:
    """Annotations of a Game queryset (whose table keeps its own name as alias, as in
    `Game.objects...`) carrying its seats (with players), hands and penalties, for
    stored_game_from(); none off PostgreSQL. Ordered as load_stored_game orders them."""
    if connection.vendor != "postgresql":
        return {}
    # PostgreSQL only: django.contrib.postgres needs psycopg.
    from django.contrib.postgres.fields import ArrayField

    return {
        f"{_ROWS}{name}": RawSQL(sql, (), output_field=ArrayField(JSONField()))
        for name, sql in _rows_sql().items()
    }


def _instance(model: type[Any], row: Mapping[str, Any]) -> Any:
    """A model instance as if read from the database, from its row as a JSON object."""
    fields = model._meta.concrete_fields
    values = []
    for field in fields:
        value = row[field.column]
        if value is not None and isinstance(field, DateTimeField):
            value = parse_datetime(value)
        values.append(value)
    return model.from_db(connection.alias, [f.attname for f in fields], values)


def stored_game_from(game: Game) -> StoredGame | None:
    """The rows stored_rows_annotations() brought with `game`, once (they are the rows as the
    query saw them; a later read must go to the database); None when they were not asked for."""
    rows = {name: game.__dict__.pop(f"{_ROWS}{name}", None) for name in _rows_sql()}
    if any(value is None for value in rows.values()):
        return None
    seats = []
    for row in rows["seats"]:
        seat = _instance(GameSeat, row)
        seat.player = _instance(Player, row["player"])
        seats.append(seat)
    return StoredGame(
        seats=seats,
        hands=[_instance(Hand, row) for row in rows["hands"]],
        penalties=[_instance(GamePenalty, row) for row in rows["penalties"]],
    )


def stored_game_after_lock(game: Game) -> StoredGame:
    """The rows of a game this transaction has locked, read by a statement of their own after
    the lock (so they include whatever the previous lock holder committed): one query on
    PostgreSQL, three elsewhere."""
    names = stored_rows_annotations()
    if not names:
        return load_stored_game(game)
    row = Game.objects.filter(pk=game.pk).annotate(**names).values(*names).get()
    loaded = Game(pk=game.pk)
    loaded.__dict__.update(row)
    stored = stored_game_from(loaded)
    assert stored is not None
    return stored


def load_stored_game(game: Game) -> StoredGame:
    """Three queries: seats with their players, hands in order, penalties in order."""
    return StoredGame(
        seats=list(GameSeat.objects.filter(game=game).select_related("player").order_by("seat")),
        hands=list(Hand.objects.filter(game=game).order_by("number")),
        penalties=list(GamePenalty.objects.filter(game=game).order_by("id")),
    )


def engine_error(error: RecordError, *, prefix: str = "") -> ValidationFailed:
    """The engine's error (hand, field, message) as a ValidationFailed naming the field."""
    field = error.field or None
    if prefix and field:
        field = f"{prefix}.{field}"
    elif prefix:
        field = prefix
    return ValidationFailed(error.message, field=field, errors=[error.as_dict()])


def replay_record(record: Mapping[str, Any]) -> dict[str, Any]:
    """The engine's replay of `record` (the game's summary); a record the rules reject is a
    ValidationFailed naming the field."""
    try:
        return dict(replay(record))
    except RecordError as error:
        raise engine_error(error) from error


def game_record(
    game: Game, stored: StoredGame | None = None, *, tournament_penalties: bool = True
) -> dict[str, Any]:
    """The game as a game-record document (hands in order; club penalties; substitutes), with
    the extensions the app owning the game adds (issue 20: `tournament_penalties`).

    `stored`: the rows already read (load_stored_game), else they are read here.
    `tournament_penalties=False`: without those extensions (own_record).
    """
    if stored is None:
        stored = load_stored_game(game)
    record = own_record(game, stored)
    if tournament_penalties:
        # The app owning the game adds its extensions (issue 20: `tournament_penalties`).
        for _receiver, extensions in record_extensions.send(
            sender=Game, game=game, seats=stored.seats
        ):
            if isinstance(extensions, Mapping):
                record.update(extensions)
    return record


def own_record(game: Game, stored: StoredGame) -> dict[str, Any]:
    """The game's record as scoring keeps it (`stored`: its rows as read), without what the
    app owning the game adds: what the engine replays while hands are entered (the extensions
    change nothing in a running game's replay)."""
    record: dict[str, Any] = {
        "format": RECORD_FORMAT,
        "ruleset": game.ruleset,
        "players": [player_label(s.player) for s in stored.seats],
        "hands": [h.data for h in stored.hands],
    }
    if game.rule_overrides:
        record["rules"] = dict(game.rule_overrides)
    if game.end and game.end != "complete":
        record["end"] = game.end
    penalties = [
        {"seat": p.seat, "points": p.points, "kind": p.kind, **({"note": p.note} if p.note else {})}
        for p in stored.penalties
    ]
    if penalties:
        record["penalties"] = penalties
    if game.substitutes:
        # The format's keys, plus whom the substitute replaced (extension, issue 20): the
        # player at that seat in ``players`` is the substitute who played.
        replaced = {
            p.pk: p
            for p in Player.objects.filter(
                pk__in=[x.get("replaced_player_id") for x in game.substitutes]
            )
        }
        record["substitutes"] = [
            {
                "seat": x["seat"],
                "from": x["from"],
                **(
                    {"replaces": player_label(replaced[x["replaced_player_id"]])}
                    if x.get("replaced_player_id") in replaced
                    else {}
                ),
            }
            for x in game.substitutes
        ]
    if game.entry == Game.Entry.FINAL_SCORES:
        # Extension (issue 20): the paper score sheet, so the record is the whole game.
        scores, sticks = final_scores_of(game)
        if scores:
            record["final_scores"] = {"scores": scores, "riichi_sticks_left": sticks}
    return record


def compute_final(game: Game) -> dict[str, Any] | None:
    """The ``final`` object computed by the engine from the stored hands or paper scores.

    A game finalized before the rules ended it (a time-limited session, EMA 2025 7.4) is
    scored as ``end: "time"``.
    """
    if game.entry == Game.Entry.FINAL_SCORES:
        scores, sticks = final_scores_of(game)
        if not scores:
            return None
        record = game_record(game)
        return final_results(
            scores=scores,
            rules=load_ruleset(game.ruleset, game.rule_overrides or None),
            riichi_sticks_left=sticks,
            penalties=record.get("penalties", ()),
            substitutes=record.get("substitutes", ()),
        )
    record = game_record(game)
    final = replay(record)["final"]
    if final is None and game.status == Game.Status.FINISHED and record["hands"]:
        final = replay({**record, "end": "time"})["final"]
    return final if isinstance(final, dict) else None


def game_final(game: Game) -> dict[str, Any] | None:
    """The results of a finished game (None while it is in progress).

    Reads the cached ``Game.summary["final"]``; computes it with the engine when the cache is
    empty (e.g. rows written by a bulk import).
    """
    if game.status != Game.Status.FINISHED:
        return None
    final = GameSummary.of(game.summary).final
    if final:
        return final
    return compute_final(game)


def check_game_points(game: Game) -> str | None:
    """Why the game's table scores do not add up to the starting total, or None if they do."""
    rules = load_ruleset(game.ruleset, game.rule_overrides or None)
    try:
        if game.entry == Game.Entry.FINAL_SCORES:
            scores, sticks = final_scores_of(game)
            check_final_scores(scores=scores, rules=rules, riichi_sticks_left=sticks)
            return None
        result = replay(game_record(game))
    except RecordError as exc:
        return str(exc)
    hands = result["hands"]
    assert isinstance(hands, list)
    if not hands:
        return "the game has no hands"
    expected = rules.players * rules.start_points
    total = sum(hands[-1]["scores"])
    # What is missing from the table scores must be riichi sticks still on the table.
    on_table = expected - total
    if on_table < 0 or (rules.riichi_stick and on_table % rules.riichi_stick):
        return f"table scores add up to {total}, expected {expected} less riichi sticks"
    return None


# --- import -------------------------------------------------------------------------------


NAME_MAX = Player._meta.get_field("first_name").max_length or 100


def _checked_name(text: str, index: int) -> str:
    """A name part as a new player gets it: at most NAME_MAX characters, nothing unprintable
    (issue 16.7: a 300-character name was a database error, not a 400)."""
    text = " ".join(text.split())
    if len(text) > NAME_MAX:
        raise ValidationFailed(
            f"record {index}: a player's first or last name is at most {NAME_MAX} characters.",
            field="players",
        )
    if any(unicodedata.category(ch) in ("Cc", "Cs", "Co", "Cn") for ch in text):
        raise ValidationFailed(
            f"record {index}: a player's name contains unprintable characters.", field="players"
        )
    return text


def resolve_player_label(label: str, index: int = 0, *, create: bool = True) -> Player | None:
    """The player a record's name stands for: by EMA number, else a unique exact name; else
    a new player (or None with ``create=False``)."""
    if len(label) > 2 * NAME_MAX + 20:  # a name, a space, a name and " (EMA number)"
        raise ValidationFailed(
            f"record {index}: a player is at most {2 * NAME_MAX + 20} characters.",
            field="players",
        )
    match = _NAME_WITH_EMA.match(label)
    name, ema = (match["name"], match["ema"]) if match else (label.strip(), None)
    if ema:
        found = Player.objects.filter(ema_number=ema).first()
        if found:
            return found
    first, _, last = name.partition(" ")
    first, last = _checked_name(first, index), _checked_name(last, index)
    candidates = list(Player.objects.filter(first_name=first, last_name=last)[:2])
    if len(candidates) == 1 and (ema is None or not candidates[0].ema_number):
        return candidates[0]
    if not create:
        return None
    return Player.objects.create(first_name=first, last_name=last, ema_number=ema)


def _resolve_player(label: str, index: int = 0) -> Player:
    player = resolve_player_label(label, index)
    assert player is not None
    return player
