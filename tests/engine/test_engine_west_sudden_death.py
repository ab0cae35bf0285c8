"""WDMC 2019 3.7.1: after a noten South-4 draw the game goes into West 1 and ends as soon as a
player other than the dealer wins (rules key ``west_sudden_death``, scoring/engine/README.md).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from engine_support import draw, record, ron, tsumo, win

from scoring.engine import PRESETS, RecordError, RulesError, load_ruleset, preview_hand, replay
from scoring.engine.randgame import random_record

# WDMC 2019 3.7.1: the West 1 sudden death (rules key west_sudden_death).


def _to_south4(players: int = 4) -> list[dict[str, Any]]:
    """E1 .. the hand before the all-last, each won by the seat after the dealer for 1,000."""
    n = 2 * players - 1
    return [ron((i + 2) % players, win((i + 1) % players, 1, 30)) for i in range(n)]


def _rounds(out: dict[str, Any]) -> list[str]:
    return [f"{h['round']}-{h['honba']}" for h in out["hands"]]


def test_noten_dealer_draw_in_south_4_goes_into_west_1() -> None:
    """WDMC 2019 3.7.1: "If during South 4 the Hand ends in a draw and the Dealer is not in
    Tenpai, the game goes into a West 1 Hand" (dealt by the next seat)."""
    out = replay(record("wdmc-2019", [*_to_south4(), draw([0])]))
    assert out["hands"][-1]["round"] == "S4"
    assert out["ended_by"] is None and out["final"] is None
    assert out["next"] == {"round": "W1", "honba": 1, "riichi_sticks": 0, "dealer": 0}
    # All four noten: no payment, still West 1.
    assert replay(record("wdmc-2019", [*_to_south4(), draw([])]))["next"]["round"] == "W1"


def test_noten_dealer_draw_in_a_south_4_bonus_hand_goes_into_west_1() -> None:
    """WDMC 2019 3.7.1: a South 4 bonus hand (after a dealer win) is still South 4."""
    hands = [*_to_south4(), tsumo(win(3, 1, 30)), draw([1])]
    out = replay(record("wdmc-2019", hands))
    assert _rounds(out)[-2:] == ["S4-0", "S4-1"]
    assert out["ended_by"] is None and out["next"]["round"] == "W1"


def test_three_player_rules_keep_the_west_round() -> None:
    """WDMC 2019 5.1: three-player rules are the four-player ones save section 5, which says
    nothing on the end of the game, so South 3 (the all-last) noten draw goes into West 1."""
    out = replay(record("wdmc-2019-3p", [*_to_south4(3), draw([])]))
    assert out["hands"][-1]["round"] == "S3"
    assert out["ended_by"] is None and out["next"]["round"] == "W1"
    won = replay(record("wdmc-2019-3p", [*_to_south4(3), draw([]), tsumo(win(1, 1, 30))]))
    assert won["ended_by"] == "west" and won["next"] is None


def test_dealer_win_in_the_west_round_goes_on() -> None:
    """WDMC 2019 3.7.1 / 3.7.2: a dealer win in West 1 is a bonus hand, the game goes on."""
    hands = [*_to_south4(), draw([]), tsumo(win(0, 1, 30)), ron(2, win(0, 2, 30))]
    out = replay(record("wdmc-2019", hands))
    assert _rounds(out)[-3:] == ["S4-0", "W1-1", "W1-2"]
    assert out["ended_by"] is None
    assert out["next"] == {"round": "W1", "honba": 3, "riichi_sticks": 0, "dealer": 0}


def test_draws_in_the_west_round_go_on() -> None:
    """WDMC 2019 3.6 / 3.7.1: a tenpai dealer keeps the deal, a noten dealer passes it."""
    hands = [*_to_south4(), draw([]), draw([0]), draw([1])]
    out = replay(record("wdmc-2019", hands))
    assert _rounds(out)[-2:] == ["W1-1", "W1-2"]
    assert out["ended_by"] is None and out["next"]["round"] == "W2"


@pytest.mark.parametrize(
    "ending",
    [
        ron(2, win(1, 1, 30)),  # a non-dealer ron
        ron(0, win(3, 1, 30)),  # off the dealer
        tsumo(win(2, 1, 30)),  # a non-dealer tsumo
        ron(1, win(0, 1, 30), win(2, 1, 30)),  # a double ron with the dealer among the winners
    ],
)
def test_non_dealer_win_in_the_west_round_ends_the_game(ending: dict[str, Any]) -> None:
    """WDMC 2019 3.7.1: "The game will keep going until a player besides the Dealer wins."""
    hands = [*_to_south4(), draw([]), tsumo(win(0, 1, 30)), ending]
    out = replay(record("wdmc-2019", hands))
    assert out["hands"][-1]["round"] == "W1"
    assert out["ended_by"] == "west" and out["next"] is None
    assert out["final"] is not None and sum(out["final"]["scores"]) == 120000


