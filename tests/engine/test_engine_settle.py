"""Hand settlement: ron, tsumo, counters, sticks, multiple ron, pao, draws, chombo."""

from __future__ import annotations

import pytest
from engine_support import deltas, draw, last, record, ron, tsumo, win

from scoring.engine import RecordError, replay


def test_ron_pays_the_winner() -> None:
    """EMA 2025 3.4.3: the discarder pays the full value (1 han 30 fu non-dealer: 1,000)."""
    assert deltas("ema-2025", ron(3, win(1, 1, 30))) == [[0, 1000, 0, -1000]]


def test_dealer_ron_six_times_base() -> None:
    """EMA 2025 4.1.2: the dealer is paid six times the base (2 han 30 fu: 2,900)."""
    assert deltas("ema-2025", ron(2, win(0, 2, 30))) == [[2900, 0, -2900, 0]]


def test_non_dealer_tsumo_shares() -> None:
    """EMA 2025 4.1.2: on a non-dealer tsumo the dealer pays double (3 han 40 fu: 2,600/1,300)."""
    assert deltas("ema-2025", tsumo(win(2, 3, 40))) == [[-2600, -1300, 5200, -1300]]


def test_dealer_tsumo_all_pay_double() -> None:
    """EMA 2025 4.1.2: East receives double the base from each (mangan: 4,000 all)."""
    assert deltas("ema-2025", tsumo(win(0, 5, None))) == [[12000, -4000, -4000, -4000]]


def test_honba_on_ron_and_tsumo() -> None:
    """EMA 2025 3.4.4: each counter adds 300 on a ron, 100 from each payer on a tsumo."""
    hands = [draw([1]), draw([1])]  # two counters; seat 1 deals and stays tenpai
    after_ron = last("ema-2025", *hands, ron(0, win(3, 1, 30)))
    assert after_ron["honba"] == 2
    assert after_ron["deltas"] == [-1600, 0, 0, 1600]
    after_tsumo = last("ema-2025", *hands, tsumo(win(3, 1, 30)))
    # 1 han 30 fu non-dealer tsumo: 500 from the dealer (seat 1), 300 from others, +200 each
    assert after_tsumo["deltas"] == [-500, -700, -500, 1700]


def test_riichi_sticks_paid_and_carried_over() -> None:
    """EMA 2025 3.3.10 / 3.4.2: bets stay on the table after a draw; the next winner takes all."""
    hands = [draw([0, 1], riichi=[0, 1]), ron(2, win(3, 1, 30), riichi=[2])]
    out = replay(record("ema-2025", hands))["hands"]
    assert out[0]["deltas"] == [500, 500, -1500, -1500]  # -1,000 bet +1,500 tenpai each
    assert out[1]["riichi_sticks"] == 2 and out[1]["honba"] == 1
    assert out[1]["deltas"] == [0, 0, -1000 - 1300, 1300 + 3000]


def test_riichi_declarer_ronned_gets_no_stick_listed() -> None:
    """EMA 2025 3.3.10: a riichi discard that is ronned is invalid; the record omits it."""
    assert deltas("ema-2025", ron(2, win(1, 1, 30))) == [[0, 1000, -1000, 0]]


def test_multiple_ron_ema() -> None:
    """EMA 2025 3.3.10, 3.4.4: the discarder pays each winner with counters; winners' own
    sticks come back; the rest go to the first winner after the discarder."""
    hands = [draw([0]), ron(1, win(0, 2, 30), win(3, 1, 30), riichi=[0, 1, 3])]
    # one counter, one stick from the draw; dealer 0 stayed. Discarder 1: next in turn is 2,
    # then 3, then 0: seat 3 is the first winner.
    d = last("ema-2025", *hands)
    assert d["honba"] == 1 and d["riichi_sticks"] == 0
    assert d["deltas"] == [
        -1000 + 1000 + 2900 + 300,  # dealer 2 han 30 fu, own stick back
        -1000 - 2900 - 300 - 1000 - 300,  # discarder pays both, loses own stick
        0,
        -1000 + 1000 + 1000 + 300 + 1000,  # own stick back + the discarder's stick
    ]


