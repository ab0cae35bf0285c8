"""Game flow: round wind, dealer rotation, counters and the end of the game.

The end by time (EMA 2025 7.4) is ``time_up``: the hand marked ``time_signal`` and one more.
The WDMC 2019 3.7.1 West 1 after a noten South-4 draw is ``west_sudden_death: "wdmc"``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .constants import WINDS
from .rules import Ruleset
from .settle import Settlement, Table
from .validate import Hand

EAST, SOUTH, WEST = 0, 1, 2
_ROUND_NAMES = ("east", "south", "west", "north")


def _last_round(rules: Ruleset) -> int:
    """The round that ends the game (south; east in an east-only game, ``east_only``); the
    one after it is the extra round that ``west_round`` plays (west; south when east-only)."""
    return EAST if rules.east_only else SOUTH


@dataclass(frozen=True)
class State:
    wind: int  # round wind: 0 East, 1 South, 2 West
    kyoku: int  # 0-based hand of the round; the dealer is the seat with this index
    honba: int
    sticks: int

    @property
    def dealer(self) -> int:
        return self.kyoku

    @property
    def label(self) -> str:
        return f"{WINDS[self.wind]}{self.kyoku + 1}"

    def table(self) -> Table:
        return Table(dealer=self.dealer, honba=self.honba, sticks=self.sticks)

    def as_dict(self) -> dict[str, object]:
        return {
            "round": self.label,
            "honba": self.honba,
            "riichi_sticks": self.sticks,
            "dealer": self.dealer,
        }


START = State(EAST, 0, 0, 0)


def _all_last(state: State, rules: Ruleset) -> bool:
    last = _last_round(rules)
    return state.kyoku == rules.players - 1 and state.wind in (last, last + 1)


def advance(
    state: State,
    settled: Settlement,
    scores: Sequence[int],
    rules: Ruleset,
    *,
    more_hands: bool,
    hand: Hand,
) -> tuple[State, str | None]:
    """The state after a hand, and why the game ended (None while it goes on).

    ``more_hands`` says whether the record goes on; an optional stop (WDMC 2019 3.7.2) is
    taken only where the record stops. ``hand`` is the hand just settled (its outcome decides
    ``west_sudden_death``, WDMC 2019 3.7.1).
    """
    honba = {"add": state.honba + 1, "reset": 0, "keep": state.honba}[settled.counter]
    if settled.dealer_stays:
        nxt = State(state.wind, state.kyoku, honba, settled.sticks_after)
    else:
        kyoku, wind = state.kyoku + 1, state.wind
        if kyoku == rules.players:  # EMA 2025 3.5: every seat has dealt, next round
            kyoku, wind = 0, wind + 1
        nxt = State(wind, kyoku, honba, settled.sticks_after)
    if rules.bust and min(scores) < 0:
        return nxt, "bust"  # WDMC 2019 3.0: the game ends when a player goes below zero
    if (
        settled.dealer_stays
        and _all_last(state, rules)
        and rules.agari_yame != "none"
        and _dealer_top(state.dealer, scores, rules)
        and (rules.agari_yame == "auto" or not more_hands)
    ):
        return nxt, "dealer_top"  # WDMC 2019 3.7.2: the top dealer stops in the all-last
    last = _last_round(rules)
    extra = last + 1  # the west round (the south round in an east-only game)
    sudden_death = rules.west_sudden_death == "wdmc"
    if sudden_death and state.wind == extra and _non_dealer_won(hand, state.dealer):
        return nxt, _ROUND_NAMES[extra]  # WDMC 2019 3.7.1: a non-dealer win in West ends it
    if (
        rules.west_round
        and state.wind == extra
        and max(scores) >= rules.return_points
        and (not settled.dealer_stays or _dealer_top(state.dealer, scores, rules))
    ):
        # Sudden death in the west round: a hand ending with someone at the return points
        # ends the game, unless the dealer keeps the deal without being top (Tenhou: a
        # tenpai dealer who is not top plays on though another player has 30,000).
        return nxt, _ROUND_NAMES[extra]  # "west" (the south round when east-only)
    # EMA 2025 3.5: the game ends after the south round, unless the west round is played
    # while no one has reached the return points, or (WDMC 2019 3.7.1) the all-last South
    # hand was an exhaustive draw with the dealer noten.
    west = rules.west_round and max(scores) < rules.return_points
    if sudden_death and _noten_dealer_draw(hand, state.dealer):
        west = True
    if nxt.wind == extra and state.wind == last and not west:
        return nxt, f"{_ROUND_NAMES[last]}{rules.players}"
    if nxt.wind > extra:
        return nxt, f"{_ROUND_NAMES[extra]}{rules.players}"
    return nxt, None


def _noten_dealer_draw(hand: Hand, dealer: int) -> bool:
    """WDMC 2019 3.7.1: "the Hand ends in a draw and the Dealer is not in Tenpai" (an
    exhaustive draw, nagashi included; not an abortive draw, which repeats the hand)."""
    return hand.outcome in ("draw", "nagashi") and dealer not in hand.tenpai


def _non_dealer_won(hand: Hand, dealer: int) -> bool:
    """WDMC 2019 3.7.1: "until a player besides the Dealer wins" (a ron or tsumo with a
    winner other than the dealer, also when the dealer is one of several winners)."""
    return hand.outcome in ("ron", "tsumo") and any(w.winner != dealer for w in hand.wins)


def _dealer_top(dealer: int, scores: Sequence[int], rules: Ruleset) -> bool:
    """The all-last dealer is strictly first (and, with a west round, has the return points)."""
    others = max(s for seat, s in enumerate(scores) if seat != dealer)
    if scores[dealer] <= others:
        return False
    return not rules.west_round or scores[dealer] >= rules.return_points


def time_up(rules: Ruleset, signal_hand: int | None, hand: int) -> bool:
    """Whether the session is over by time once hand ``hand`` (0-based) has been played.

    EMA 2025 7.4: after the 15-minute signal the current hand (``signal_hand``, the one
    marked ``time_signal``) is finished and one more hand is played; a chombo after the
    signal is treated as one of those hands, so every listed hand counts, chombo included.
    Only under ``time_limit: "ema"``; the caller lets the rules' own ends (south4, bust,
    ...) take precedence ("unless a full game is already completed").
    """
    return rules.time_limit == "ema" and signal_hand is not None and hand >= signal_hand + 1