def test_non_dealer_win_later_in_the_west_round_ends_the_game() -> None:
    """WDMC 2019 3.7.1: in West 2 (after a noten West-1 draw) the same holds."""
    hands = [*_to_south4(), draw([]), draw([]), ron(3, win(2, 1, 30))]
    out = replay(record("wdmc-2019", hands))
    assert out["hands"][-1]["round"] == "W2"
    assert out["ended_by"] == "west"


def test_game_ends_after_west_4() -> None:
    """WDMC 2019 3.7.1, chosen: the text names only a west round, so it ends after West 4."""
    hands = [*_to_south4(), draw([]), draw([]), draw([]), draw([])]
    out = replay(record("wdmc-2019", hands))
    assert out["ended_by"] is None and out["next"]["round"] == "W4"
    done = replay(record("wdmc-2019", [*hands, draw([])]))
    assert done["hands"][-1]["round"] == "W4"
    assert done["ended_by"] == "west4" and done["next"] is None
    # A tenpai West-4 dealer (not top, so no 3.7.2 stop) keeps the deal: the game goes on.
    assert replay(record("wdmc-2019", [*hands, draw([1, 3])]))["next"]["round"] == "W4"


def test_hand_after_the_sudden_death_win_is_rejected() -> None:
    """WDMC 2019 3.7.1: nothing is played after the non-dealer win in the west round."""
    hands = [*_to_south4(), draw([]), ron(2, win(1, 1, 30))]
    with pytest.raises(RecordError) as err:
        replay(record("wdmc-2019", [*hands, draw([])]))
    assert (err.value.hand, err.value.field) == (len(hands), "outcome")
    assert "west" in str(err.value)
    with pytest.raises(RecordError) as err:
        preview_hand(record("wdmc-2019", hands), draw([]))
    assert (err.value.hand, err.value.field) == (len(hands), "outcome")


def test_tenpai_dealer_draw_in_south_4_is_a_bonus_hand() -> None:
    """WDMC 2019 3.6: a tenpai dealer keeps South 4, as before (seat 1 stays top, so the
    3.7.2 stop does not apply)."""
    out = replay(record("wdmc-2019", [*_to_south4(), draw([1, 3])]))
    assert out["ended_by"] is None
    assert out["next"] == {"round": "S4", "honba": 1, "riichi_sticks": 0, "dealer": 3}


@pytest.mark.parametrize(
    "ending", [ron(0, win(1, 1, 30)), tsumo(win(2, 1, 30)), ron(3, win(0, 1, 30))]
)
def test_south_4_won_by_a_non_dealer_ends_the_game(ending: dict[str, Any]) -> None:
    """WDMC 2019 3.0: a non-dealer win in South 4 ends the game, as before."""
    out = replay(record("wdmc-2019", [*_to_south4(), ending]))
    assert out["ended_by"] == "south4" and out["next"] is None


def test_abortive_draw_in_south_4_repeats_it() -> None:
    """WDMC 2019 3.8: a null hand keeps South 4 (it is not a noten draw)."""
    out = replay(record("wdmc-2019", [*_to_south4(), {"outcome": "abortive", "riichi": []}]))
    assert out["next"]["round"] == "S4"


@pytest.mark.parametrize("preset", sorted(p for p in PRESETS if not p.startswith("wdmc")))
def test_other_presets_are_unchanged(preset: str) -> None:
    """Only the WDMC presets play the rule; a noten South-4 draw ends the others as before."""
    rules = PRESETS[preset]
    assert rules.west_sudden_death == "none"
    players = rules.players
    hands = [*_to_south4(players), draw([])]
    out = replay(record(preset, hands))
    if rules.west_round:  # Tenhou's own west round: nobody has 30,000 out of 25,000 starts
        assert out["ended_by"] is None and out["next"]["round"] == "W1"
        won = replay(record(preset, [*hands, ron(2, win(1, 1, 30))]))
        assert won["ended_by"] is None  # still nobody at the return points
    else:
        assert out["ended_by"] == f"south{players}"


@pytest.mark.parametrize("preset", sorted(p for p in PRESETS if not p.startswith("wdmc")))
@pytest.mark.parametrize("seed", range(15))
def test_other_presets_replay_as_with_the_rule_switched_off(preset: str, seed: int) -> None:
    """Random records of every other preset replay identically with the key explicitly off."""
    rec = random_record(random.Random(seed), preset)
    plain = replay(rec)
    overrides = {"west_sudden_death": "none"}
    assert replay({**rec, "rules": overrides}) == plain


def test_the_rule_is_a_rules_key() -> None:
    """WDMC 2019 3.7.1 as an override: on for EMA, off for WDMC, booleans refused."""
    ema_on = replay(
        record("ema-2025", [*_to_south4(), draw([])], rules={"west_sudden_death": "wdmc"})
    )
    assert ema_on["next"]["round"] == "W1"
    # west_round keeps its boolean meaning next to the new key.
    assert load_ruleset("wdmc-2019", {"west_round": True}).west_sudden_death == "wdmc"
    with pytest.raises(RulesError) as err:
        load_ruleset("wdmc-2019", {"west_sudden_death": True})
    assert err.value.field == "rules.west_sudden_death"
    with pytest.raises(RulesError):
        load_ruleset("wdmc-2019", {"west_round": "wdmc"})
