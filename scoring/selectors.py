"""Reads of games, shared by the referee pages, the public game page and the API.

Views and API call these; none of them replays a game the database already holds a replay of
(``Game.summary``, stored by every write in its transaction).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import QuerySet
from django.utils.translation import gettext as _

from core.roles import is_site_admin, player_of
from scoring.engine import RecordError, Ruleset, load_ruleset, replay
from scoring.models import Game, GamePenalty, GameSeat, Hand
from scoring.policy import game_relations, visible_filter
from scoring.records import StoredGame, game_record, stored_rows_annotations
from scoring.summary import GameSummary
from scoring.tiles import Situation, cross_check, evaluate

WINDS = "ESWN"


def visible_games(user: Any) -> QuerySet[Game]:
    """The games `user` (maybe anonymous or None) may read, with what their apps' policies
    read: the one draft-visibility rule, as each app states it for its games
    (`GamePolicy.visible`: club games are public; a draft tournament's games are its staff's;
    tournaments.selectors.visible_tournaments). Pages and API alike read games through it."""
    games = Game.objects.select_related(*game_relations())
    if is_site_admin(user):
        return games
    return games.filter(visible_filter(user))


def round_label(hand: Mapping[str, Any]) -> str:
    """A replayed hand's round as pages show it: "E1", or "E1-2" with two honba."""
    return f"{hand['round']}-{hand['honba']}" if hand.get("honba") else str(hand["round"])


def chombo_points(rules: Ruleset) -> int | None:
    """What a chombo costs after uma under these rules (EMA 2025 3.4.6: 20,000 in a
    tournament), or None where it is paid at the table (a reverse mangan: the hand's deltas)."""
    return rules.chombo.points if rules.chombo.mode == "penalty" else None


def game_chombos(
    game: Game, stored_hands: list[dict[str, Any]] | None = None, rules: Ruleset | None = None
) -> list[dict[str, Any]]:
    """Every chombo of the game, entered hand by hand (a hand with outcome "chombo") or on a
    paper sheet (a game penalty of kind "chombo"), in playing order:
    ``{"seat", "hand": 0-based hand or None (paper sheet), "points": deducted after uma or
    None where the rules pay it at the table}`` (EMA 2025 3.4.6)."""
    if rules is None:
        rules = load_ruleset(game.ruleset, game.rule_overrides or None)
    if stored_hands is None:
        stored_hands = [h.data for h in game.hands.order_by("number")]
    cost = chombo_points(rules)
    out: list[dict[str, Any]] = [
        {"seat": hand.get("offender"), "hand": i, "points": cost}
        for i, hand in enumerate(stored_hands)
        if hand.get("outcome") == "chombo"
    ]
    if game.entry == Game.Entry.FINAL_SCORES:  # only a paper sheet keeps chombo penalties
        for seat, points in GamePenalty.objects.filter(game=game, kind="chombo").values_list(
            "seat", "points"
        ):
            out.append({"seat": seat, "hand": None, "points": points})
    return out


def replayed(game: Game, stored_hands: list[dict[str, Any]]) -> dict[str, Any]:
    """The engine's replay of the game: the cached ``Game.summary`` (every write stores it in
    the same transaction), replayed afresh only when it does not match the stored hands (rows
    written around the services). {} without hands or for a record the engine rejects."""
    if not stored_hands:
        return {}
    summary = game.summary
    if isinstance(summary, dict) and len(summary.get("hands") or []) == len(stored_hands):
        return summary
    try:
        return dict(replay(game_record(game)))
    except RecordError:
        return {}


def _after_last_hand(game: Game) -> dict[str, Any] | None:
    """The round, counters and dealer after a game's last hand, had it gone on."""
    try:
        return replay({**game_record(game), "end": "complete"}).get("next")
    except RecordError:
        return None


