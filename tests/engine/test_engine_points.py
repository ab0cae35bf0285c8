"""Hand value and payments (EMA 2025 4.1.2, 4.1.3, 4.3; WDMC 2019 5.4 and 8.3)."""

from __future__ import annotations

import pytest

from scoring.engine import PRESETS, base_points, hand_payment, limit_name, load_ruleset

EMA = PRESETS["ema-2025"]


def test_base_points_formula() -> None:
    """EMA 2025 4.1.2: base = fu x 2^(han+2) below the mangan limit."""
    assert base_points(han=1, fu=30, rules=EMA) == 240
    assert base_points(han=3, fu=40, rules=EMA) == 1280
    assert base_points(han=2, fu=25, rules=EMA) == 400


def test_kiriage_mangan() -> None:
    """EMA 2025 4.1.2/4.1.3: 4 han 30 fu and 3 han 60 fu (base 1,920) are mangan."""
    assert base_points(han=4, fu=30, rules=EMA) == 2000
    assert base_points(han=3, fu=60, rules=EMA) == 2000
    no_kiriage = load_ruleset("ema-2025", {"kiriage": False})
    assert base_points(han=4, fu=30, rules=no_kiriage) == 1920
    assert hand_payment(han=4, fu=30, dealer=False, rules=no_kiriage).ron == 7700


def test_natural_mangan_cap() -> None:
    """EMA 2025 4.1.2: the base value is limited to 2,000 below 5 han."""
    assert base_points(han=4, fu=40, rules=EMA) == 2000
    assert base_points(han=3, fu=70, rules=EMA) == 2000


@pytest.mark.parametrize(
    ("han", "base", "name"),
    [
        (5, 2000, "mangan"),
        (6, 3000, "haneman"),
        (7, 3000, "haneman"),
        (8, 4000, "baiman"),
        (10, 4000, "baiman"),
        (11, 6000, "sanbaiman"),
        (12, 6000, "sanbaiman"),
    ],
)
def test_limit_hands(han: int, base: int, name: str) -> None:
    """EMA 2025 4.1.2: the limit hands table."""
    assert base_points(han=han, fu=None, rules=EMA) == base
    assert limit_name(han=han, fu=None, rules=EMA) == name


def test_thirteen_han_is_sanbaiman_or_kazoe() -> None:
    """EMA 2025 4.1.2 (11 or more is sanbaiman) vs WDMC 2019 4.3.2 (13+ is a yakuman)."""
    assert base_points(han=13, fu=None, rules=EMA) == 6000
    assert limit_name(han=13, fu=None, rules=PRESETS["wdmc-2019"]) == "yakuman"
    assert base_points(han=13, fu=None, rules=PRESETS["wdmc-2019"]) == 8000


def test_double_yakuman() -> None:
    """Ari-Ari 10.7 double yakuman count twice; WDMC 2019 4.1.7 caps at one."""
    assert base_points(han=0, fu=None, yakuman=2, rules=PRESETS["ari-ari"]) == 16000
    assert limit_name(han=0, fu=None, yakuman=2, rules=PRESETS["ari-ari"]) == "double_yakuman"
    assert base_points(han=0, fu=None, yakuman=2, rules=PRESETS["wdmc-2019"]) == 8000


def test_no_limit_below_mangan() -> None:
    assert limit_name(han=2, fu=30, rules=EMA) is None


# EMA 2025 4.3 scoring examples 1-10: (han, fu, tsumo, dealer payment, non-dealer payment)
EMA_EXAMPLES = [
    (1, 5, None, True, (4000,), (4000, 2000)),
    (2, 4, 30, False, 12000, 8000),
    (3, 2, 30, False, 2900, 2000),
    (5, 8, None, False, 24000, 16000),
    (6, 6, None, True, (6000,), (6000, 3000)),
    (7, 2, 25, False, 2400, 1600),
    (8, 4, 30, True, (4000,), (4000, 2000)),
    (10, 4, 40, True, None, (4000, 2000)),
]


@pytest.mark.parametrize(("example", "han", "fu", "is_tsumo", "east", "other"), EMA_EXAMPLES)
def test_ema_4_3_examples(
    example: int, han: int, fu: int | None, is_tsumo: bool, east: object, other: object
) -> None:
    """EMA 2025 4.3 scoring examples."""
    d = hand_payment(han=han, fu=fu, dealer=True, rules=EMA)
    n = hand_payment(han=han, fu=fu, dealer=False, rules=EMA)
    if is_tsumo:
        if east is not None:
            assert (d.tsumo_non_dealer,) == east
        assert (n.tsumo_dealer, n.tsumo_non_dealer) == other
    else:
        assert (d.ron, n.ron) == (east, other)


def test_ema_4_3_example_4_yakuman_tsumo() -> None:
    """EMA 2025 4.3 example 4: yakuman by tsumo, 16,000 all (48,000) / 16,000-8,000 (32,000)."""
    d = hand_payment(han=0, fu=None, yakuman=1, dealer=True, rules=EMA)
    n = hand_payment(han=0, fu=None, yakuman=1, dealer=False, rules=EMA)
    assert (d.tsumo_non_dealer, d.total_tsumo) == (16000, 48000)
    assert (n.tsumo_dealer, n.tsumo_non_dealer, n.total_tsumo) == (16000, 8000, 32000)


def test_ema_4_3_example_9_dealer_haneman_ron() -> None:
    """EMA 2025 4.3 example 9: East, 6 han by discard, 18,000."""
    assert hand_payment(han=6, fu=None, dealer=True, rules=EMA).ron == 18000


def test_payments_round_up_to_100() -> None:
    """EMA 2025 4.1.2: payments are rounded up to the next 100 (1 han 30 fu: 1,000 / 300-500)."""
    p = hand_payment(han=1, fu=30, dealer=False, rules=EMA)
    assert (p.ron, p.tsumo_dealer, p.tsumo_non_dealer, p.total_tsumo) == (1000, 500, 300, 1100)


def test_three_player_payments() -> None:
    """WDMC 2019 5.4 / 8.3: tsumo paid as a dealer tsumo, ron as a non-dealer ron, no kiriage."""
    r3 = PRESETS["wdmc-2019-3p"]
    n = hand_payment(han=3, fu=30, dealer=False, rules=r3)
    assert (n.ron, n.tsumo_dealer, n.tsumo_non_dealer, n.total_tsumo) == (3900, 2000, 2000, 4000)
    d = hand_payment(han=3, fu=30, dealer=True, rules=r3)
    assert (d.ron, d.tsumo_dealer, d.tsumo_non_dealer) == (3900, 0, 2000)
    assert hand_payment(han=4, fu=30, dealer=False, rules=r3).ron == 7700
    assert hand_payment(han=2, fu=25, dealer=False, rules=r3).ron == 1600
