"""The awards page (issue 32.4), computed from the hand records of the finished games.

Four reads whatever the size of the tournament: the finished games (summary, rules, table,
session), who sat where, the stored hands, the players eligible. Kept in the standings cache
(per standings version: a game finishing or corrected renews it, as a player's new name does).
Hidden while the standings are hidden (`public_standings`): the view shows it to the staff
only then.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, TypeVar

from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from scoring.engine import Ruleset, load_ruleset
from scoring.engine.points import HandPayment, hand_payment
from scoring.models import Game, GameSeat, Hand
from tournaments.models import Registration, Tournament
from tournaments.standings import cache as standings_cache

K = TypeVar("K")


@dataclass(frozen=True)
class Holder:
    """One holder of an award: the player, the figure, and where (for a hand or a game)."""

    player_id: int
    name: str
    value: str
    where: str = ""


@dataclass(frozen=True)
class Award:
    key: str
    title: str
    definition: str
    holders: list[Holder] = field(default_factory=list)  # every one tied for the best


@dataclass(frozen=True)
class Awards:
    awards: list[Award]
    yakuman: list[Holder]
    games: int  # finished games counted


@dataclass
class _Tally:
    wins: int = 0
    riichi: int = 0
    deal_ins: int = 0
    hands: int = 0
    games: int = 0


DEFINITIONS: dict[str, tuple[Any, Any]] = {
    "biggest_hand": (
        _("Biggest hand"),
        _(
            "The win worth the most points, before counters and riichi sticks (a dealer's "
            "hand at the dealer's value)."
        ),
    ),
    "most_wins": (_("Most wins"), _("The most hands won (each winner of a double ron wins).")),
    "most_riichi": (_("Most riichi"), _("The most riichi declarations accepted.")),
    "dealer_run": (
        _("Best dealer run"),
        _(
            "The most hands in a row played as dealer in one dealership (the first one "
            "included, chombo hands not counted)."
        ),
    ),
    "fewest_deal_ins": (
        _("Fewest deal-ins per hand played"),
        _(
            "The fewest hands dealt into (paid a ron) per hand played, among the players "
            "who played as many games as anyone."
        ),
    ),
    "best_game": (
        _("Best single game"),
        _("The highest result of one game: points after uma, oka and penalties."),
    ),
}


def tournament_awards(tournament: Tournament) -> Awards:
    """The awards of `tournament`, as they stand now (cached per standings version)."""
    # The definitions and places are words: kept per language.
    awards: Awards = standings_cache.cached(
        tournament, f"awards-{get_language()}", lambda: compute_awards(tournament)
    )
    return awards


def _where(session: int, table: int, round_label: str = "") -> str:
    text = str(_("session %(s)s, table %(t)s")) % {"s": session, "t": table}
    return f"{text}, {round_label}" if round_label else text


def _best(candidates: Mapping[K, Any], better: Callable[[Any], Any] = lambda v: v) -> list[K]:
    """The keys whose value is the best (the highest `better(value)`), ties included."""
    if not candidates:
        return []
    top = max(better(v) for v in candidates.values())
    return [k for k, v in candidates.items() if better(v) == top]


def compute_awards(tournament: Tournament) -> Awards:
    eligible = {
        r.player_id: str(r.player)
        for r in Registration.objects.filter(
            tournament=tournament, role=Registration.Role.PLAYER, disqualified_at__isnull=True
        ).select_related("player")
    }
    games = list(
        Game.objects.filter(
            table__session__tournament=tournament, status=Game.Status.FINISHED
        ).values(
            "id",
            "summary",
            "ruleset",
            "rule_overrides",
            "substitutes",
            "table__number",
            "table__session__number",
        )
    )
    ids = [g["id"] for g in games]
    seats: dict[int, dict[int, int]] = defaultdict(dict)
    for game_id, seat, player_id in GameSeat.objects.filter(game_id__in=ids).values_list(
        "game_id", "seat", "player_id"
    ):
        seats[game_id][seat] = player_id
    hands: dict[int, dict[int, Mapping[str, Any]]] = defaultdict(dict)
    for game_id, number, data in Hand.objects.filter(game_id__in=ids).values_list(
        "game_id", "number", "data"
    ):
        hands[game_id][number] = data

    tallies: dict[int, _Tally] = defaultdict(_Tally)
    biggest: dict[tuple[int, int, int, int], tuple[int, Mapping[str, Any]]] = {}
    runs: dict[tuple[int, int], int] = {}  # (game, start hand) -> length, the dealer in `owner`
    run_owner: dict[tuple[int, int], int] = {}
    best_games: dict[tuple[int, int], int] = {}  # (game, seat) -> result
    yakuman: list[Holder] = []
    rules_of: dict[str, Ruleset] = {}
    payments: dict[tuple[Any, ...], HandPayment] = {}
    # (game, hand) -> (session, table, round): put in words only for the holders.
    where_of: dict[tuple[int, int], tuple[int, int, str]] = {}

    for g in games:
        game_id, sat = g["id"], seats.get(g["id"], {})
        summary = g["summary"] or {}
        key = f"{g['ruleset']}|{sorted((g['rule_overrides'] or {}).items())}"
        if key not in rules_of:
            rules_of[key] = load_ruleset(g["ruleset"], g["rule_overrides"] or None)
        rules = rules_of[key]
        session, table = g["table__session__number"], g["table__number"]
        substituted = {int(s["seat"]) for s in g["substitutes"] or []}
        final = summary.get("final") or {}
        for seat, result in enumerate(final.get("result") or []):
            if seat in sat and seat not in substituted:
                best_games[(game_id, seat)] = int(result)
        for pid in sat.values():
            tallies[pid].games += 1
        replayed = summary.get("hands") or []
        run_start: int | None = None
        for number, data in sorted(hands.get(game_id, {}).items()):
            state = replayed[number] if number < len(replayed) else {}
            dealer = state.get("dealer")
            label = str(state.get("round") or "")
            where_of[(game_id, number)] = (session, table, label)
            if data.get("outcome") == "chombo":
                continue  # replayed: neither a hand played nor part of a dealer run
            for pid in sat.values():
                tallies[pid].hands += 1
            # A dealership: consecutive hands with the same dealer in the same round.
            previous = replayed[number - 1] if 0 < number <= len(replayed) else None
            if (
                run_start is None
                or previous is None
                or previous.get("dealer") != dealer
                or previous.get("round") != label
            ):
                run_start = number
            if dealer in sat:
                runs[(game_id, run_start)] = runs.get((game_id, run_start), 0) + 1
                run_owner[(game_id, run_start)] = sat[dealer]
            for seat in data.get("riichi") or []:
                if seat in sat:
                    tallies[sat[seat]].riichi += 1
            if data.get("outcome") == "ron" and data.get("loser") in sat:
                tallies[sat[data["loser"]]].deal_ins += 1
            for index, win in enumerate(data.get("wins") or []):
                winner = win.get("winner")
                if winner not in sat:
                    continue
                tallies[sat[winner]].wins += 1
                # Few distinct hands: each one's value is worked out once.
                shape = (
                    key,
                    int(win.get("han") or 0),
                    win.get("fu"),
                    int(win.get("yakuman") or 0),
                    winner == dealer,
                )
                pay = payments.get(shape)
                if pay is None:
                    pay = payments[shape] = hand_payment(
                        han=shape[1], fu=shape[2], yakuman=shape[3], dealer=shape[4], rules=rules
                    )
                value = pay.total_ron if data.get("outcome") == "ron" else pay.total_tsumo
                biggest[(game_id, number, index, sat[winner])] = (value, win)
                if pay.limit is not None and "yakuman" in pay.limit:
                    yakuman.append(
                        Holder(
                            sat[winner],
                            eligible.get(sat[winner], ""),
                            ", ".join(str(y) for y in win.get("yaku") or []) or _hand_text(win),
                            _where(session, table, label),
                        )
                    )

    def name(pid: int) -> str:
        return eligible.get(pid, "")

    def holders_of(counts: Mapping[int, int]) -> list[Holder]:
        shown = {pid: n for pid, n in counts.items() if pid in eligible and n > 0}
        return [Holder(pid, name(pid), str(shown[pid])) for pid in _sorted(_best(shown), name)]

    out: list[Award] = []
    hand_values = {k: v for k, v in biggest.items() if k[3] in eligible}
    out.append(
        _award(
            "biggest_hand",
            [
                Holder(
                    k[3],
                    name(k[3]),
                    f"{hand_values[k][0]} ({_hand_text(hand_values[k][1])})",
                    _where(*where_of[k[:2]]),
                )
                for k in _best(hand_values, lambda v: v[0])
            ],
        )
    )
    out.append(_award("most_wins", holders_of({p: t.wins for p, t in tallies.items()})))
    out.append(_award("most_riichi", holders_of({p: t.riichi for p, t in tallies.items()})))
    owned = {k: n for k, n in runs.items() if run_owner[k] in eligible}
    out.append(
        _award(
            "dealer_run",
            [
                Holder(run_owner[k], name(run_owner[k]), str(owned[k]), _where(*where_of[k]))
                for k in _best(owned)
            ],
        )
    )
    full = max((t.games for p, t in tallies.items() if p in eligible), default=0)
    rates = {
        p: Fraction(t.deal_ins, t.hands)
        for p, t in tallies.items()
        if p in eligible and t.games == full and t.hands
    }
    out.append(
        _award(
            "fewest_deal_ins",
            [
                Holder(
                    p,
                    name(p),
                    f"{tallies[p].deal_ins} / {tallies[p].hands} ({float(rates[p]) * 100:.1f} %)",
                )
                for p in _sorted(_best(rates, lambda v: -v), name)
            ],
        )
    )
    game_results = {k: v for k, v in best_games.items() if seats[k[0]][k[1]] in eligible}
    game_where = {g["id"]: _where(g["table__session__number"], g["table__number"]) for g in games}
    out.append(
        _award(
            "best_game",
            [
                Holder(
                    seats[k[0]][k[1]],
                    name(seats[k[0]][k[1]]),
                    str(game_results[k]),
                    game_where[k[0]],
                )
                for k in _best(game_results)
            ],
        )
    )
    return Awards(
        awards=out, yakuman=[y for y in yakuman if y.player_id in eligible], games=len(games)
    )


def _sorted(ids: list[int], name: Callable[[int], str]) -> list[int]:
    return sorted(ids, key=lambda pid: (name(pid), pid))


def _award(key: str, holders: list[Holder]) -> Award:
    title, definition = DEFINITIONS[key]
    return Award(key, str(title), str(definition), holders)


def _hand_text(win: Mapping[str, Any]) -> str:
    if win.get("yakuman"):
        return str(_("yakuman")) if int(win["yakuman"]) == 1 else f"{int(win['yakuman'])}x yakuman"
    if win.get("fu"):
        return str(_("%(han)s han %(fu)s fu")) % {"han": win.get("han"), "fu": win["fu"]}
    return str(_("%(han)s han")) % {"han": win.get("han")}
