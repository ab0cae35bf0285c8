"""Standings: totals, penalties, substitutes, dropped players, tie-breaks (docs/standings.md)."""

import pytest
from django.utils import timezone
from standings_builders import (
    hands_game,
    make_players,
    make_tournament,
    register,
    ron,
    scores_game,
)

from tournaments.models import Penalty, StandingRow
from tournaments.standings.exports import standings_csv, thousands
from tournaments.standings.ranking import Rankable, rank_players, tie_breaks_of
from tournaments.standings.selectors import standings_for
from tournaments.standings.services import recompute_standings

pytestmark = pytest.mark.django_db


def _by_name(tournament):
    return {row.player.first_name: row for row in standings_for(tournament)}


def test_total_is_sum_of_game_results_after_uma_and_oka():
    # EMA 2025 3.7: score - 30,000 + uma (15/5/-5/-15); no oka under EMA.
    t = make_tournament()
    a, b, c, d = make_players(4)
    register(t, [a, b, c, d])
    scores_game(t, 1, 1, [a, b, c, d], [45000, 32000, 25000, 18000])
    scores_game(t, 2, 1, [b, c, d, a], [40000, 30000, 30000, 20000])
    recompute_standings(tournament_id=t.pk)
    rows = _by_name(t)
    # a: (45-30+15) + (20-30-15) = 30 - 25 = 5
    assert rows["P0"].total == 5000
    # b: (32-30+5) + (40-30+15) = 7 + 25 = 32
    assert rows["P1"].total == 32000
    # c: (25-30-5) + tie 2nd/3rd with d: 0 uma each (EMA 2025 3.7.1) -> -10 + 0
    assert rows["P2"].total == -10000
    assert rows["P3"].total == (18000 - 30000 - 15000) + 0
    assert [rows[n].rank for n in ("P1", "P0", "P2", "P3")] == [1, 2, 3, 4]
    assert rows["P0"].games == 2
    assert rows["P0"].average_placement == 2.5
    assert [e["session"] for e in rows["P0"].per_session] == [1, 2]


def test_active_penalties_subtract_and_cancelled_do_not():
    # EMA 2025 7.2: lateness points are deducted from the tournament score after uma.
    t = make_tournament()
    players = make_players(4)
    register(t, players)
    scores_game(t, 1, 1, players, [30000, 30000, 30000, 30000])
    Penalty.objects.create(
        tournament=t,
        player=players[0],
        kind="lateness",
        points=3000,
        minutes_late=3,
        reason="3 minutes late",
    )
    Penalty.objects.create(
        tournament=t,
        player=players[0],
        kind="other",
        points=8000,
        reason="x",
        cancelled_at=timezone.now(),
        cancel_reason="appeal",
    )
    recompute_standings(tournament_id=t.pk)
    row = _by_name(t)["P0"]
    assert row.penalties == 3000
    assert row.total == 0 - 3000
    assert row.rank == 4


def test_in_game_chombo_is_in_the_game_result():
    # EMA 2025 3.4.6 / 6.1.4: a chombo costs 20,000 after uma and does not change table ranks.
    t = make_tournament()
    players = make_players(4)
    register(t, players)
    chombo = {"outcome": "chombo", "offender": 2, "riichi": []}
    hands_game(t, 1, 1, players, [chombo, ron(0, 1, 3)])
    recompute_standings(tournament_id=t.pk)
    rows = _by_name(t)
    # 3 han 30 fu non-dealer? seat 0 is dealer in E1: 5800 from seat 1.
    assert rows["P0"].total == 35800 - 30000 + 15000
    assert rows["P2"].total == 0 + 0 - 20000  # 30,000 ties with seat 3 for 2nd/3rd: uma 0
    assert rows["P2"].per_session[0]["place"] == 2


def test_substitutes_are_shown_but_not_ranked_and_dropped_players_marked():
    t = make_tournament()
    a, b, c, d, s = make_players(5)
    register(t, [a, b, c, d])
    register(t, [s], is_substitute=True)
    reg = t.registrations.get(player=d)
    reg.dropped_at = timezone.now()
    reg.save()
    scores_game(t, 1, 1, [a, b, c, s], [50000, 30000, 25000, 15000])
    recompute_standings(tournament_id=t.pk)
    rows = _by_name(t)
    assert rows["P4"].rank is None and rows["P4"].is_substitute
    assert rows["P4"].games == 1
    assert [rows[n].rank for n in ("P0", "P1", "P2", "P3")] == [1, 2, 4, 3]
    assert rows["P3"].dropped and rows["P3"].games == 0
    ordered = [r.player.first_name for r in standings_for(t)]
    assert ordered[-1] == "P4"  # unranked after the ranked ones


