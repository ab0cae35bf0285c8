"""Parse and check a game record (formats/game-record.md) into typed, immutable values.

Everything a hand can be checked for without the game state is checked here, and everything
else the record carries is parsed here too (the ruleset, penalties with their amounts from the
rules, substitutes), so that the replay reads the record in this one module before it plays
it; each error names the hand index and the field, and nothing is applied.

Extension of the format (optional, backwards compatible; see scoring/engine/README.md):
any hand may carry ``"time_signal": true``, the hand in progress when the EMA 2025 7.4
15-minute signal sounded (a hand begins as soon as the previous one ends, EMA 2025 3.1, so a
signal between hands marks the next hand). At most one hand carries it. Under a ruleset with
``time_limit: "ema"`` one more hand follows it, then the game ends by time; other rulesets
ignore it. A record without it replays exactly as before.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .constants import RECORD_FORMAT as FORMAT
from .errors import RecordError, as_int
from .rules import Ruleset, load_ruleset

OUTCOMES = ("ron", "tsumo", "draw", "nagashi", "abortive", "chombo")
_TOP_KEYS = {
    "format",
    "ruleset",
    "rules",
    "players",
    "hands",
    "end",
    "penalties",
    "substitutes",
    # Extensions (scoring/engine/README.md, issue 20): a paper score sheet, and the tournament
    # penalties of the players of this game (deducted from standings, not from the game).
    "final_scores",
    "tournament_penalties",
}
_HAND_KEYS: dict[str, set[str]] = {
    "ron": {"loser", "wins"},
    "tsumo": {"wins"},
    "draw": {"tenpai"},
    "nagashi": {"nagashi", "tenpai"},
    "abortive": set(),
    "chombo": {"offender"},
}
# Every outcome; "time_signal" is the engine's extension of the format (EMA 2025 7.4).
_COMMON_HAND_KEYS = {"outcome", "riichi", "note", "time_signal"}
_WIN_KEYS = {"winner", "han", "fu", "yakuman", "pao", "yaku", "dora", "tiles", "note"}
MAX_YAKUMAN = 6  # chosen: a generous bound on stacked (double) yakuman
# Chosen bounds (issue 16.2, 16.7; docs/security.md). No hand counts 99 han: from 13 han on a
# hand is paid as a (counted) yakuman at most, so 99 cuts off nothing real.
MAX_HAN = 99
# The longest legal game: EMA 2025 7.4 ends a game at the time signal, 90 minutes in at a
# tournament (a club evening runs longer, not ten times longer). A hand takes at least about
# half a minute at a real table (shuffle, deal, one go-around); 90 minutes at 30 seconds a hand
# is 180 hands. A typical hanchan has 8 to 15. 200 leaves room and keeps a replay fast.
MAX_HANDS = 200


@dataclass(frozen=True)
class Win:
    winner: int
    han: int
    fu: int | None
    yakuman: int
    pao: int | None


@dataclass(frozen=True)
class Hand:
    outcome: str
    riichi: tuple[int, ...]
    loser: int | None = None
    wins: tuple[Win, ...] = ()
    tenpai: tuple[int, ...] = ()
    nagashi: tuple[int, ...] = ()
    offender: int | None = None
    # EMA 2025 7.4: the time signal sounded while this hand was in progress (extension key).
    time_signal: bool = False


@dataclass(frozen=True)
class Record:
    rules: Ruleset
    players: tuple[str, ...]
    hands: tuple[Hand, ...]
    end: str
    # (seat, points) of each penalty, deducted after uma (EMA 2025 6.1.4).
    penalties: tuple[tuple[int, int], ...]
    # Seat -> "start" | "during": when a substitute took the seat (EMA 2025 7.3).
    substitutes: Mapping[int, str]
    # A paper score sheet (extension): the final table scores and riichi sticks left.
    final_scores: tuple[tuple[int, ...], int] | None = None


class _Checker:
    """Field checks for one hand (``hand`` None for top-level fields)."""

    def __init__(self, hand: int | None, rules: Ruleset) -> None:
        self.hand = hand
        self.rules = rules

    def fail(self, field: str, message: str) -> RecordError:
        return RecordError(message, hand=self.hand, field=field)

    def seat(self, value: object, field: str) -> int:
        seat = as_int(value)
        if seat is None or not 0 <= seat < self.rules.players:
            raise self.fail(field, f"seat must be 0..{self.rules.players - 1}, not {value!r}")
        return seat

    def seats(self, value: object, field: str, *, what: str) -> tuple[int, ...]:
        if not isinstance(value, Sequence) or isinstance(value, str):
            raise self.fail(field, f"{what} must be a list of seats")
        out = tuple(self.seat(v, f"{field}[{i}]") for i, v in enumerate(value))
        if len(set(out)) != len(out):
            raise self.fail(field, f"duplicate seat in {what}")
        return out


def _check_fu(c: _Checker, han: int, fu: int, *, tsumo: bool, field: str) -> None:
    """Han/fu pairs no hand can have (EMA 2025 4.1.1 minipoints)."""
    if fu != 25 and fu % 10:
        raise c.fail(field, f"fu must be a multiple of 10 or 25 (seven pairs), not {fu}")
    if not 20 <= fu <= 110:
        raise c.fail(field, f"fu must be between 20 and 110, not {fu}")
    if fu == 20 and not tsumo:
        # 20 fu is only pinfu tsumo: a concealed ron gets +10, an open one is rounded to 30.
        raise c.fail(field, "20 fu is impossible on a ron (only pinfu by tsumo)")
    if fu == 20 and han < 2:
        raise c.fail(field, "20 fu needs pinfu and menzen tsumo: at least 2 han")
    if fu == 25 and han < (3 if tsumo else 2):
        # Seven pairs is 2 han; by tsumo menzen tsumo adds one more.
        raise c.fail(field, f"25 fu (seven pairs) needs at least {3 if tsumo else 2} han")


def _parse_win(c: _Checker, raw: object, field: str, *, tsumo: bool) -> Win:
    if not isinstance(raw, Mapping):
        raise c.fail(field, "a win must be an object")
    unknown = sorted(set(raw) - _WIN_KEYS)
    if unknown:
        raise c.fail(f"{field}.{unknown[0]}", f"unknown key {unknown[0]!r}")
    if "winner" not in raw:
        raise c.fail(f"{field}.winner", "a win needs a winner")
    winner = c.seat(raw["winner"], f"{field}.winner")
    pao = c.seat(raw["pao"], f"{field}.pao") if raw.get("pao") is not None else None
    if "yakuman" in raw:
        if "han" in raw or "fu" in raw:
            raise c.fail(f"{field}.yakuman", "give either yakuman or han/fu, not both")
        k = as_int(raw["yakuman"])
        if k is None or not 1 <= k <= MAX_YAKUMAN:
            raise c.fail(
                f"{field}.yakuman", f"yakuman must be 1..{MAX_YAKUMAN}, not {raw['yakuman']!r}"
            )
        if k > 1 and not c.rules.double_yakuman:
            raise c.fail(f"{field}.yakuman", "these rules count at most one yakuman per hand")
        if pao == winner:
            raise c.fail(f"{field}.pao", "the winner cannot be liable for their own hand")
        return Win(winner, 0, None, k, pao)
    if pao is not None:
        # EMA 2025 3.3.7: liability exists only for Big Three Dragons / Big Four Winds.
        raise c.fail(f"{field}.pao", "liability (pao) applies to yakuman wins only")
    han_n = as_int(raw.get("han"))
    if han_n is None or not 1 <= han_n <= MAX_HAN:
        raise c.fail(
            f"{field}.han",
            f"han must be a whole number from 1 to {MAX_HAN}, not {raw.get('han')!r}",
        )
    if raw.get("fu") is None:
        if han_n < 5:
            raise c.fail(f"{field}.fu", "fu is needed below 5 han")
        return Win(winner, han_n, None, 0, None)
    fu = as_int(raw["fu"])
    if fu is None:
        raise c.fail(f"{field}.fu", f"fu must be a whole number, not {raw['fu']!r}")
    _check_fu(c, han_n, fu, tsumo=tsumo, field=f"{field}.fu")
    return Win(winner, han_n, fu, 0, None)


def _parse_wins(c: _Checker, raw: Mapping[str, object], *, tsumo: bool) -> tuple[Win, ...]:
    wins = raw.get("wins")
    if not isinstance(wins, Sequence) or isinstance(wins, str) or not wins:
        raise c.fail("wins", "wins must be a non-empty list")
    out = tuple(_parse_win(c, w, f"wins[{i}]", tsumo=tsumo) for i, w in enumerate(wins))
    winners = [w.winner for w in out]
    if len(set(winners)) != len(winners):
        raise c.fail("wins", "the same winner appears twice")
    return out


def parse_hand(raw: object, index: int, rules: Ruleset) -> Hand:
    hand = _parse_outcome(raw, index, rules)
    assert isinstance(raw, Mapping)
    signal = raw.get("time_signal", False)
    if not isinstance(signal, bool):
        raise RecordError(
            f"time_signal must be true or false, not {signal!r}", hand=index, field="time_signal"
        )
    return dataclasses.replace(hand, time_signal=True) if signal else hand


def _parse_outcome(raw: object, index: int, rules: Ruleset) -> Hand:
    c = _Checker(index, rules)
    if not isinstance(raw, Mapping):
        raise c.fail("", "a hand must be an object")
    outcome = raw.get("outcome")
    if outcome not in OUTCOMES:
        raise c.fail("outcome", f"outcome must be one of {', '.join(OUTCOMES)}, not {outcome!r}")
    assert isinstance(outcome, str)
    unknown = sorted(set(raw) - _HAND_KEYS[outcome] - _COMMON_HAND_KEYS)
    if unknown:
        raise c.fail(unknown[0], f"unknown key {unknown[0]!r} for a {outcome} hand")
    riichi = c.seats(raw.get("riichi", []), "riichi", what="riichi")
    if outcome == "ron":
        if "loser" not in raw:
            raise c.fail("loser", "a ron needs the loser (the discarder)")
        loser = c.seat(raw["loser"], "loser")
        wins = _parse_wins(c, raw, tsumo=False)
        for i, w in enumerate(wins):
            if w.winner == loser:
                raise c.fail(f"wins[{i}].winner", "the winner is also the loser")
        _check_multiple_ron(c, len(wins))
        return Hand(outcome, riichi, loser=loser, wins=wins)
    if outcome == "tsumo":
        wins = _parse_wins(c, raw, tsumo=True)
        if len(wins) != 1:
            raise c.fail("wins", "a tsumo has exactly one winner")
        return Hand(outcome, riichi, wins=wins)
    if outcome in ("draw", "nagashi"):
        tenpai = c.seats(raw.get("tenpai", []), "tenpai", what="tenpai")
        for seat in riichi:
            if seat not in tenpai:
                # EMA 2025 3.4.6: riichi while noten is a chombo, found at the draw.
                raise c.fail(
                    "tenpai",
                    f"seat {seat} declared riichi and must be tenpai "
                    "(a noten riichi is a chombo hand)",
                )
        if outcome == "draw":
            return Hand(outcome, riichi, tenpai=tenpai)
        if not rules.nagashi_mangan:
            raise c.fail("outcome", "these rules have no nagashi mangan")
        nagashi = c.seats(raw.get("nagashi", []), "nagashi", what="nagashi")
        if not nagashi or len(nagashi) == rules.players:
            raise c.fail("nagashi", "nagashi needs at least one seat and someone to pay")
        return Hand(outcome, riichi, tenpai=tenpai, nagashi=nagashi)
    if outcome == "abortive":
        if rules.abortive_draws == "none":
            raise c.fail("outcome", "these rules have no abortive draws")
        return Hand(outcome, riichi)
    if "offender" not in raw:
        raise c.fail("offender", "a chombo needs the offender")
    return Hand(outcome, riichi, offender=c.seat(raw["offender"], "offender"))


def _check_multiple_ron(c: _Checker, count: int) -> None:
    mode = c.rules.multiple_ron
    if count > 1 and mode == "headbump":
        raise c.fail("wins", "these rules allow one ron only (head bump)")
    if count > 2 and mode == "triple_abortive":
        raise c.fail("wins", "under these rules a triple ron is an abortive draw")
    if count > c.rules.players - 1:
        raise c.fail("wins", "too many winners")


# Penalties and substitutes (EMA 2025 6.10, 6.12, 7.2, 7.3, 7.5), parsed here with the rest of
# the record; results.py's ``final_results`` uses the same parsers for those given to it raw.
PENALTY_KINDS = ("chombo", "lateness", "obstruction", "score_sheet", "all_last_sheet", "other")

# Chosen bounds (issue 16.7): a penalty above a million points exists in no rulebook (EMA 2025
# 7.1-7.5 deal in thousands); minutes late beyond a day are a typing error.
MAX_PENALTY_POINTS = 1_000_000
MAX_PENALTY_MINUTES = 24 * 60


# EMA 2025 6.12: obstruction is "8,000 or 12,000 points, or in serious or repeated cases ...
# between 12,000 and 48,000".
OBSTRUCTION_MIN, OBSTRUCTION_SERIOUS, OBSTRUCTION_MAX = 8000, 12000, 48000


def penalty_amount_problem(kind: object, points: int, rules: Ruleset) -> str | None:
    """Why ``points`` is not an amount the rule text allows for a penalty of ``kind``, or
    None. Under EMA rules (ruleset ids ``ema-*``): obstruction 8,000, or 12,000 to 48,000
    (EMA 2025 6.12); score sheet a multiple of 2,000, each player's 2,000 per mistake or
    unsigned sheet (7.5); lateness a multiple of 1,000, per started minute (7.2). Other
    rulesets do not fix these amounts."""
    if not rules.id.startswith("ema"):
        return None
    if (
        kind == "obstruction"
        and points != OBSTRUCTION_MIN
        and not OBSTRUCTION_SERIOUS <= points <= OBSTRUCTION_MAX
    ):
        return (
            f"obstruction is {OBSTRUCTION_MIN:,} or {OBSTRUCTION_SERIOUS:,} points, or between "
            f"{OBSTRUCTION_SERIOUS:,} and {OBSTRUCTION_MAX:,} in serious or repeated cases "
            f"(EMA 2025 6.12), not {points:,}"
        )
    if kind == "score_sheet" and points % rules.score_sheet_penalty:
        return (
            f"a score-sheet penalty is {rules.score_sheet_penalty:,} points per mistake or "
            f"unsigned sheet (EMA 2025 7.5): a multiple of {rules.score_sheet_penalty:,}, "
            f"not {points:,}"
        )
    if kind == "lateness" and points % rules.lateness_per_minute:
        return (
            f"lateness is {rules.lateness_per_minute:,} points per started minute (EMA 2025 "
            f"7.2): a multiple of {rules.lateness_per_minute:,}, not {points:,}"
        )
    return None


def penalty_points(p: Mapping[str, object], i: int, rules: Ruleset) -> tuple[int, int]:
    """(seat, points) of penalty ``i``; the amount from the rules where the kind fixes it."""
    field = f"penalties[{i}]"
    if not isinstance(p, Mapping):
        raise RecordError("a penalty must be an object", field=field)
    seat, kind, points = as_int(p.get("seat")), p.get("kind", "other"), p.get("points")
    if seat is None or not 0 <= seat < rules.players:
        raise RecordError(f"seat must be 0..{rules.players - 1}", field=f"{field}.seat")
    if kind not in PENALTY_KINDS:
        raise RecordError(f"kind must be one of {', '.join(PENALTY_KINDS)}", field=f"{field}.kind")
    cap = rules.lateness_per_minute * rules.lateness_max_minutes
    if kind == "lateness" and points is None:
        minutes = p.get("minutes")
        if (
            not isinstance(minutes, (int, float))
            or isinstance(minutes, bool)
            or not 0 < minutes <= MAX_PENALTY_MINUTES  # also NaN and infinity (issue 16.7)
        ):
            raise RecordError(
                f"lateness needs points or minutes (1 to {MAX_PENALTY_MINUTES})",
                field=f"{field}.minutes",
            )
        points = math.ceil(minutes) * rules.lateness_per_minute  # EMA 2025 7.2: per started minute
    if points is None:
        defaults = {
            "score_sheet": rules.score_sheet_penalty,  # EMA 2025 7.5
            "all_last_sheet": rules.all_last_sheet_penalty,  # EMA 2025 6.10
            # A paper sheet's chombo (EMA 2025 3.4.6), where the rules deduct it after uma.
            "chombo": rules.chombo.points if rules.chombo.mode == "penalty" else None,
        }
        points = defaults.get(str(kind))
    amount = as_int(points)
    if amount is None or not 0 < amount <= MAX_PENALTY_POINTS:
        raise RecordError(
            f"points must be a whole number from 1 to {MAX_PENALTY_POINTS:,}",
            field=f"{field}.points",
        )
    if kind == "lateness" and amount > cap:
        # EMA 2025 7.3: later than 10 minutes means a substitute, not a lateness penalty.
        raise RecordError(
            f"lateness is at most {cap}; a later player is substituted", field=f"{field}.points"
        )
    return seat, amount


def parse_substitutes(subs: Sequence[Mapping[str, object]], rules: Ruleset) -> dict[int, str]:
    """Seat -> "start" | "during" (EMA 2025 7.3)."""
    out: dict[int, str] = {}
    for i, s in enumerate(subs):
        field = f"substitutes[{i}]"
        if rules.substitute_rule == "none":
            raise RecordError("these rules have no substitutes", field=field)
        if not isinstance(s, Mapping):
            raise RecordError("a substitute must be an object", field=field)
        seat, when = as_int(s.get("seat")), s.get("from")
        if seat is None or not 0 <= seat < rules.players:
            raise RecordError(f"seat must be 0..{rules.players - 1}", field=f"{field}.seat")
        if when not in ("start", "during"):
            raise RecordError('from must be "start" or "during"', field=f"{field}.from")
        if seat in out:
            raise RecordError("the same seat is substituted twice", field=f"{field}.seat")
        out[seat] = str(when)
    return out


def _check_penalties(
    c: _Checker, raw: object, *, sheet: bool = False
) -> tuple[tuple[int, int], ...]:
    """``sheet``: the record is a paper score sheet (extension ``final_scores``), which has
    no hands, so its chombos are penalties of kind "chombo" (EMA 2025 3.4.6)."""
    if raw is None:
        return ()
    if not isinstance(raw, Sequence) or isinstance(raw, str):
        raise c.fail("penalties", "penalties must be a list")
    parsed: list[tuple[int, int]] = []
    for i, p in enumerate(raw):
        if isinstance(p, Mapping) and p.get("kind") == "chombo":
            if not sheet:
                # The engine adds chombo penalties from the chombo hands (game-record.md).
                raise c.fail(f"penalties[{i}].kind", "chombo penalties come from chombo hands")
            if c.rules.chombo.mode != "penalty":
                raise c.fail(
                    f"penalties[{i}].kind",
                    "under these rules a chombo is paid at the table: the sheet's scores hold it",
                )
            if p.get("points") is not None and as_int(p["points"]) != c.rules.chombo.points:
                # EMA 2025 3.4.6: "the chombo penalty is 20,000 points".
                raise c.fail(
                    f"penalties[{i}].points",
                    f"a chombo is {c.rules.chombo.points} points under these rules",
                )
        parsed.append(penalty_points(p, i, c.rules))  # now, so a game in progress is checked too
    return tuple(parsed)


def _check_final_scores(
    c: _Checker, raw: object, hands: Sequence[object]
) -> tuple[tuple[int, ...], int] | None:
    """Extension: ``{"scores": [...], "riichi_sticks_left": n}`` of a paper score sheet; the
    sheet replaces the hands, so a record has one or the other."""
    if raw is None:
        return None
    if not isinstance(raw, Mapping):
        raise c.fail("final_scores", 'final_scores must be {"scores": [...], ...}')
    unknown = sorted(set(raw) - {"scores", "riichi_sticks_left"})
    if unknown:
        raise c.fail(f"final_scores.{unknown[0]}", f"unknown key {unknown[0]!r}")
    if hands:
        raise c.fail("final_scores", "a record has hands or final scores, not both")
    scores = raw.get("scores")
    if (
        not isinstance(scores, Sequence)
        or isinstance(scores, str)
        or len(scores) != c.rules.players
        or any(as_int(s) is None for s in scores)
    ):
        raise c.fail("final_scores.scores", f"need {c.rules.players} integer scores")
    sticks = as_int(raw.get("riichi_sticks_left", 0))
    if sticks is None or sticks < 0:
        raise c.fail("final_scores.riichi_sticks_left", "must be a non-negative integer")
    return tuple(int(s) for s in scores), sticks


def _check_tournament_penalties(c: _Checker, raw: object) -> None:
    """Extension: ``[{"seat", "kind", "points", ...}]``: a tournament penalty of the player at
    ``seat`` (or the player a substitute there replaced), deducted from the standings (EMA
    2025 6.1.4); it does not change this game's results."""
    if raw is None:
        return
    if not isinstance(raw, Sequence) or isinstance(raw, str):
        raise c.fail("tournament_penalties", "tournament_penalties must be a list")
    for i, p in enumerate(raw):
        field = f"tournament_penalties[{i}]"
        if not isinstance(p, Mapping):
            raise c.fail(field, "a tournament penalty must be an object")
        seat, points = as_int(p.get("seat")), as_int(p.get("points"))
        if seat is None or not 0 <= seat < c.rules.players:
            raise c.fail(f"{field}.seat", f"seat must be 0..{c.rules.players - 1}")
        if points is None or points <= 0:
            raise c.fail(f"{field}.points", "points must be a positive integer")
        if not isinstance(p.get("kind"), str) or not p.get("kind"):
            raise c.fail(f"{field}.kind", "kind must be a text")