def game_detail_key(user: Any, pk: Any, *, place_stamp: Sequence[str] = ()) -> str | None:
    """The cache key of the game API's answer for game `pk` (None: no such game `user` may
    see): kept per game version, what its place shows (`place_stamp`: the paths from Game the
    API's place fields read, scoring.api.places) and the seated players' names (a rename bumps
    no game version). Two small queries."""
    try:
        # Read only if visible (the one draft-visibility rule).
        stamp = (
            visible_games(user)
            .filter(pk=int(pk))
            .values_list("version", "updated_at", *place_stamp)
            .get()
        )
    except (Game.DoesNotExist, ValueError, OverflowError):
        return None
    seated = list(
        GameSeat.objects.filter(game_id=int(pk))
        .order_by("seat")
        .values_list(
            "seat", "player_id", "player__first_name", "player__last_name", "player__ema_number"
        )
    )
    stamp_of = repr((int(pk), stamp, seated)).encode()
    return "game-detail:" + hashlib.sha256(stamp_of).hexdigest()


def game_for_answer(pk: Any, *, rows: bool = False) -> Game | None:
    """Game `pk` with what its policy reads (a write's answer, the referee pages), or None.
    With `rows`, its seats and hands come in the same query where the database can (read them
    with scoring.records.stored_game_from)."""
    if pk is None:
        return None
    games = Game.objects.select_related(*game_relations())
    if rows:
        games = games.annotate(**stored_rows_annotations())
    return games.filter(pk=pk).first()


@contextmanager
def settled_game(pk: Any) -> Iterator[Game | None]:
    """Game `pk` (read as game_for_answer reads it), or None, for the answer to a write that
    lost a race (a 409: the API's `current`, the entry page's table and form): the game as the
    winning write committed it, and one state of it.

    Inside the block the game's row is locked, as every write locks it first
    (scoring.services._common.lock_game), so no write of this game commits while the caller reads
    the game, its seats and hands and renders them. Read on their own, each of those would be a
    statement of its own seeing whatever committed just before it: the game row of one write
    with the hands of the next (a version that does not count the hands shown). The rows are
    read by statements after the locking one (issue 30.2). Keep the block short: a writer of
    this game waits for it."""
    if pk is None:
        yield None
        return
    with transaction.atomic():
        games = Game.objects.select_for_update(of=("self",)).select_related(*game_relations())
        yield games.filter(pk=pk).first()


def games_for_writes() -> QuerySet[Game]:
    """Games as a write's permission check reads them outside a transaction: with what their
    policy reads, without the summary (the service reads the game again, locked)."""
    return Game.objects.select_related(*game_relations()).defer("summary")


def is_visible(user: Any, game: Game) -> bool:
    """Whether `user` may see `game` (the one draft-visibility rule)."""
    return visible_games(user).filter(pk=game.pk).exists()


def public_game(user: Any, pk: int) -> Game | None:
    """Game `pk` for its public page, if `user` may see it: its seats and hands come in the
    game's query where the database can (PostgreSQL; scoring.records.stored_game_from): one
    round trip and one statement to compile instead of three (issue 14.7)."""
    return visible_games(user).annotate(**stored_rows_annotations()).filter(pk=pk).first()


def hands_played(game: Game) -> int:
    return game.hands.count()


def waiting_hands(
    user: Any, game: Game, state: TableState, *, hands: Sequence[Hand] | None = None
) -> list[dict[str, Any]]:
    """Club play without a referee: hands waiting for confirmation, and whether `user` (a
    seated player who did not enter it and has not confirmed yet) may confirm each. `hands`:
    the game's hands already read (a write's answer), else the unconfirmed ones are read."""
    unconfirmed = (
        [h for h in hands if not h.confirmed]
        if hands is not None
        else list(game.hands.filter(confirmed=False).order_by("number"))
    )
    if not unconfirmed:
        return []
    me = player_of(user)
    seated = me is not None and game.seats.filter(player=me).exists()
    rows = []
    for hand in unconfirmed:
        summary = state.hands[hand.number]["summary"] if hand.number < len(state.hands) else ""
        rows.append(
            {
                "number": hand.number,
                "summary": summary,
                "confirmed_by": len(hand.confirmed_by),
                "may_confirm": seated
                and hand.entered_by_id != user.pk
                and me is not None
                and me.pk not in hand.confirmed_by,
            }
        )
    return rows


def waiting_entry(user: Any, game: Game) -> dict[str, Any] | None:
    """The paper score sheet or finish a seated player entered, waiting for the others
    (issue 30.3), and whether `user` may confirm it; None when nothing waits."""
    if game.entry_confirmed:
        return None
    me = player_of(user)
    return {
        "confirmed_by": len(game.confirmed_by),
        "may_confirm": me is not None
        and game.entered_by_id != user.pk
        and me.pk not in game.confirmed_by
        and game.seats.filter(player=me).exists(),
    }


