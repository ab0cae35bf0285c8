"""Compare what a referee entered (han, fu or yakuman) with what the tiles give."""

from __future__ import annotations

from scoring.engine.points import HandPayment, hand_payment

from .adapter import Evaluation


def _describe(han: int | None, fu: int | None, yakuman: int) -> str:
    if yakuman:
        return f"{yakuman} yakuman"
    if han is None:
        return "no han"
    return f"{han} han" + (f" {fu} fu" if fu is not None else "")


def _paid(payment: HandPayment, ev: Evaluation) -> str:
    """The payment as a score sheet shows it: ron total, or tsumo shares."""
    if not ev.tsumo:
        amount = str(payment.total_ron)
    elif ev.dealer or payment.tsumo_dealer == payment.tsumo_non_dealer:
        amount = f"{payment.tsumo_non_dealer} all ({payment.total_tsumo})"
    else:
        amount = f"{payment.tsumo_non_dealer}/{payment.tsumo_dealer} ({payment.total_tsumo})"
    return f"{payment.limit} {amount}" if payment.limit else amount


def cross_check(
    evaluation: Evaluation, *, han: int | None, fu: int | None, yakuman: int = 0
) -> list[str]:
    """Human-readable mismatches between the entry and the tiles; empty when they agree.

    Fu are compared only below 5 han, where they count (EMA 2025 4.1). Each mismatch also
    says whether the payment comes out the same, e.g. 6 and 7 han are both haneman.
    """
    ev = evaluation
    if han is None and not yakuman:
        return []  # nothing entered to compare
    messages: list[str] = []
    if yakuman != ev.yakuman:
        messages.append(
            f"entered {_describe(han, fu, yakuman)}, the tiles give "
            f"{_describe(ev.han, ev.fu, ev.yakuman)}"
        )
    elif not ev.yakuman:
        if han != ev.han:
            messages.append(f"han: entered {han}, the tiles give {ev.han}")
        if ev.han < 5 and fu != ev.fu:
            entered_fu = "none" if fu is None else str(fu)
            messages.append(f"fu: entered {entered_fu}, the tiles give {ev.fu}")
    if not messages:
        return []

    tiles_paid = _paid(ev.payment, ev)
    entered = _entered_payment(ev, han, fu, yakuman)
    if entered is None:
        messages.append(f"the tiles are paid {tiles_paid}")
    elif entered.base == ev.payment.base:
        messages.append(f"the payment is the same either way: {tiles_paid}")
    else:
        messages.append(
            f"the payment differs: entered {_paid(entered, ev)}, the tiles give {tiles_paid}"
        )
    return messages


def _entered_payment(
    ev: Evaluation, han: int | None, fu: int | None, yakuman: int
) -> HandPayment | None:
    """What the entry pays, or None where it cannot be paid (no fu below 5 han)."""
    if ev.rules is None:
        return None
    try:
        return hand_payment(han=han or 0, fu=fu, yakuman=yakuman, dealer=ev.dealer, rules=ev.rules)
    except ValueError:
        return None