def _check_one_signal(hands: Sequence[Hand]) -> None:
    """EMA 2025 7.4: one 15-minute signal per session, so at most one hand is marked."""
    marked = [i for i, h in enumerate(hands) if h.time_signal]
    if len(marked) > 1:
        raise RecordError(
            f"the time signal was already marked on hand {marked[0]}",
            hand=marked[1],
            field="time_signal",
        )


def check_penalty_amounts(record: Mapping[str, object]) -> None:
    """The amounts of a record's ``penalties`` and ``tournament_penalties`` as the rule text
    fixes them (EMA 2025 6.12 obstruction, 7.5 score sheet, 7.2 lateness; see
    ``penalty_amount_problem``): a RecordError naming the penalty's ``points``.

    Checked when a record is imported (issue 15), not on every replay: the replay stays as
    permissive as before for records already stored.
    """
    rec = parse_record(record)  # the shape first: seats, kinds, whole amounts
    for key in ("penalties", "tournament_penalties"):
        entries = record.get(key) or []
        assert isinstance(entries, Sequence)
        for i, p in enumerate(entries):
            assert isinstance(p, Mapping)
            if key == "penalties":
                _seat, amount = rec.penalties[i]  # with the rules' defaults
            else:
                amount = as_int(p.get("points")) or 0
            problem = penalty_amount_problem(p.get("kind", "other"), amount, rec.rules)
            if problem:
                raise RecordError(problem, field=f"{key}[{i}].points")