def paper_sheet_initial(game: Game) -> dict[str, Any]:
    """The paper score sheet form as the game has it: version, sticks left, each seat's score
    and chombo count (`score_<seat>`, `chombo_<seat>`)."""
    stored = game.final_scores or {}
    initial: dict[str, Any] = {
        "expected_version": game.version,
        "riichi_sticks_left": stored.get("riichi_sticks_left", 0),
    }
    for seat, score in enumerate(stored.get("scores") or []):
        initial[f"score_{seat}"] = score
    for penalty in game.penalties.filter(kind="chombo"):
        key = f"chombo_{penalty.seat}"
        initial[key] = initial.get(key, 0) + 1
    return initial


def tile_warnings(state: TableState, hand: Mapping[str, Any], tiles: str) -> list[str]:
    """Where typed `tiles` of a single win disagree with the entered han/fu, at the table as
    `state` has it (the payment preview's warnings; the referee decides). Raises TileError
    for tiles that are no hand."""
    if not tiles or not hand.get("wins"):
        return []
    win = hand["wins"][0]
    seat = win["winner"]
    situation = Situation(
        tsumo=hand["outcome"] == "tsumo",
        riichi=seat in hand.get("riichi", []),
        seat_wind=WINDS[(seat - state.dealer) % len(state.players)],
        round_wind=str(state.round)[:1] or "E",
    )
    evaluation = evaluate(tiles, rules=state.rules, situation=situation)
    return list(
        cross_check(evaluation, han=win.get("han"), fu=win.get("fu"), yakuman=win.get("yakuman", 0))
    )


def evaluate_tiles(data: Mapping[str, Any]) -> dict[str, Any]:
    """A winning hand evaluated from its tiles (`notation`, the situation's flags and winds,
    dora and ura indicators) under `ruleset` and `rule_overrides`; with `han`, `fu` or
    `yakuman` given, where they disagree (`mismatches`)."""
    rules = load_ruleset(data["ruleset"], data.get("rule_overrides") or None)
    situation = Situation(
        **{name: data[name] for name in SITUATION_FLAGS},
        dora_indicators=tuple(data["dora_indicators"]),
        ura_indicators=tuple(data["ura_indicators"]),
    )
    evaluation = evaluate(data["notation"], rules=rules, situation=situation)
    mismatches: list[str] = []
    if any(k in data for k in ("han", "fu", "yakuman")):
        mismatches = list(
            cross_check(
                evaluation,
                han=data.get("han"),
                fu=data.get("fu"),
                yakuman=data.get("yakuman") or 0,
            )
        )
    return {**evaluation.to_dict(), "mismatches": mismatches}


SITUATION_FLAGS = (
    "tsumo",
    "riichi",
    "ippatsu",
    "rinshan",
    "chankan",
    "haitei",
    "houtei",
    "double_riichi",
    "tenhou",
    "chiihou",
    "renhou",
    "seat_wind",
    "round_wind",
)


@dataclass(frozen=True)
class PlaceLabels:
    """What pages call where a game is played, as the app owning it says (tournaments.places,
    club.places; config.places hands it to the templates): `title`, a table's short name
    ("Table 3"; empty where the place has none: a club night); `heading`, the whole place
    ("Hamburg Open · Session 1, table 3"; the club night); and on the referee start page a
    `line` and its `detail`. Empty for a game no app claims."""

    title: str = ""
    heading: str = ""
    line: str = ""
    detail: str = ""


