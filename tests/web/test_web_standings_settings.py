"""Issue 15: tie-breaks and qualification-only from the organiser console (the API's PATCH
/tournaments/{slug}/ exists); a change recomputes the standings and the EMA export report."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from core.audit import audit_for_tournament
from tests.web.test_web_results import paper_game
from tournaments.ema.export import validate_for_export
from tournaments.models import StandingRow, Tournament
from tournaments.standings.services import recompute_standings

pytestmark = pytest.mark.django_db


def _url(tournament: Tournament) -> str:
    return reverse("tournaments:standings_settings", args=[tournament.slug])


def test_console_shows_the_current_tie_breaks(
    organiser_client: Client, tournament: Tournament
) -> None:
    html = organiser_client.get(
        reverse("tournaments:console", args=[tournament.slug])
    ).content.decode()
    assert 'id="standings-settings"' in html
    # The default order (tournaments/standings/ranking.py) is preselected.
    assert '<option value="best_game" selected>' in html
    assert 'name="qualification_only"' in html


def test_a_change_recomputes_standings_and_the_ema_report(
    organiser_client: Client,
    tournament: Tournament,
    players: list[Any],
    django_capture_on_commit_callbacks: Any,
) -> None:
    paper_game(tournament, 1, 1, players)
    recompute_standings(tournament_id=tournament.pk)
    assert validate_for_export(tournament).ok
    data = {"tie_break_1": "fewest_lasts", "tie_break_2": "", "tie_break_3": "average_placement",
            "qualification_only": "on"}  # fmt: skip
    with django_capture_on_commit_callbacks(execute=True):  # the standings task runs
        response = organiser_client.post(_url(tournament), data)
    assert response.status_code == 302, response.content.decode()[-2000:]
    tournament.refresh_from_db()
    assert tournament.tie_breaks == ["fewest_lasts", "average_placement"]  # the gap closed
    assert tournament.qualification_only is True
    # The standings were recomputed: two tie-break values per row, in the new order.
    row = StandingRow.objects.get(tournament=tournament, player=players[3])
    assert row.tie_break_values == [1, 4.0]  # last at its only table: one last, place 4
    report = validate_for_export(tournament)
    assert report.ok and report.mers is not None and report.mers.qualification_only
    entry = audit_for_tournament(tournament.pk).filter(action="tournament.update").last()
    assert entry is not None and entry.after["tie_breaks"] == ["fewest_lasts", "average_placement"]


def test_a_repeated_tie_break_is_refused_and_nothing_changes(
    organiser_client: Client, tournament: Tournament
) -> None:
    data = {"tie_break_1": "most_firsts", "tie_break_2": "most_firsts"}
    response = organiser_client.post(_url(tournament), data)
    assert response.status_code == 400
    assert "A tie-break is listed twice." in response.content.decode()
    tournament.refresh_from_db()
    assert tournament.tie_breaks == [] and tournament.qualification_only is False


def test_an_unknown_tie_break_names_the_field(
    organiser_client: Client, tournament: Tournament
) -> None:
    response = organiser_client.post(_url(tournament), {"tie_break_1": "coin_toss"})
    assert response.status_code == 400
    assert 'class="errorlist"' in response.content.decode()
    tournament.refresh_from_db()
    assert tournament.tie_breaks == []


def test_referees_cannot_change_the_settings(
    referee_client: Client, tournament: Tournament
) -> None:
    response = referee_client.post(_url(tournament), {"tie_break_1": "most_firsts"})
    assert response.status_code == 403
    tournament.refresh_from_db()
    assert tournament.tie_breaks == []
