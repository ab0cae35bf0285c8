"""Game flow: round wind, dealer rotation, counters, end of game (EMA 2025 3.4.5, 3.5, 7.4)."""

from __future__ import annotations

import pytest
from engine_support import draw, record, ron, tsumo, win

from scoring.engine import RecordError, preview_hand, replay


def _labels(ruleset: str, hands: list[dict[str, object]], **top: object) -> list[str]:
    return [f"{h['round']}-{h['honba']}" for h in replay(record(ruleset, hands, **top))["hands"]]


def test_dealer_rotates_on_non_dealer_win() -> None:
    """EMA 2025 3.4.5: the dealer rotates when another player wins; counters are removed."""
    hands = [draw([0]), ron(2, win(1, 1, 30)), ron(2, win(3, 1, 30))]
    assert _labels("ema-2025", hands) == ["E1-0", "E1-1", "E2-0"]


def test_dealer_repeat_adds_counter() -> None:
    """EMA 2025 3.4.4: a counter after a dealer win and after an exhaustive draw."""
    hands = [tsumo(win(0, 1, 30)), draw([1]), ron(0, win(2, 1, 30))]
    assert _labels("ema-2025", hands) == ["E1-0", "E1-1", "E2-2"]


def test_multiple_ron_with_dealer_keeps_dealer() -> None:
    """EMA 2025 3.4.5: East stays if one of several winners."""
    hands = [ron(1, win(0, 1, 30), win(2, 1, 30)), draw([])]
    assert _labels("ema-2025", hands) == ["E1-0", "E1-1"]


def test_noten_dealer_rotates_keeps_counter() -> None:
    """EMA 2025 3.4.2/3.4.5: a noten dealer rotates; the counter still goes up."""
    assert _labels("ema-2025", [draw([1]), draw([])]) == ["E1-0", "E2-1"]


def _full_game(n: int = 8) -> list[dict[str, object]]:
    # Each hand a non-dealer (the seat after the dealer) wins: E1..S4 = 8 hands.
    return [ron((i + 2) % 4, win((i + 1) % 4, 1, 30)) for i in range(n)]


def test_game_ends_after_south_4() -> None:
    """EMA 2025 3.5: the game ends when the south round ends."""
    out = replay(record("ema-2025", _full_game()))
    assert [h["round"] for h in out["hands"]][3:5] == ["E4", "S1"]
    assert out["ended_by"] == "south4" and out["next"] is None
    # Every seat won and lost 1,000 twice: a four-way tie shares all uma (EMA 2025 3.7.1).
    assert out["final"]["rank"] == [1, 1, 1, 1] and out["final"]["uma"] == [0, 0, 0, 0]


def test_hand_after_the_end_is_rejected() -> None:
    """EMA 2025 3.5: nothing is played after South 4."""
    with pytest.raises(RecordError) as err:
        replay(record("ema-2025", [*_full_game(), draw([])]))
    assert (err.value.hand, err.value.field) == (8, "outcome")


def test_in_progress_game_has_next_and_no_final() -> None:
    out = replay(record("ema-2025", _full_game(3)))
    assert out["final"] is None and out["ended_by"] is None
    assert out["next"] == {"round": "E4", "honba": 0, "riichi_sticks": 0, "dealer": 3}


def test_time_limited_end() -> None:
    """EMA 2025 7.4: a timed session ends after the last listed hand."""
    out = replay(record("ema-2025", _full_game(3), end="time"))
    assert out["ended_by"] == "time" and out["final"] is not None


def test_bust_ends_the_game() -> None:
    """WDMC 2019 3.0: the game ends when a player's points go below zero."""
    hands = [ron(2, {"winner": 1, "yakuman": 1}), draw([])]
    with pytest.raises(RecordError) as err:
        replay(record("wdmc-2019", hands))
    assert err.value.hand == 1
    assert replay(record("wdmc-2019", hands[:1]))["ended_by"] == "bust"
    # EMA 2025 4.1.4: no bankruptcy rule
    assert replay(record("ema-2025", hands))["ended_by"] is None


def test_west_round_when_no_one_has_return_points() -> None:
    """game-record.md west_round (Tenhou): play on while no one has 30,000."""
    hands = [draw([]) for _ in range(8)]  # every dealer noten: E1..S4, all stay at 25,000
    out = replay(record("tenhou", hands))
    assert out["ended_by"] is None and out["next"]["round"] == "W1"
    # In the west round the game ends as soon as someone has the return points.
    done = replay(record("tenhou", [*hands, ron(1, win(0, 3, 40))]))  # 25,000 + 7,700
    assert done["ended_by"] == "west"


