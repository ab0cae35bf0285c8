"""Team standings (issue 32.1, docs/teams.md): a team event of 16 players in 4 teams over 3
sessions, the team totals worked out by hand below, all members or the best N counted."""

from __future__ import annotations

import json

import pytest

from core.errors import ValidationFailed
from core.models import AuditEntry
from tests.standings.team_event import PLAYER_TOTALS, team_event
from tournaments import services
from tournaments.backup import export_tournament, import_tournament
from tournaments.models import Registration, Team, Tournament
from tournaments.standings.exports import team_standings_csv
from tournaments.standings.selectors import standings_for
from tournaments.standings.services import recompute_standings
from tournaments.standings.teams import team_standings

pytestmark = pytest.mark.django_db


def _by_team(tournament):
    return {row.name: row for row in team_standings(tournament)}


def test_player_totals_are_as_worked_out_by_hand():
    tournament, _, _ = team_event()
    totals = {row.player.first_name: row.total for row in standings_for(tournament)}
    assert totals == PLAYER_TOTALS


def test_team_total_is_the_sum_of_all_members():
    tournament, _, _ = team_event()
    rows = team_standings(tournament)
    # A: 27 + 27 - 24 + 50 = 80; B: 44 - 30 + 27 - 13 = 28; C: -7 - 7 - 13 + 10 = -17;
    # D: -64 + 10 + 10 - 47 = -91 (the four add up to 0, as the players' totals do).
    assert [(r.rank, r.name, r.total) for r in rows] == [
        (1, "Team A", 80000),
        (2, "Team B", 28000),
        (3, "Team C", -17000),
        (4, "Team D", -91000),
    ]
    assert all(len(r.members) == 4 and all(m.counted for m in r.members) for r in rows)
    # 3 sessions x 4 members = 12 games per team.
    assert {r.games for r in rows} == {12}


def test_best_two_members_count():
    tournament, _, _ = team_event(team_counted_members=2)
    rows = team_standings(tournament)
    # A: 50 + 27 = 77; B: 44 + 27 = 71; C: 10 - 7 = 3; D: 10 + 10 = 20 (D passes C).
    assert [(r.rank, r.name, r.total) for r in rows] == [
        (1, "Team A", 77000),
        (2, "Team B", 71000),
        (3, "Team D", 20000),
        (4, "Team C", 3000),
    ]
    counted = {r.name: sorted(m.name.split()[0] for m in r.counted) for r in rows}
    assert counted["Team B"] == ["B0", "B2"]
    assert counted["Team D"] == ["D1", "D2"]
    assert sorted(m.name.split()[0] for m in _by_team(tournament)["Team A"].counted)[-1] == "A3"


def test_best_one_member_tie_is_broken_by_the_tie_breaks():
    # Best 1: A 50, B 44, C 10 (C3), D 10 (D1 and D2 tie; D1, registered first, counts).
    # C3 placed 3rd, 3rd, 1st; D1 4th, 2nd, 1st: equal on best game (+30) and first places
    # (1), never at one table (no head to head): tied under the default tie-breaks.
    tournament, _, _ = team_event(team_counted_members=1)
    rows = team_standings(tournament)
    assert [(r.rank, r.name, r.total) for r in rows] == [
        (1, "Team A", 50000),
        (2, "Team B", 44000),
        (3, "Team C", 10000),
        (3, "Team D", 10000),
    ]
    # With fewest last places first: C3 has none, D1 one, so C is 3rd and D 4th.
    tournament.tie_breaks = ["fewest_lasts", "best_game"]
    tournament.save()
    rows = team_standings(tournament)
    assert [(r.rank, r.name) for r in rows][2:] == [(3, "Team C"), (4, "Team D")]
    assert rows[2].tie_break_values == [0, 30000]
    assert rows[3].tie_break_values == [1, 30000]


def test_disqualified_members_do_not_count():
    tournament, organiser, players = team_event()
    # A3 (+50) disqualified (EMA 2025 6.12: shown, not ranked): team A is 27 + 27 - 24 = 30.
    registration = Registration.objects.get(tournament=tournament, player=players["A3"])
    services.disqualify_player(actor=organiser, registration=registration, reason="cheating")
    recompute_standings(tournament_id=tournament.pk)
    tournament.refresh_from_db()
    team_a = _by_team(tournament)["Team A"]
    assert team_a.total == 30000
    assert [m.counted for m in team_a.members if m.name.startswith("A3")] == [False]


def test_team_settings_through_the_service_renew_the_standings_version():
    tournament, organiser, _ = team_event()
    before = tournament.standings_version
    services.update_tournament(actor=organiser, tournament=tournament, team_counted_members=3)
    tournament.refresh_from_db()
    assert tournament.team_counted_members == 3
    assert tournament.standings_version != before
    # Best 3 of A: 50 + 27 + 27 = 104.
    assert _by_team(tournament)["Team A"].total == 104000


def test_moving_a_player_to_another_team_and_empty_teams_go():
    tournament, organiser, players = team_event()
    registration = Registration.objects.get(tournament=tournament, player=players["D0"])
    services.update_registration(actor=organiser, registration=registration, team="team a")
    assert Registration.objects.get(pk=registration.pk).team.name == "Team A"  # case ignored
    # A: 80 - 64 = 16; D: -91 + 64 = -27.
    rows = _by_team(tournament)
    assert (rows["Team A"].total, rows["Team D"].total) == (16000, -27000)
    for name in ("D1", "D2", "D3"):
        r = Registration.objects.get(tournament=tournament, player=players[name])
        services.update_registration(actor=organiser, registration=r, team="")
    assert not Team.objects.filter(tournament=tournament, name="Team D").exists()


def test_team_standings_csv_rows():
    tournament, _, _ = team_event(team_counted_members=2)
    lines = team_standings_csv(tournament).splitlines()
    assert lines[0] == (
        '"Rank","Team","Total","Games","Best game","Most firsts","Head to head",'
        '"Counted members","Other members"'
    )
    assert lines[3].startswith('"3","Team D","20000","6",')
    assert '"D1 Player031 (10000); D2 Player032 (10000)"' in lines[3]


def test_no_team_standings_unless_enabled():
    tournament, _, _ = team_event()
    tournament.teams_enabled = False
    tournament.save()
    assert team_standings(tournament) == []


def test_team_names_are_checked():
    tournament, organiser, players = team_event()
    registration = Registration.objects.get(tournament=tournament, player=players["A0"])
    with pytest.raises(ValidationFailed) as caught:
        services.update_registration(actor=organiser, registration=registration, team="x" * 101)
    assert caught.value.field == "team"


def test_a_backup_keeps_the_teams():
    tournament, _, _ = team_event(team_counted_members=2)
    document = json.loads(json.dumps(export_tournament(tournament), sort_keys=True))
    assert sorted(t["name"] for t in document["teams"]) == ["Team A", "Team B", "Team C", "Team D"]
    AuditEntry.objects.all().delete()
    Tournament.objects.all().delete()  # its teams and registrations go with it
    imported = import_tournament(document)
    rows = team_standings(imported)
    # Best two, as before the backup: A 77,000, B 71,000, D 20,000, C 3,000.
    assert [(r.name, r.total) for r in rows] == [
        ("Team A", 77000),
        ("Team B", 71000),
        ("Team D", 20000),
        ("Team C", 3000),
    ]