def test_multiple_ron_first_winner_takes_all_sticks() -> None:
    """multi_ron_riichi "first" and multi_ron_honba "first" (game-record.md)."""
    rules = {"multi_ron_riichi": "first", "multi_ron_honba": "first"}
    d = last(
        "ema-2025", draw([0]), ron(1, win(0, 2, 30), win(3, 1, 30), riichi=[0, 3]), rules=rules
    )
    # seat 3 is first after discarder 1: both bets and the only counters go to seat 3
    assert d["deltas"] == [-1000 + 2900, -2900 - 1000 - 300, 0, -1000 + 1000 + 300 + 2000]


def test_headbump_rejects_double_ron() -> None:
    """Ari-Ari 6.4: only the player closest to the discarder may ron (atamahane)."""
    with pytest.raises(RecordError) as err:
        replay(record("ari-ari", [ron(1, win(0, 2, 30), win(3, 1, 30))]))
    assert err.value.field == "wins"


def test_triple_ron_is_abortive_under_tenhou() -> None:
    """game-record.md multiple_ron "triple_abortive": two winners paid, three rejected."""
    assert deltas("tenhou", ron(1, win(0, 2, 30), win(2, 1, 30)))[0][1] == -3900
    with pytest.raises(RecordError) as err:
        replay(record("tenhou", [ron(1, win(0, 2, 30), win(2, 1, 30), win(3, 1, 30))]))
    assert err.value.field == "wins" and "abortive" in err.value.message


def test_triple_ron_paid_under_wdmc() -> None:
    """WDMC 2019 3.5.3.2: the discarder pays all three winners."""
    d = deltas("wdmc-2019", ron(1, win(0, 1, 30), win(2, 1, 30), win(3, 1, 30)))[0]
    assert d == [1500, -3500, 1000, 1000]


def test_pao_on_ron_splits_value_counters_from_discarder() -> None:
    """EMA 2025 3.3.7: the liable player and the discarder share the yakuman; only the
    discarder pays the counters."""
    d = last("ema-2025", draw([1]), ron(2, {"winner": 3, "yakuman": 1, "pao": 0}))
    assert d["deltas"] == [-16000, 0, -16000 - 300, 32300]


def test_pao_on_tsumo_liable_pays_all() -> None:
    """EMA 2025 3.3.7: on a tsumo the liable player alone pays the full value."""
    d = deltas("ema-2025", tsumo({"winner": 3, "yakuman": 1, "pao": 1}))[0]
    assert d == [0, -32000, 0, 32000]


def test_pao_only_for_yakuman() -> None:
    """EMA 2025 3.3.7: liability is for Big Three Dragons / Big Four Winds only."""
    with pytest.raises(RecordError) as err:
        replay(record("ema-2025", [tsumo(win(3, 5, None, pao=1))]))
    assert err.value.field == "wins[0].pao"


@pytest.mark.parametrize(
    ("tenpai", "expected"),
    [
        ([0], [3000, -1000, -1000, -1000]),
        ([0, 2], [1500, -1500, 1500, -1500]),
        ([0, 1, 2], [1000, 1000, 1000, -3000]),
        ([], [0, 0, 0, 0]),
        ([0, 1, 2, 3], [0, 0, 0, 0]),
    ],
)
def test_noten_payments(tenpai: list[int], expected: list[int]) -> None:
    """EMA 2025 3.4.2: the 3,000 noten pool."""
    assert deltas("ema-2025", draw(tenpai)) == [expected]


@pytest.mark.parametrize(
    ("tenpai", "expected"),
    [
        ([0], [2000, -1000, -1000]),
        ([0, 2], [1000, -2000, 1000]),
    ],
)
def test_three_player_noten_pool(tenpai: list[int], expected: list[int]) -> None:
    """WDMC 2019 5.4: tenpai payments distribute 2,000 with three players."""
    assert deltas("wdmc-2019-3p", draw(tenpai)) == [expected]


def test_three_player_counters() -> None:
    """WDMC 2019 5.4: 200 per bonus stick (ron), 100 from each of two on tsumo."""
    assert last("wdmc-2019-3p", draw([0]), ron(1, win(2, 1, 30)))["deltas"] == [0, -1200, 1200]
    assert last("wdmc-2019-3p", draw([0]), tsumo(win(2, 1, 30)))["deltas"] == [-600, -600, 1200]