def test_substituted_seat_is_credited_to_the_absent_player():
    # EMA 2025 7.3: the substituted player scores -15,000 and -15,000 uma.
    t = make_tournament()
    a, b, c, d, s = make_players(5)
    register(t, [a, b, c, d])
    register(t, [s], is_substitute=True)
    scores_game(
        t,
        1,
        1,
        [a, b, c, d],
        [20000, 30000, 30000, 40000],
        substitutes=[{"seat": 3, "from": "during"}],
        sitters=[a, b, c, s],
    )
    recompute_standings(tournament_id=t.pk)
    rows = _by_name(t)
    assert rows["P3"].total == -30000 and rows["P3"].games == 1
    assert rows["P4"].total == 0 and rows["P4"].games == 0
    assert rows["P4"].per_session[0]["as_substitute"] is True
    # During the game: the others take 1st-3rd among themselves (15/5/-5 uma).
    assert rows["P1"].total == rows["P2"].total == 0 + (15000 + 5000) // 2


def test_substituted_from_the_start_gets_none_of_the_substitutes_score_or_place():
    """EMA 2025 7.3 (issue 15): "A player who is substituted will score -15,000 points and
    -15,000 uma at each session": the substitute's 45,000 and first place are not theirs; the
    substitute's score still places the opponents ("they will receive 5,000, -5,000 and
    -15,000 points")."""
    t = make_tournament(tie_breaks=["most_firsts", "total_table_score", "best_game"])
    a, b, c, d, s = make_players(5)
    register(t, [a, b, c, d])
    register(t, [s], is_substitute=True)
    scores_game(
        t,
        1,
        1,
        [a, b, c, d],
        [45000, 30000, 25000, 20000],
        substitutes=[{"seat": 0, "from": "start"}],
        sitters=[s, b, c, d],
    )
    scores_game(t, 2, 1, [a, b, c, d], [40000, 30000, 30000, 20000])
    recompute_standings(tournament_id=t.pk)
    rows = _by_name(t)
    # a: session 1 substituted (-30,000), session 2 first: 40-30+15 = +25,000.
    assert rows["P0"].total == -30000 + 25000
    assert rows["P0"].games == 2
    assert rows["P0"].average_placement == 1.0  # only the session a played
    first = rows["P0"].per_session[0]
    assert first["substituted"] is True and first["place"] is None and first["score"] is None
    assert rows["P0"].tie_break_values == [1, 40000, 25000]  # firsts, table score, best game
    # b, c, d in session 1: 2nd, 3rd, 4th behind the substitute (5 / -5 / -15 uma).
    assert rows["P1"].per_session[0]["place"] == 2
    assert rows["P1"].total == (30000 - 30000 + 5000) + 0  # session 2: tie 2nd/3rd, 0 uma
    assert rows["P3"].total == (20000 - 30000 - 15000) + (20000 - 30000 - 15000)
    # The substitute: shown, unranked, nothing counted.
    assert rows["P4"].rank is None and rows["P4"].games == 0 and rows["P4"].total == 0
    assert rows["P4"].per_session[0]["as_substitute"] is True
    assert rows["P4"].per_session[0]["place"] == 1


def test_substituted_during_the_game_the_others_take_first_to_third():
    """EMA 2025 7.3: after the game began "they will always receive -15,000 points uma, and
    the other players will receive 15,000, 5,000 and -5,000 points": places 1-3 go with it."""
    t = make_tournament()
    a, b, c, d, s = make_players(5)
    register(t, [a, b, c, d])
    register(t, [s], is_substitute=True)
    scores_game(
        t,
        1,
        1,
        [a, b, c, d],
        [45000, 30000, 25000, 20000],
        substitutes=[{"seat": 0, "from": "during"}],
        sitters=[s, b, c, d],
    )
    recompute_standings(tournament_id=t.pk)
    rows = _by_name(t)
    assert rows["P0"].total == -30000 and rows["P0"].average_placement is None
    assert rows["P1"].per_session[0]["place"] == 1 and rows["P1"].total == 15000
    assert rows["P2"].per_session[0]["place"] == 2 and rows["P2"].total == 25000 - 30000 + 5000
    assert rows["P3"].per_session[0]["place"] == 3 and rows["P3"].total == 20000 - 30000 - 5000
    assert [rows[n].rank for n in ("P1", "P2", "P3", "P0")] == [1, 2, 3, 4]


