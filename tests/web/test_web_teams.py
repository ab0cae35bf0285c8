"""A team event's pages (issue 32.1): the Teams tab of the standings, the projector, the CSV
download, the results PDF, a team's page, and the console's team settings and team field."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tests.standings.team_event import team_event
from tests.web.test_web_pdf import pdf_text
from tournaments.models import Registration, Team, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def event() -> tuple[Tournament, Any, dict[str, Any]]:
    tournament, organiser, players = team_event(team_counted_members=2)
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.RUNNING)
    tournament.refresh_from_db()
    return tournament, organiser, players


def _organiser(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_standings_page_has_a_teams_tab(event) -> None:
    tournament, _, _ = event
    page = Client().get(reverse("tournaments:standings", args=[tournament.slug])).content.decode()
    assert reverse("tournaments:team_standings", args=[tournament.slug]) in page
    teams = Client().get(reverse("tournaments:team_standings", args=[tournament.slug]))
    assert teams.status_code == 200
    html = teams.content.decode()
    # Best two members: A 77,000, B 71,000, D 20,000, C 3,000, in that order.
    positions = [html.index(f">{name}</a>") for name in ("Team A", "Team B", "Team D", "Team C")]
    assert positions == sorted(positions)
    for total in ("77000", "71000", "20000", "3000"):
        assert f'<td class="num">{total}</td>' in html
    assert 'aria-current="page">Teams' in html
    # The polling request gets the table alone.
    fragment = Client().get(
        reverse("tournaments:team_standings", args=[tournament.slug]), HTTP_HX_REQUEST="true"
    )
    assert fragment.content.decode().startswith('<div id="team-standings"')


def test_no_teams_tab_outside_a_team_event(event) -> None:
    tournament, _, _ = event
    team_url = reverse("tournaments:team_standings", args=[tournament.slug])
    detail = reverse("tournaments:detail", args=[tournament.slug])
    assert team_url in Client().get(detail).content.decode()
    Tournament.objects.filter(pk=tournament.pk).update(teams_enabled=False)
    page = Client().get(reverse("tournaments:standings", args=[tournament.slug])).content.decode()
    assert team_url not in page
    assert team_url not in Client().get(detail).content.decode()
    for name in ("team_standings", "projector_team_standings", "team_standings_csv"):
        assert (
            Client().get(reverse(f"tournaments:{name}", args=[tournament.slug])).status_code == 404
        )


def test_projector_and_csv(event) -> None:
    tournament, _, _ = event
    projector = Client().get(
        reverse("tournaments:projector_team_standings", args=[tournament.slug])
    )
    assert projector.status_code == 200
    html = projector.content.decode()
    assert 'id="hall-standings"' in html
    assert '<td class="name">Team D</td><td class="num">20000</td>' in html
    csv = Client().get(reverse("tournaments:team_standings_csv", args=[tournament.slug]))
    assert csv["Content-Disposition"] == 'attachment; filename="team-cup-team-standings.csv"'
    assert csv.content.decode().splitlines()[4].startswith('"4","Team C","3000",')


def test_the_team_page_lists_members_and_games(event) -> None:
    tournament, _, _ = event
    team = Team.objects.get(tournament=tournament, name="Team B")
    by_slug = Client().get(reverse("tournaments:team", args=[tournament.slug, team.slug]))
    by_id = Client().get(reverse("tournaments:team", args=[tournament.slug, str(team.pk)]))
    assert by_slug.status_code == by_id.status_code == 200
    html = by_slug.content.decode()
    assert "<h1>Team B</h1>" in html and "<h1>Team B</h1>" in by_id.content.decode()
    members = html.split('id="team-members"')[1].split("</table>")[0]
    # B0 44,000 and B2 27,000 count; B3 -13,000 and B1 -30,000 do not.
    assert [members.index(f"B{i} Player") for i in (0, 2, 3, 1)] == sorted(
        members.index(f"B{i} Player") for i in (0, 2, 3, 1)
    )
    assert members.count("<tr>") == 1 + 2  # the header and the two counted
    assert members.count('<tr class="muted">') == 2
    games = html.split('id="team-games"')[1].split("</table>")[0]
    assert games.count("<tr>") == 1 + 12  # the header and 4 members x 3 sessions
    assert "<strong>Total</strong> 71000" in html
    missing = Client().get(reverse("tournaments:team", args=[tournament.slug, "no-such-team"]))
    assert missing.status_code == 404


def test_the_results_pdf_has_the_team_standings(event, tmp_path) -> None:
    tournament, organiser, _ = event
    response = _organiser(organiser).get(reverse("tournaments:results_pdf", args=[tournament.slug]))
    assert response.status_code == 200
    text = pdf_text(response.content, tmp_path)
    assert "Teams" in text
    assert "Team D" in text and "20000" in text


def test_console_team_settings_and_a_registration_team(event) -> None:
    tournament, organiser, players = event
    client = _organiser(organiser)
    settings = client.post(
        reverse("tournaments:standings_settings", args=[tournament.slug]),
        {"teams_enabled": "on", "team_counted_members": "3"},
    )
    assert settings.status_code == 302
    tournament.refresh_from_db()
    assert (tournament.teams_enabled, tournament.team_counted_members) == (True, 3)

    page = client.get(reverse("tournaments:registrations", args=[tournament.slug]))
    html = page.content.decode()
    assert 'name="add-team"' in html and '<datalist id="team-names">' in html
    added = client.post(
        reverse("tournaments:registrations", args=[tournament.slug]),
        {"action": "add", "add-first_name": "Eve", "add-last_name": "New", "add-team": "Team E"},
    )
    assert added.status_code == 302
    assert Registration.objects.get(tournament=tournament, player__first_name="Eve").team.name == (
        "Team E"
    )
    registration = Registration.objects.get(tournament=tournament, player=players["A0"])
    edit = reverse("tournaments:registration_edit", args=[tournament.slug, registration.pk])
    assert 'value="Team A"' in client.get(edit).content.decode()
    form = {
        "first_name": "A0",
        "last_name": "Player000",
        "ema_number": players["A0"].ema_number,
        "country": "DE",
        "club_name": "",
        "role": "player",
        "team": "Team E",
    }
    assert client.post(edit, form).status_code == 302
    registration.refresh_from_db()
    assert registration.team.name == "Team E"


def test_the_team_field_is_only_in_a_team_event(event) -> None:
    tournament, organiser, players = event
    Tournament.objects.filter(pk=tournament.pk).update(teams_enabled=False)
    client = _organiser(organiser)
    page = client.get(reverse("tournaments:registrations", args=[tournament.slug]))
    assert 'name="add-team"' not in page.content.decode()
    # Editing a registration outside a team event leaves its team alone.
    registration = Registration.objects.get(tournament=tournament, player=players["A0"])
    edit = reverse("tournaments:registration_edit", args=[tournament.slug, registration.pk])
    form = {"first_name": "Anna", "last_name": "Player000", "country": "DE", "role": "player"}
    assert client.post(edit, form).status_code == 302
    registration.refresh_from_db()
    assert (registration.player.first_name, registration.team.name) == ("Anna", "Team A")
