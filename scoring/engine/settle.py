"""Settle one hand: the points each seat gains or loses, riichi sticks included.

Pure functions of the hand, the table state and the rules; the round/dealer/honba progression
lives in ``flow.py``.
"""

from __future__ import annotations

from dataclasses import dataclass

from .points import hand_payment
from .rules import Ruleset
from .validate import Hand, Win


@dataclass(frozen=True)
class Table:
    """The state at the start of a hand."""

    dealer: int
    honba: int
    sticks: int  # riichi sticks on the table from earlier hands


@dataclass(frozen=True)
class Settlement:
    deltas: tuple[int, ...]
    sticks_after: int
    dealer_stays: bool
    counter: str  # "add": one more counter; "reset": back to 0; "keep": unchanged
    penalty: tuple[int, int] | None = None  # (seat, points) deducted after uma (chombo)


def _turn_order(first_after: int, seats: list[int], players: int) -> list[int]:
    """Seats sorted by turn order starting after ``first_after`` (EMA 2025 3.3.10)."""
    return sorted(seats, key=lambda s: (s - first_after) % players)


def _win_payment(win: Win, *, dealer: bool, rules: Ruleset) -> tuple[int, int, int]:
    p = hand_payment(han=win.han, fu=win.fu, yakuman=win.yakuman, dealer=dealer, rules=rules)
    return p.ron, p.tsumo_dealer, p.tsumo_non_dealer


def _pay_sticks(
    deltas: list[int], hand: Hand, t: Table, rules: Ruleset, winners: list[int]
) -> None:
    """Riichi bets: winners in riichi get their own back on a multiple ron (EMA 2025 3.3.10),
    the rest (and earlier hands' sticks) go to the first winner after the discarder."""
    pot = t.sticks + len(hand.riichi)
    if len(winners) > 1 and rules.multi_ron_riichi == "own_back":
        for seat in winners:
            if seat in hand.riichi:
                deltas[seat] += rules.riichi_stick
                pot -= 1
    deltas[winners[0]] += pot * rules.riichi_stick


def _settle_ron(hand: Hand, t: Table, rules: Ruleset, deltas: list[int]) -> Settlement:
    assert hand.loser is not None
    by_seat = {w.winner: w for w in hand.wins}
    order = _turn_order(hand.loser, list(by_seat), rules.players)
    for i, seat in enumerate(order):
        win = by_seat[seat]
        ron, _, _ = _win_payment(win, dealer=seat == t.dealer, rules=rules)
        # EMA 2025 3.4.4: on a multiple ron the discarder pays the counters to every winner.
        honba = rules.honba_ron * t.honba if i == 0 or rules.multi_ron_honba == "each" else 0
        deltas[seat] += ron + honba
        if win.pao is not None and win.pao != hand.loser:
            # EMA 2025 3.3.7: the liable player and the discarder share the value equally;
            # only the discarder pays the counters (Tenhou: only the liable player does).
            half = ron // 2
            liable_honba = honba if rules.pao_ron_honba == "liable" else 0
            deltas[win.pao] -= half + liable_honba
            deltas[hand.loser] -= ron - half + honba - liable_honba
        else:
            deltas[hand.loser] -= ron + honba
    _pay_sticks(deltas, hand, t, rules, order)
    stays = t.dealer in by_seat
    return Settlement(tuple(deltas), 0, stays, "add" if stays else "reset")


def _settle_tsumo(hand: Hand, t: Table, rules: Ruleset, deltas: list[int]) -> Settlement:
    win = hand.wins[0]
    seat = win.winner
    _, from_dealer, from_other = _win_payment(win, dealer=seat == t.dealer, rules=rules)
    for payer in range(rules.players):
        if payer == seat:
            continue
        share = (from_dealer if payer == t.dealer else from_other) + rules.honba_tsumo * t.honba
        # EMA 2025 3.3.7: on a tsumo the liable player alone pays everything (counters too).
        deltas[win.pao if win.pao is not None else payer] -= share
        deltas[seat] += share
    _pay_sticks(deltas, hand, t, rules, [seat])
    stays = seat == t.dealer
    return Settlement(tuple(deltas), 0, stays, "add" if stays else "reset")


def _dealer_stays_on_draw(hand: Hand, t: Table, rules: Ruleset) -> bool:
    if rules.dealer_stays_on_draw == "always":
        return True
    if rules.dealer_stays_on_draw == "never":
        return False
    return t.dealer in hand.tenpai  # EMA 2025 3.4.5