@dataclass(frozen=True)
class TableState:
    """A game as its pages show it (table_state): the players' display names, the seats
    (`seat`, `name`, `score`, `wind`, `dealer`), the round, honba and sticks to play next (the
    last hand's when the game is over), the engine's `final` result, the hand rows (`number`,
    `data`, `out`, `label`, `summary`, `time_signal`, `cells`), the chombos, and the rules."""

    players: list[str]
    seats: list[dict[str, Any]]
    round: str
    honba: int
    riichi_sticks: int
    dealer: int
    over: bool
    final: dict[str, Any] | None
    # Each chombo ({`name`, `hand` label, `paper`, `points`}), and per seat when there are any.
    chombos: list[dict[str, Any]]
    chombo_seats: list[dict[str, Any]]
    chombo_points: int | None
    # "time": the EMA 2025 7.4 signal hand and one more were played, or finalized on time.
    ended_by: str | None
    time_limit_ema: bool
    # The row of the hand marked with the signal, under rules that act on it.
    time_signal_hand: dict[str, Any] | None
    hands: list[dict[str, Any]]
    rules: Ruleset


def table_state(
    game: Game, *, upto: int | None = None, stored: StoredGame | None = None
) -> TableState:
    """Names, scores, round, honba and sticks as they stand now (for the always-visible bar);
    with `upto`, as they stood before hand `upto` (0-based) was played (a correction).

    Two queries (seats, hands) and no replay: the scores come from ``Game.summary``. None
    with `stored`, the rows read with the game (scoring.records.stored_game_from).
    """
    if stored is not None:
        seated = stored.seats
        stored_hands = [h.data for h in stored.hands]
    else:
        seated = list(game.seats.select_related("player").order_by("seat"))
        # Only the records: no model instance per hand (a page read, issue 14.7).
        stored_hands = list(game.hands.order_by("number").values_list("data", flat=True))
    # Display names without the EMA number the record format adds ("Anna Berg [04120017]").
    players = [str(s.player) for s in seated]
    rules = load_ruleset(game.ruleset, game.rule_overrides or None)
    chombos = game_chombos(game, stored_hands, rules)
    if upto is not None and upto < len(stored_hands):
        stored_hands = stored_hands[:upto]
        try:
            record = game_record(game)
            result = dict(replay({**record, "hands": record["hands"][:upto]})) if upto else {}
        except RecordError:
            result = {}
    else:
        result = replayed(game, stored_hands)
    hands = result.get("hands") or []
    scores = hands[-1]["scores"] if hands else [rules.start_points] * len(players)
    final = result.get("final")
    if not hands and game.entry == Game.Entry.FINAL_SCORES and isinstance(game.summary, dict):
        final = GameSummary.of(game.summary).final  # a paper sheet: no hands, the results at once
        if final:
            scores = list(final["scores"])
    nxt: dict[str, Any] | None = (
        result.get("next")
        if hands
        else {
            "round": "E1",
            "honba": 0,
            "riichi_sticks": 0,
            "dealer": 0,
        }
    )
    over = bool(hands) and nxt is None
    if over and upto is None and game.end == "time" and result.get("ended_by") == "time":
        # Issue 33: finalized on time, the counters stand as after the last hand, as the board
        # showed them before finalizing ("2 honba, 0 sticks"), not as at its start.
        nxt = _after_last_hand(game)
    if nxt is None and hands:
        last = hands[-1]
        nxt = {
            "round": last["round"],
            "honba": last["honba"],
            "riichi_sticks": last["riichi_sticks"],
            "dealer": last["dealer"],
        }
    dealer = int(nxt["dealer"]) if nxt else 0
    seats = [
        {
            "seat": i,
            "name": name,
            "score": scores[i],
            "wind": WINDS[(i - dealer) % len(players)],
            "dealer": i == dealer,
        }
        for i, name in enumerate(players)
    ]
    rows: list[dict[str, Any]] = []
    for i, (data, out) in enumerate(zip(stored_hands, hands, strict=False)):
        rows.append(
            {
                "number": i,
                "data": data,
                "out": out,
                "label": round_label(out),
                "summary": describe_hand(data, players, rules=rules),
                # EMA 2025 7.4: the hand in progress when the 15-minute signal sounded.
                "time_signal": data.get("time_signal") is True,
                "cells": [
                    {"score": score, "delta": delta}
                    for score, delta in zip(out["scores"], out["deltas"], strict=False)
                ],
            }
        )
    # Each seat's chombos and what they cost after uma (EMA 2025 3.4.6), hand by hand or on
    # the paper sheet; shown on the hand list and the game page whatever the game's state.
    chombo_rows = [
        {
            "seat": i,
            "name": name,
            "count": sum(1 for c in chombos if c["seat"] == i),
            "points": sum(c["points"] or 0 for c in chombos if c["seat"] == i),
        }
        for i, name in enumerate(players)
    ]
    labels = {row["number"]: row["label"] for row in rows}
    chombo_list = [
        {
            "name": players[c["seat"]] if isinstance(c["seat"], int) else "?",
            "hand": labels.get(c["hand"]) if c["hand"] is not None else None,
            "paper": c["hand"] is None,
            "points": c["points"],
        }
        for c in chombos
        if c["hand"] is None or c["hand"] in labels
    ]
    return TableState(
        players=players,
        seats=seats,
        round=nxt["round"] if nxt else "E1",
        honba=nxt["honba"] if nxt else 0,
        riichi_sticks=nxt["riichi_sticks"] if nxt else 0,
        dealer=dealer,
        over=over,
        final=final,
        chombos=chombo_list,
        chombo_seats=chombo_rows if chombos else [],
        chombo_points=chombo_points(rules),
        ended_by=result.get("ended_by"),
        time_limit_ema=rules.time_limit == "ema",
        time_signal_hand=next((row for row in rows if row["time_signal"]), None)
        if rules.time_limit == "ema"
        else None,
        hands=rows,
        rules=rules,
    )