def test_ties_share_a_rank_when_no_tie_break_separates():
    t = make_tournament(tie_breaks=["most_firsts"])
    players = make_players(4)
    register(t, players)
    scores_game(t, 1, 1, players, [30000, 30000, 30000, 30000])
    recompute_standings(tournament_id=t.pk)
    assert {r.rank for r in standings_for(t)} == {1}


def test_tie_break_best_game_separates_equal_totals():
    t = make_tournament(tie_breaks=["best_game", "head_to_head"])
    a, b, c, d, e, f, g, h = make_players(8)
    register(t, [a, b, c, d, e, f, g, h])
    scores_game(t, 1, 1, [a, b, c, d], [45000, 35000, 22000, 18000])  # a +30
    scores_game(t, 1, 2, [e, f, g, h], [40000, 35000, 25000, 20000])  # e +25
    scores_game(t, 2, 1, [a, f, c, h], [25000, 40000, 31000, 24000])  # a 3rd: -10
    scores_game(t, 2, 2, [e, b, g, d], [30000, 40000, 31000, 19000])  # e 3rd: -5
    recompute_standings(tournament_id=t.pk)
    rows = _by_name(t)
    assert rows["P0"].total == rows["P4"].total == 20000
    assert rows["P0"].rank < rows["P4"].rank
    assert rows["P0"].tie_break_values == [30000, 0]


def test_tie_break_head_to_head_between_tied_players():
    t = make_tournament(tie_breaks=["head_to_head"])
    a, b, c, d, e, f, g, h = make_players(8)
    register(t, [a, b, c, d, e, f, g, h])
    scores_game(t, 1, 1, [a, b, c, d], [40000, 30000, 30000, 20000])  # a +25 above b (0)
    scores_game(t, 1, 2, [e, f, g, h], [25000, 25000, 35000, 35000])
    scores_game(t, 2, 1, [a, e, f, g], [30000, 40000, 30000, 20000])  # a 0
    scores_game(t, 2, 2, [b, c, d, h], [40000, 30000, 30000, 20000])  # b +25
    recompute_standings(tournament_id=t.pk)
    rows = _by_name(t)
    assert rows["P0"].total == rows["P1"].total == 25000
    assert (rows["P0"].rank, rows["P1"].rank) == (1, 2)
    assert (rows["P0"].tie_break_values, rows["P1"].tie_break_values) == ([1], [-1])
    ranked = rank_players(
        [Rankable(1, 100, {}), Rankable(2, 100, {}), Rankable(3, 50, {})],
        ["head_to_head"],
        lambda ids: {1: [{"game": 9, "place": 3}], 2: [{"game": 9, "place": 1}], 3: []},
    )
    assert (ranked[2].rank, ranked[1].rank, ranked[3].rank) == (1, 2, 3)


def test_shared_rank_after_all_tie_breaks():
    t = make_tournament(tie_breaks=["best_game", "most_firsts"])
    a, b, c, d = make_players(4)
    register(t, [a, b, c, d])
    scores_game(t, 1, 1, [a, b, c, d], [40000, 30000, 30000, 20000])  # a +25, b 0, c 0, d -25
    scores_game(t, 2, 1, [b, a, d, c], [40000, 30000, 30000, 20000])  # b +25, a 0, d 0, c -25
    recompute_standings(tournament_id=t.pk)
    rows = _by_name(t)
    assert rows["P0"].total == rows["P1"].total == 25000
    assert rows["P0"].rank == rows["P1"].rank == 1  # same best game, same firsts: shared
    assert rows["P0"].tie_break_values == [25000, 1]
    assert rows["P2"].total == rows["P3"].total == -25000
    assert rows["P2"].rank == rows["P3"].rank == 3


def test_unknown_tie_break_is_an_error():
    with pytest.raises(ValueError, match="unknown tie-break"):
        tie_breaks_of(["coin_flip"])


def test_recompute_is_idempotent_and_csv_lists_sessions():
    t = make_tournament()
    players = make_players(4)
    register(t, players)
    scores_game(t, 1, 1, players, [45300, 30000, 25000, 19700])
    recompute_standings(tournament_id=t.pk)
    first = list(StandingRow.objects.values("player_id", "rank", "total", "per_session"))
    recompute_standings(tournament_id=t.pk)
    assert list(StandingRow.objects.values("player_id", "rank", "total", "per_session")) == first
    text = standings_csv(t)
    header, top = text.splitlines()[:2]
    assert '"Session 1"' in header
    # Issue 18: points as the standings page shows them (not 30.3 beside 30300).
    assert top.startswith('"1","P0","Player000","04000000","DE","30300"')
    assert thousands(-2500) == "-2.5" and thousands(333) == "0.333" and thousands(0) == "0"