def test_noten_riichi_at_draw_is_rejected() -> None:
    """EMA 2025 3.4.6: riichi while noten is found at the draw and is a chombo."""
    with pytest.raises(RecordError) as err:
        replay(record("ema-2025", [draw([1], riichi=[0])]))
    assert (err.value.hand, err.value.field) == (0, "tenpai")


def test_nagashi_mangan() -> None:
    """WDMC 2019 4.1.6.2: scored as a tsumo mangan; the sticks stay on the table."""
    hand = {"outcome": "nagashi", "riichi": [1], "nagashi": [2], "tenpai": [1]}
    out = replay(record("wdmc-2019", [hand]))["hands"]
    assert out[0]["deltas"] == [-4000, -3000, 8000, -2000]
    assert replay(record("wdmc-2019", [hand, draw([])]))["hands"][1]["riichi_sticks"] == 1


def test_nagashi_three_players_is_yakuman() -> None:
    """WDMC 2019 5.5: nagashi mangan is a yakuman with three players."""
    hand = {"outcome": "nagashi", "riichi": [], "nagashi": [1], "tenpai": []}
    assert deltas("wdmc-2019-3p", hand) == [[-16000, 32000, -16000]]


def test_nagashi_rejected_without_the_rule() -> None:
    """EMA 2025 4.2: no nagashi mangan."""
    hand = {"outcome": "nagashi", "riichi": [], "nagashi": [1], "tenpai": []}
    with pytest.raises(RecordError) as err:
        replay(record("ema-2025", [hand]))
    assert err.value.field == "outcome"


def test_abortive_draws() -> None:
    """EMA 2025 3.4 has none; WDMC 2019 3.8 keeps the counter; Tenhou adds one."""
    hand = {"outcome": "abortive", "riichi": [2]}
    with pytest.raises(RecordError):
        replay(record("ema-2025", [hand]))
    wd = replay(record("wdmc-2019", [hand, draw([])]))["hands"]
    assert wd[0]["deltas"] == [0, 0, -1000, 0]
    assert (wd[1]["round"], wd[1]["honba"], wd[1]["riichi_sticks"]) == ("E1", 0, 1)
    th = replay(record("tenhou", [hand, draw([])]))["hands"]
    assert (th[1]["round"], th[1]["honba"]) == ("E1", 1)


def test_chombo_penalty_after_uma_no_rotation() -> None:
    """EMA 2025 3.4.6: re-deal, bets returned, no counter, no rotation; 20,000 after uma."""
    hands = [draw([1]), {"outcome": "chombo", "riichi": [0], "offender": 3}, draw([])]
    out = replay(record("ema-2025", hands, end="time"))
    assert out["hands"][1]["deltas"] == [0, 0, 0, 0]
    assert (out["hands"][2]["round"], out["hands"][2]["honba"]) == ("E2", 1)
    final = out["final"]
    assert final["penalties"] == [0, 0, 0, 20000]
    assert final["result"][3] == final["scores"][3] - 30000 + final["uma"][3] - 20000


def test_chombo_reverse_mangan() -> None:
    """EMA 2025 3.4.6 outside tournaments: 4,000 to East, 2,000 to others; East pays 4,000."""
    chombo = {"outcome": "chombo", "riichi": [], "offender": 2}
    assert deltas("wdmc-2019", chombo) == [[4000, 2000, -8000, 2000]]
    dealer = {"outcome": "chombo", "riichi": [], "offender": 0}
    assert deltas("wdmc-2019", dealer) == [[-12000, 4000, 4000, 4000]]


def test_three_player_chombo_follows_3_10() -> None:
    """WDMC 2019 3.10: a non-dealer pays 4,000 to the dealer and 2,000 to a non-dealer; the
    dealer pays 4,000 to all. 5.4 changes only how wins are paid, so three players keep it."""
    non_dealer = {"outcome": "chombo", "riichi": [], "offender": 2}
    assert deltas("wdmc-2019-3p", non_dealer) == [[4000, 2000, -6000]]
    dealer = {"outcome": "chombo", "riichi": [], "offender": 0}
    assert deltas("wdmc-2019-3p", dealer) == [[-8000, 4000, 4000]]
    # the dealer stays and the re-deal keeps the counter (EMA 2025 3.4.6)
    after = last("wdmc-2019-3p", draw([0]), non_dealer)
    assert after["deltas"] == [4000, 2000, -6000]
    assert after["honba"] == 1
