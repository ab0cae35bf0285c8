"""The team event of the team tests (issue 32.1): 16 players in 4 teams over 3 sessions, each
player's total worked out by hand."""

from __future__ import annotations

from typing import Any

from core.models import Player
from tests.factories import UserFactory
from tests.standings.standings_builders import make_players, make_tournament, scores_game
from tournaments import services
from tournaments.models import StaffRole, Tournament
from tournaments.standings.services import recompute_standings

# EMA 2025 3.7: result = score - 30,000 + uma 15,000/5,000/-5,000/-15,000 (no oka). With these
# final scores the places are worth: 1st 45,000 -> +30,000; 2nd 32,000 -> +7,000;
# 3rd 25,000 -> -10,000; 4th 18,000 -> -27,000.
SCORES_BY_PLACE = (45000, 32000, 25000, 18000)

# Who finished where, per session and table: team letters in place order 1st..4th. Table t
# seats A_t, B_t, C_t and D_t (one player of each team: teams kept apart).
FINISH = {
    1: ["ABCD", "ABCD", "ABCD", "ABCD"],
    2: ["BADC", "CDAB", "DCBA", "ABCD"],
    3: ["CBAD", "DABC", "BDCA", "CDAB"],
}

# Each player's total, worked out by hand from FINISH (in thousands):
#   A0 +30 +7 -10 = 27    B0 +7 +30 +7 = 44     C0 -10 -27 +30 = -7   D0 -27 -10 -27 = -64
#   A1 +30 -10 +7 = 27    B1 +7 -27 -10 = -30   C1 -10 +30 -27 = -7   D1 -27 +7 +30 = 10
#   A2 +30 -27 -27 = -24  B2 +7 -10 +30 = 27    C2 -10 +7 -10 = -13   D2 -27 +30 +7 = 10
#   A3 +30 +30 -10 = 50   B3 +7 +7 -27 = -13    C3 -10 -10 +30 = 10   D3 -27 -27 +7 = -47
PLAYER_TOTALS = {
    "A0": 27000, "A1": 27000, "A2": -24000, "A3": 50000,
    "B0": 44000, "B1": -30000, "B2": 27000, "B3": -13000,
    "C0": -7000, "C1": -7000, "C2": -13000, "C3": 10000,
    "D0": -64000, "D1": 10000, "D2": 10000, "D3": -47000,
}  # fmt: skip


def team_event(**settings: Any) -> tuple[Tournament, Any, dict[str, Player]]:
    organiser = UserFactory()
    """The team event, its organiser and its players by name ("A0" .. "D3"); the games are
    finished and the standings computed."""
    tournament = make_tournament("team-cup", sessions_planned=3, teams_enabled=True, **settings)
    StaffRole.objects.create(tournament=tournament, user=organiser, role="organiser")
    players = {}
    for letter in "ABCD":
        for i, player in enumerate(make_players(4, prefix=letter, start=10 * "ABCD".index(letter))):
            player.first_name = f"{letter}{i}"
            player.save()
            players[f"{letter}{i}"] = player
            services.register_player(
                actor=organiser, tournament=tournament, player=player, team=f"Team {letter}"
            )
    for session, tables in FINISH.items():
        for t, order in enumerate(tables):
            seated = [players[f"{letter}{t}"] for letter in "ABCD"]
            scores = [SCORES_BY_PLACE[order.index(letter)] for letter in "ABCD"]
            scores_game(tournament, session, t + 1, seated, scores)
    recompute_standings(tournament_id=tournament.pk)
    tournament.refresh_from_db()
    return tournament, organiser, players