def parse_record(record: Mapping[str, object]) -> Record:
    if not isinstance(record, Mapping):
        raise RecordError("a game record must be a JSON object", field="")
    unknown = sorted(set(record) - _TOP_KEYS)
    if unknown:
        raise RecordError(f"unknown key {unknown[0]!r}", field=unknown[0])
    if record.get("format", FORMAT) != FORMAT:
        raise RecordError(f"format must be {FORMAT!r}", field="format")
    overrides = record.get("rules")
    preset = record.get("ruleset")
    if not isinstance(preset, str):
        raise RecordError("ruleset must be a preset id", field="ruleset")
    if overrides is not None and not isinstance(overrides, Mapping):
        raise RecordError("rules must be an object of overrides", field="rules")
    rules = load_ruleset(preset, overrides)
    c = _Checker(None, rules)
    players = record.get("players")
    if (
        not isinstance(players, Sequence)
        or isinstance(players, str)
        or not all(isinstance(p, str) for p in players)
    ):
        raise c.fail("players", "players must be a list of names")
    if len(players) != rules.players:
        raise c.fail("players", f"these rules need {rules.players} players, got {len(players)}")
    end = record.get("end", "complete")
    if end not in ("complete", "time"):
        raise c.fail("end", f'end must be "complete" or "time", not {end!r}')
    hands = record.get("hands", [])
    if not isinstance(hands, Sequence) or isinstance(hands, str):
        raise c.fail("hands", "hands must be a list")
    if len(hands) > MAX_HANDS:
        raise c.fail(
            "hands", f"a game has at most {MAX_HANDS} hands (docs/security.md), not {len(hands)}"
        )
    substitutes = record.get("substitutes") or ()
    if not isinstance(substitutes, Sequence) or isinstance(substitutes, str):
        raise c.fail("substitutes", "substitutes must be a list")
    substituted = parse_substitutes(substitutes, rules)
    for i, sub in enumerate(substitutes):
        replaces = sub.get("replaces") if isinstance(sub, Mapping) else None
        if replaces is not None and not isinstance(replaces, str):
            raise c.fail(f"substitutes[{i}].replaces", "replaces is the absent player's name")
    final_scores = _check_final_scores(c, record.get("final_scores"), hands)
    _check_tournament_penalties(c, record.get("tournament_penalties"))
    parsed = tuple(parse_hand(h, i, rules) for i, h in enumerate(hands))
    _check_one_signal(parsed)
    return Record(
        rules=rules,
        players=tuple(players),
        hands=parsed,
        end=str(end),
        penalties=_check_penalties(c, record.get("penalties"), sheet=final_scores is not None),
        substitutes=substituted,
        final_scores=final_scores,
    )