def _settle_draw(hand: Hand, t: Table, rules: Ruleset, deltas: list[int]) -> Settlement:
    tenpai = set(hand.tenpai)
    if 0 < len(tenpai) < rules.players:
        # EMA 2025 3.4.2: the noten players pay the pool, shared by the tenpai players.
        noten = rules.players - len(tenpai)
        for seat in range(rules.players):
            if seat in tenpai:
                deltas[seat] += rules.noten_total // len(tenpai)
            else:
                deltas[seat] -= rules.noten_total // noten
    # EMA 2025 3.4.2: riichi bets stay on the table after a draw.
    return Settlement(
        tuple(deltas), t.sticks + len(hand.riichi), _dealer_stays_on_draw(hand, t, rules), "add"
    )


def _settle_nagashi(hand: Hand, t: Table, rules: Ruleset, deltas: list[int]) -> Settlement:
    """WDMC 2019 4.1.6.2: each nagashi seat is paid a tsumo mangan by every other seat
    (a yakuman with 3 players, WDMC 2019 5.5). It replaces the noten payments (chosen: it
    is scored as a tsumo); no counters are paid and the sticks stay, as after a draw."""
    yakuman = 1 if rules.players == 3 else 0
    for seat in hand.nagashi:
        _, from_dealer, from_other = _win_payment(
            Win(winner=seat, han=0 if yakuman else 5, fu=None, yakuman=yakuman, pao=None),
            dealer=seat == t.dealer,
            rules=rules,
        )
        for payer in range(rules.players):
            if payer in hand.nagashi:
                continue
            share = from_dealer if payer == t.dealer else from_other
            deltas[payer] -= share
            deltas[seat] += share
    return Settlement(
        tuple(deltas), t.sticks + len(hand.riichi), _dealer_stays_on_draw(hand, t, rules), "add"
    )


_CHOMBO_MANGAN = 2000  # the base points of a mangan


def _chombo_share(*, offender_deals: bool, to_dealer: bool) -> int:
    """What a reverse-mangan chombo pays one opponent (WDMC 2019 3.10, EMA 2025 3.4.6).

    WDMC 2019 3.10: a non-dealer pays 4,000 to the dealer and 2,000 to each non-dealer; the
    dealer pays 4,000 to everyone. With three players the same amounts apply (chosen, citing
    the text): 5.1 keeps every 4-player rule except those section 5 lists, and 5.4 changes
    only how *wins* are paid ("All wins by Tsumo ... All wins by Ron ..."); a chombo is not
    a win, so 3.10 stands. A non-dealer's chombo costs 6,000 at a 3-player table, the
    dealer's 8,000.
    """
    if offender_deals or to_dealer:
        return 2 * _CHOMBO_MANGAN
    return _CHOMBO_MANGAN


def _settle_chombo(hand: Hand, t: Table, rules: Ruleset, deltas: list[int]) -> Settlement:
    """EMA 2025 3.4.6: a re-deal; this hand's riichi bets are returned, no new counter, no
    rotation. The cost is a penalty after uma, or a reverse mangan paid at the table."""
    assert hand.offender is not None
    for seat in hand.riichi:
        deltas[seat] += rules.riichi_stick  # returned
    if rules.chombo.mode == "penalty":
        return Settlement(
            tuple(deltas), t.sticks, True, "keep", penalty=(hand.offender, rules.chombo.points)
        )
    for seat in range(rules.players):
        if seat != hand.offender:
            share = _chombo_share(
                offender_deals=hand.offender == t.dealer, to_dealer=seat == t.dealer
            )
            deltas[seat] += share
            deltas[hand.offender] -= share
    return Settlement(tuple(deltas), t.sticks, True, "keep")


def settle(hand: Hand, table: Table, rules: Ruleset) -> Settlement:
    deltas = [0] * rules.players
    for seat in hand.riichi:
        deltas[seat] -= rules.riichi_stick  # EMA 2025 3.3.10 step 3: the bet
    if hand.outcome == "ron":
        return _settle_ron(hand, table, rules, deltas)
    if hand.outcome == "tsumo":
        return _settle_tsumo(hand, table, rules, deltas)
    if hand.outcome == "draw":
        return _settle_draw(hand, table, rules, deltas)
    if hand.outcome == "nagashi":
        return _settle_nagashi(hand, table, rules, deltas)
    if hand.outcome == "abortive":
        # WDMC 2019 3.8: a null hand keeps the counter; Tenhou-style adds one ("counter").
        counter = "add" if rules.abortive_draws == "counter" else "keep"
        return Settlement(tuple(deltas), table.sticks + len(hand.riichi), True, counter)
    return _settle_chombo(hand, table, rules, deltas)
