"""Issue 15 end to end: a two-session EMA 2025 tournament through the services with a
substitute from the start for a player late by more than 10 minutes (EMA 2025 7.2/7.3), a
substitute during a game (7.3) and a paper-sheet chombo (3.4.6); the standings are computed
by hand below."""

from __future__ import annotations

import pytest

from core.errors import ValidationFailed
from scoring.models import Game
from scoring.services import enter_final_scores, finalize_game
from tests.factories import PlayerFactory
from tournaments.models import StandingRow
from tournaments.services import (
    add_penalty,
    close_session,
    create_sessions,
    seat_session,
    start_session,
    substitute_player,
)
from tournaments.standings.services import recompute_standings

pytestmark = pytest.mark.django_db


def _paper(organiser, session, table, scores, chombo=None):
    game = Game.objects.select_related("table__session__tournament").get(
        table__session=session, table__number=table
    )
    game = enter_final_scores(
        actor=organiser, game=game, scores=scores, expected_version=game.version, chombos=chombo
    )
    return finalize_game(actor=organiser, game=game, expected_version=game.version)


def _game(session, table):
    return Game.objects.select_related("table__session__tournament").get(
        table__session=session, table__number=table
    )


def test_two_session_ema_tournament_with_substitutes_and_a_paper_chombo(
    tournament, organiser, registrations
):
    p = [r.player for r in registrations[:8]]
    for r in registrations[8:]:
        r.delete()
    s1, s2 = create_sessions(actor=organiser, tournament=tournament, count=2)
    seat_session(actor=organiser, session=s1, tables=[p[0:4], p[4:8]])
    start_session(actor=organiser, session=s1)
    # P0 is late by more than 10 minutes: no lateness penalty (EMA 2025 7.3) ...
    with pytest.raises(ValidationFailed) as err:
        add_penalty(actor=organiser, tournament=tournament, player=p[0], kind="lateness",
                    minutes_late=11, reason="late", session=s1)  # fmt: skip
    assert err.value.field == "minutes_late"
    # ... a substitute plays from the start and wins with 45,000.
    sub1, sub2 = PlayerFactory(), PlayerFactory()
    substitute_player(actor=organiser, game=_game(s1, 1), seat=0, substitute=sub1,
                      reason="more than 10 minutes late", from_="start")  # fmt: skip
    _paper(organiser, s1, 1, [45000, 30000, 25000, 20000])
    # Table 2: a paper sheet with a chombo by seat 1 (P5): 20,000 after uma (EMA 2025 3.4.6).
    g = _paper(organiser, s1, 2, [40000, 32000, 28000, 20000], chombo=[1])
    assert g.summary["final"]["penalties"] == [0, 20000, 0, 0]
    close_session(actor=organiser, session=s1)

    tables = [[p[0], p[4], p[1], p[5]], [p[2], p[6], p[3], p[7]]]
    seat_session(actor=organiser, session=s2, tables=tables)
    start_session(actor=organiser, session=s2)
    # P1 (seat 2) is replaced during the game (EMA 2025 7.3: "after the beginning").
    substitute_player(actor=organiser, game=_game(s2, 1), seat=2, substitute=sub2,
                      reason="ill", from_="during")  # fmt: skip
    _paper(organiser, s2, 1, [25000, 35000, 40000, 20000])
    _paper(organiser, s2, 2, [30000, 30000, 30000, 30000])
    close_session(actor=organiser, session=s2)
    recompute_standings(tournament_id=tournament.pk)

    # By hand (score - 30,000 + uma 15/5/-5/-15, penalties after uma):
    # S1 T1, substitute from the start wins: P0 -30,000; P1 0+5=5,000; P2 -5-5=-10,000;
    #        P3 -10-15=-25,000.
    # S1 T2: P4 10+15=25,000; P5 2+5-20 (chombo)=-13,000; P6 -2-5=-7,000; P7 -10-15=-25,000.
    # S2 T1, P1 substituted during: the others 15/5/-5 by their scores: P4 5+15=20,000;
    #        P0 -5+5=0; P5 -10-5=-15,000; P1 -30,000.
    # S2 T2: all tied at 30,000: the uma is shared, 0 each (EMA 2025 3.7.1).
    expected = {0: -30000, 1: -25000, 2: -10000, 3: -25000, 4: 45000, 5: -28000, 6: -7000,
                7: -25000}  # fmt: skip
    rows = {r.player_id: r for r in StandingRow.objects.filter(tournament=tournament)}
    assert {i: rows[p[i].pk].total for i in range(8)} == expected
    # Ranks: P4, P6, P2; at -25,000 P1 wins on best game (5,000 vs 0); P3 and P7 tie on best
    # game, firsts (the four-way tie of S2 T2 is first for all) and head to head: shared 5th.
    assert {i: rows[p[i].pk].rank for i in range(8)} == {4: 1, 6: 2, 2: 3, 1: 4, 3: 5, 7: 5,
                                                         5: 7, 0: 8}  # fmt: skip
    # The substituted players get none of the substitute's place or score (EMA 2025 7.3).
    assert rows[p[0].pk].average_placement == 2.0  # only S2 T1, where P0 was 2nd
    assert rows[p[1].pk].average_placement == 2.0  # only S1 T1, 2nd behind the substitute
    # The substitutes are shown, unranked, counting nothing.
    assert rows[sub1.pk].rank is None and rows[sub1.pk].total == 0
    assert rows[sub2.pk].rank is None and rows[sub2.pk].total == 0
