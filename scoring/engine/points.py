"""Hand value: base points from han and fu, limits, and the payments a win is worth.

No honba and no riichi sticks here; ``settle.py`` adds those.
"""

from __future__ import annotations

from dataclasses import dataclass

from .rules import Ruleset

MANGAN = 2000
_LIMITS = ((11, 6000), (8, 4000), (6, 3000), (5, MANGAN))  # EMA 2025 4.1.2
YAKUMAN = 8000


def ceil100(points: int) -> int:
    """Payments are rounded up to the next 100 (EMA 2025 4.1.2)."""
    return -(-points // 100) * 100


def base_points(*, han: int, fu: int | None, yakuman: int = 0, rules: Ruleset) -> int:
    """Base value of a hand (EMA 2025 4.1.2): fu x 2^(han+2), capped by the limit hands.

    13+ han is a counted yakuman or sanbaiman per ``han_limit``; more than one yakuman only
    counts where ``double_yakuman`` is on (validation rejects it otherwise; here it is capped).
    """
    if yakuman > 0:
        return YAKUMAN * (yakuman if rules.double_yakuman else 1)
    if han >= 13:
        return YAKUMAN if rules.han_limit == "kazoe_yakuman" else 6000
    for min_han, value in _LIMITS:
        if han >= min_han:
            return value
    if fu is None:
        raise ValueError("fu is needed below 5 han")
    base = fu << (han + 2)  # fu x 2^(han+2)
    # Kiriage: 4 han 30 fu and 3 han 60 fu (base 1,920) count as mangan (EMA 2025 4.1.2).
    if base >= MANGAN or (rules.kiriage and base > 1900):
        return MANGAN
    return base


def limit_name(*, han: int, fu: int | None, yakuman: int = 0, rules: Ruleset) -> str | None:
    """The limit hand's name, or None for an ordinary hand below mangan."""
    return _limit_of(base_points(han=han, fu=fu, yakuman=yakuman, rules=rules))


def _limit_of(base: int) -> str | None:
    if base >= 2 * YAKUMAN:
        return "double_yakuman" if base == 2 * YAKUMAN else f"{base // YAKUMAN}x_yakuman"
    return {
        YAKUMAN: "yakuman",
        6000: "sanbaiman",
        4000: "baiman",
        3000: "haneman",
        MANGAN: "mangan",
    }.get(base)


@dataclass(frozen=True)
class HandPayment:
    """What a win is worth before honba and sticks.

    ``ron``: paid by the discarder. ``tsumo_dealer``: the dealer's share when a non-dealer
    wins by tsumo (0 when the winner is the dealer). ``tsumo_non_dealer``: each non-dealer's
    share on tsumo. With 3 players (WDMC 2019 5.4) every ron is paid as a non-dealer ron
    (4 x base) and every tsumo as a dealer tsumo (2 x base from each of the two others), so
    ``tsumo_dealer`` equals ``tsumo_non_dealer`` for a non-dealer winner.
    """

    base: int
    limit: str | None
    ron: int
    tsumo_dealer: int
    tsumo_non_dealer: int
    total_ron: int
    total_tsumo: int


def hand_payment(
    *, han: int, fu: int | None, yakuman: int = 0, dealer: bool, rules: Ruleset
) -> HandPayment:
    base = base_points(han=han, fu=fu, yakuman=yakuman, rules=rules)
    limit = _limit_of(base)
    if rules.players == 3:  # WDMC 2019 5.4
        share = ceil100(2 * base)
        return HandPayment(
            base,
            limit,
            ceil100(4 * base),
            0 if dealer else share,
            share,
            ceil100(4 * base),
            2 * share,
        )
    if dealer:  # EMA 2025 4.1.2: the dealer is paid 6 x base on ron, 2 x base each on tsumo
        share = ceil100(2 * base)
        return HandPayment(base, limit, ceil100(6 * base), 0, share, ceil100(6 * base), 3 * share)
    from_dealer, from_other = ceil100(2 * base), ceil100(base)
    return HandPayment(
        base,
        limit,
        ceil100(4 * base),
        from_dealer,
        from_other,
        ceil100(4 * base),
        from_dealer + 2 * from_other,
    )