def test_agari_yame_auto_and_optional() -> None:
    """WDMC 2019 3.7.2 (optional) / Tenhou (automatic): a top all-last dealer may stop."""
    # Seat 3 wins big early, then the dealer rotates to South 4 (seat 3 deals) and wins.
    start = [ron(0, win(3, 8, None))]
    start += [ron((k + 2) % 4, win((k + 1) % 4, 1, 30)) for k in range(1, 7)]
    last_win = ron(0, win(3, 1, 30))
    assert replay(record("tenhou", [*start, last_win]))["ended_by"] == "dealer_top"
    with pytest.raises(RecordError):
        replay(record("tenhou", [*start, last_win, draw([])]))
    assert replay(record("wdmc-2019", [*start, last_win]))["ended_by"] == "dealer_top"
    # The WDMC dealer chose to go on: the noten draw then leads into West 1
    # (WDMC 2019 3.7.1), or ends the game without that rule.
    went_on = replay(record("wdmc-2019", [*start, last_win, draw([])]))
    assert went_on["ended_by"] is None and went_on["next"]["round"] == "W1"
    no_west = {"west_sudden_death": "none"}
    ended = replay(record("wdmc-2019", [*start, last_win, draw([])], rules=no_west))
    assert ended["ended_by"] == "south4"
    assert replay(record("ema-2025", [*start, last_win]))["ended_by"] is None


def test_three_player_game_has_three_hands_per_round() -> None:
    """WDMC 2019 5.2: three seats, so three dealers per round."""
    hands = [ron((i + 2) % 3, win((i + 1) % 3, 1, 30)) for i in range(6)]
    out = replay(record("wdmc-2019-3p", hands))
    assert [h["round"] for h in out["hands"]] == ["E1", "E2", "E3", "S1", "S2", "S3"]
    assert out["ended_by"] == "south3"


def test_preview_hand_reports_index_of_new_hand() -> None:
    rec = record("ema-2025", _full_game(2))
    entry = preview_hand(rec, ron(0, win(3, 2, 30)))
    assert entry["round"] == "E3" and entry["deltas"] == [-2000, 0, 0, 2000]
    with pytest.raises(RecordError) as err:
        preview_hand(rec, ron(0, win(0, 2, 30)))
    assert err.value.hand == 2


def test_west_round_ends_after_west_4() -> None:
    """game-record.md west_round: the west round is the last one."""
    out = replay(record("tenhou", [draw([]) for _ in range(12)]))
    assert out["ended_by"] == "west4" and out["hands"][-1]["round"] == "W4"


@pytest.mark.parametrize(
    ("mode", "labels"),
    [
        ("tenpai", ["E1-0", "E2-1", "E2-2"]),
        ("always", ["E1-0", "E1-1", "E1-2"]),
        ("never", ["E1-0", "E2-1", "E3-2"]),
    ],
)
def test_dealer_stays_on_draw(mode: str, labels: list[str]) -> None:
    """EMA 2025 3.4.5 ("tenpai") and the other settings of dealer_stays_on_draw."""
    hands = [draw([]), draw([1]), draw([])]
    assert _labels("ema-2025", hands, rules={"dealer_stays_on_draw": mode}) == labels


def test_three_player_bust_ends_the_game() -> None:
    """WDMC 2019 3.0 (2), kept by 5.1: a player below zero ends the game. With three
    players a ron is paid as a non-dealer ron (5.4): a yakuman is 32,000 and busts the
    30,000 start (2.1); a haneman (12,000) twice leaves 6,000 and the game goes on."""
    out = replay(record("wdmc-2019-3p", [ron(2, {"winner": 1, "yakuman": 1})]))
    assert out["ended_by"] == "bust" and out["final"]["scores"] == [30000, 62000, -2000]
    twice = [ron(2, win(1, 6, None)), ron(2, win(1, 6, None))]
    assert replay(record("wdmc-2019-3p", twice))["ended_by"] is None


def test_three_player_noten_dealer_in_south_3_goes_to_west() -> None:
    """WDMC 2019 3.7.1 with 5.1: South 3 is the all-last hand of a 3-player game; a draw
    with the dealer noten goes into West 1, ended by the first non-dealer win."""
    start = [ron((i + 2) % 3, win((i + 1) % 3, 1, 30)) for i in range(5)]
    went_on = replay(record("wdmc-2019-3p", [*start, draw([])]))
    assert went_on["ended_by"] is None and went_on["next"]["round"] == "W1"
    ended = replay(record("wdmc-2019-3p", [*start, draw([]), ron(0, win(1, 1, 30))]))
    assert ended["ended_by"] is not None
