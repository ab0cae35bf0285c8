"""Issue 32.3 with the other formats of issue 32: hidden standings are the standings as they
stood before the hidden session, cuts (32.2) and team standings (32.1) included, through the
one selector (`public_standings`)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from tests.factories import PenaltyFactory
from tests.standings.team_event import FINISH, PLAYER_TOTALS, SCORES_BY_PLACE, team_event
from tests.standings.test_standings_cuts import _first_two_sessions, _organiser, _play
from tournaments.models import StandingRow, Team, Tournament
from tournaments.services import update_tournament
from tournaments.standings.selectors import public_standings
from tournaments.standings.services import recompute_standings

pytestmark = pytest.mark.django_db

# EMA 2025 3.7: the result of each place with SCORES_BY_PLACE (score - 30,000 + uma).
RESULT_BY_PLACE = [
    s - 30000 + u for s, u in zip(SCORES_BY_PLACE, (15000, 5000, -5000, -15000), strict=True)
]


def _stored(tournament: Tournament) -> dict[int, tuple[Any, ...]]:
    return {
        r.player_id: (r.rank, r.total, r.games, r.qualified, r.out_after_session)
        for r in StandingRow.objects.filter(tournament=tournament)
    }


def test_after_a_cut_the_hidden_final_shows_the_standings_at_the_cut() -> None:
    tournament, _players = _first_two_sessions()
    client = _organiser(tournament)
    answer = client.post(
        f"/api/v1/tournaments/{tournament.slug}/cut/",
        {"after_session": 2, "top": 16},
        format="json",
    )
    assert answer.status_code in (200, 201), answer.content
    recompute_standings(tournament_id=tournament.pk)
    before_final = _stored(tournament)
    _play(tournament, 3)  # the final session, then hidden from 3
    assert _stored(tournament) != before_final
    tournament.refresh_from_db()
    organiser = tournament.staff.get().user
    update_tournament(actor=organiser, tournament=tournament, standings_hidden_from=3)
    tournament.refresh_from_db()
    public = public_standings(tournament)
    assert {
        r.player_id: (r.rank, r.total, r.games, r.qualified, r.out_after_session)
        for r in public.rows
    } == before_final
    # The finalists first, as the stored rows put them.
    assert [r.qualified for r in public.rows] == [True] * 16 + [False] * 16
    rows = APIClient().get(f"/api/v1/tournaments/{tournament.slug}/standings/").json()
    assert {r["player"]["id"]: (r["rank"], r["total"]) for r in rows} == {
        pid: values[:2] for pid, values in before_final.items()
    }


def test_team_standings_are_hidden_with_the_players() -> None:
    tournament, organiser, players = team_event(status="running")
    update_tournament(actor=organiser, tournament=tournament, standings_hidden_from=3)
    tournament.refresh_from_db()
    # Each player's total after sessions 1 and 2, from the places in FINISH.
    before = {
        name: sum(
            RESULT_BY_PLACE[FINISH[session][int(name[1])].index(name[0])] for session in (1, 2)
        )
        for name in players
    }
    assert before["A0"] == 37000 and before["D0"] == -37000  # 30+7, -27-10 (in thousands)
    client = APIClient()
    url = f"/api/v1/tournaments/{tournament.slug}/team-standings/"
    answer = client.get(url)
    assert answer.status_code == 200, answer.content
    teams = {row["team"]: row["total"] for row in answer.json()}
    assert teams == {
        f"Team {letter}": sum(before[f"{letter}{i}"] for i in range(4)) for letter in "ABCD"
    }
    # A hidden penalty changes the stored rows, not the public answer nor its ETag.
    PenaltyFactory(
        tournament=tournament,
        player=players["A3"],
        session=tournament.sessions.get(number=3),
        points=5000,
    )
    recompute_standings(tournament_id=tournament.pk)
    assert client.get(url, HTTP_IF_NONE_MATCH=answer["ETag"]).status_code == 304
    csv_text = client.get(url + "?format=csv").content.decode()
    assert str(teams["Team A"]) in csv_text


def test_team_pages_hide_the_hidden_session() -> None:
    tournament, organiser, _players = team_event(status="running")
    update_tournament(actor=organiser, tournament=tournament, standings_hidden_from=3)
    client = Client()
    team = Team.objects.get(tournament=tournament, name="Team A")
    page = client.get(f"/t/{tournament.slug}/teams/{team.slug}/").content.decode()
    # Its four members' session-3 games: shown, their place and result hidden.
    assert page.count('<span class="muted">hidden</span>') == 4
    real = sum(PLAYER_TOTALS[f"A{i}"] for i in range(4))
    before = sum(RESULT_BY_PLACE[FINISH[s][i].index("A")] for s in (1, 2) for i in range(4))
    assert real != before
    for url in (
        f"/t/{tournament.slug}/standings/teams/",
        f"/t/{tournament.slug}/standings/teams/projector/",
        f"/t/{tournament.slug}/team-standings.csv",
    ):
        body = client.get(url).content.decode()
        assert re.search(rf"(?<!\d){before}(?!\d)", body), url
        assert not re.search(rf"(?<!\d){real}(?!\d)", body), url
    # The staff see the public's page, and the hidden results only in their preview.
    staff = Client()
    staff.force_login(organiser)
    team_page = f"/t/{tournament.slug}/teams/{team.slug}/"
    assert staff.get(team_page).content.decode().count('<span class="muted">hidden</span>') == 4
    assert "hidden</span>" not in staff.get(team_page + "?preview=1").content.decode()