def offers_time_signal(state: TableState, *, editing: int | None = None) -> bool:
    """Whether the hand form shows the EMA 2025 7.4 "time signal" checkbox.

    Under rules with ``time_limit: "ema"`` while no other hand carries the signal (the engine
    allows one per game); when correcting hand ``editing``, also whenever that hand carries it,
    so the flag is shown pre-filled and can be kept or cleared.
    """
    marked = [row["number"] for row in state.hands if row["time_signal"]]
    if editing is not None and editing in marked:
        return True
    return state.time_limit_ema and not marked


def describe_hand(hand: dict[str, Any], players: list[str], *, rules: Ruleset | None = None) -> str:
    """One line a referee can read back: "Ron: Anna 3 han 30 fu from Ben · riichi: Anna".

    With ``rules``, a chombo says what it costs: "Chombo: Anna · -20000 after uma" (EMA 2025
    3.4.6), or "paid at the table" under rules with a reverse mangan.
    """

    def name(seat: Any) -> str:
        return players[seat] if isinstance(seat, int) and 0 <= seat < len(players) else "?"

    def win_text(win: dict[str, Any]) -> str:
        if win.get("yakuman"):
            value = _("yakuman") if win["yakuman"] == 1 else _("double yakuman")
        elif win.get("fu"):
            value = _("%(han)s han %(fu)s fu") % {"han": win.get("han"), "fu": win["fu"]}
        else:
            value = _("%(han)s han") % {"han": win.get("han")}
        return f"{name(win.get('winner'))} {value}"

    riichi = [name(s) for s in hand.get("riichi", [])]
    text = _what_happened(hand, name, win_text)
    if hand.get("outcome") == "chombo" and rules is not None:
        cost = chombo_points(rules)
        text += " · " + (
            _("%(points)s after uma") % {"points": -cost}
            if cost is not None
            else _("paid at the table")
        )
    if riichi:
        text += " · " + _("riichi: %(who)s") % {"who": ", ".join(riichi)}
    return text


def _what_happened(hand: dict[str, Any], name: Any, win_text: Any) -> str:
    outcome = hand.get("outcome")
    if outcome == "ron":
        wins = ", ".join(win_text(w) for w in hand.get("wins", []))
        return _("Ron: %(wins)s from %(loser)s") % {"wins": wins, "loser": name(hand.get("loser"))}
    if outcome == "tsumo":
        return _("Tsumo: %(win)s") % {"win": win_text((hand.get("wins") or [{}])[0])}
    if outcome == "draw":
        tenpai = ", ".join(name(s) for s in hand.get("tenpai", [])) or _("nobody")
        return _("Draw, tenpai: %(who)s") % {"who": tenpai}
    if outcome == "nagashi":
        who = ", ".join(name(s) for s in hand.get("nagashi", []))
        return _("Nagashi mangan: %(who)s") % {"who": who}
    if outcome == "chombo":
        return _("Chombo: %(who)s") % {"who": name(hand.get("offender"))}
    return _("Abortive draw")
