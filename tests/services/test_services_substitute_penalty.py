"""Issue 15, EMA 2025 7.3: "A player who is substituted will score -15,000 points and -15,000
uma at each session": a chombo the substitute makes (EMA 2025 3.4.6) is the substitute's,
shown on their uncounted entry, never deducted from the absent player."""

from __future__ import annotations

import pytest

from scoring.models import Game
from scoring.services import enter_final_scores, enter_hand, finalize_game
from tests.factories import PlayerFactory, chombo, non_dealer_rons
from tournaments.models import StandingRow
from tournaments.services import create_sessions, seat_session, start_session, substitute_player
from tournaments.standings.services import compute_standings, recompute_standings

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("how", ["paper", "hands"])
def test_the_substitutes_chombo_is_not_the_absent_players(
    how, tournament, organiser, registrations
):
    p = [r.player for r in registrations[:4]]
    for r in registrations[4:]:
        r.delete()
    (s1,) = create_sessions(actor=organiser, tournament=tournament, count=1)
    seat_session(actor=organiser, session=s1, tables=[p])
    start_session(actor=organiser, session=s1)
    sub = PlayerFactory()
    game = Game.objects.get(table__session=s1)
    game = substitute_player(actor=organiser, game=game, seat=0, substitute=sub, reason="late",
                             from_="start")  # fmt: skip
    if how == "paper":
        game = enter_final_scores(actor=organiser, game=game, scores=[45000, 30000, 25000, 20000],
                                  expected_version=game.version, chombos=[0])  # fmt: skip
    else:
        for hand in [chombo(offender=0), *non_dealer_rons(8)]:
            game.refresh_from_db()
            game = enter_hand(actor=organiser, game=game, hand=hand,
                              expected_version=game.version).game  # fmt: skip
    game.refresh_from_db()
    game = finalize_game(actor=organiser, game=game, expected_version=game.version)
    assert game.summary["final"]["penalties"][0] == 20000  # the seat's chombo (EMA 2025 3.4.6)
    recompute_standings(tournament_id=tournament.pk)
    absent = StandingRow.objects.get(tournament=tournament, player=p[0])
    assert absent.total == -30000 and absent.all_penalties == 0  # EMA 2025 7.3
    stand_in = StandingRow.objects.get(tournament=tournament, player=sub)
    assert stand_in.rank is None and stand_in.total == 0
    assert stand_in.per_session[0]["as_substitute"] and stand_in.per_session[0]["penalty"] == 20000
    fresh = {r.player_id: r.total for r in compute_standings(tournament)}
    assert fresh[p[0].pk] == -30000
