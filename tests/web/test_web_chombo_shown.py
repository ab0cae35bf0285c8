"""Issue 15: every chombo, entered hand by hand or on a paper sheet, shows in the hand list,
the game page, the standings' penalty column (page, CSV, API) and the EMA export report; the
hand preview says what a chombo costs (EMA 2025 3.4.6: 20,000 after uma in a tournament)."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from scoring.models import Game
from scoring.services import enter_final_scores, enter_hand, finalize_game, import_game_record
from tests.factories import chombo, non_dealer_rons
from tournaments.ema.export import validate_for_export
from tournaments.models import Tournament
from tournaments.places import TablePlace
from tournaments.standings.services import recompute_standings

pytestmark = pytest.mark.django_db


def _hand_chombo_game(referee: Any, game: Game) -> Game:
    """Seat 1 (Ben Berg) makes a chombo in the first hand; then a full east-south game."""
    for hand in [chombo(offender=1), *non_dealer_rons(8)]:
        game.refresh_from_db()
        enter_hand(actor=referee, game=game, hand=hand, expected_version=game.version)
    game.refresh_from_db()
    return finalize_game(actor=referee, game=game, expected_version=game.version)


def _paper_chombo_game(referee: Any, game: Game) -> Game:
    """A paper sheet with a chombo by seat 3 (David Dorn)."""
    game = enter_final_scores(
        actor=referee,
        game=game,
        scores=[40000, 32000, 28000, 20000],
        expected_version=game.version,
        chombos=[3],
    )
    return finalize_game(actor=referee, game=game, expected_version=game.version)


def test_preview_of_a_chombo_says_what_it_costs(referee_client: Client, game: Game) -> None:
    """EMA 2025 3.4.6: nothing is paid at the table, 20,000 after uma: the preview says so
    instead of only "No points change hands"."""
    data = {"outcome": "chombo", "offender": "2", "expected_version": str(game.version)}
    response = referee_client.post(reverse("scoring:preview", args=[game.pk]), data)
    html = response.content.decode()
    assert response.status_code == 200
    assert 'id="preview-chombo"' in html
    assert "Clara Claus loses 20000 points after uma" in html
    assert "No points change hands" not in html
    assert "chombo -20000 after uma" in html  # the line beside the confirm button
    assert not game.hands.exists()  # a preview saves nothing


def test_preview_of_a_draw_without_payment_still_says_so(
    referee_client: Client, game: Game
) -> None:
    data = {"outcome": "draw", "tenpai": ["0", "1", "2", "3"], "expected_version": "0"}
    html = referee_client.post(reverse("scoring:preview", args=[game.pk]), data).content.decode()
    assert "No points change hands" in html and "preview-chombo" not in html


def test_hand_chombo_shows_in_hand_list_and_game_page(
    referee: Any, referee_client: Client, client: Client, game: Game
) -> None:
    """EMA 2025 3.4.6: the hand list and the game page say who made the chombo and what it
    costs after uma; the game page's foot has a chombo row beside the result."""
    enter_hand(actor=referee, game=game, hand=chombo(offender=1), expected_version=game.version)
    entry = referee_client.get(reverse("scoring:entry", args=[game.pk])).content.decode()
    assert "Chombo: Ben Berg · -20000 after uma" in entry  # the hand list
    assert 'id="chombos"' in entry
    page = client.get(reverse("scoring:game", args=[game.pk])).content.decode()
    assert "Chombo: Ben Berg · -20000 after uma" in page
    assert 'id="chombo-row"' in page and "-20000 (1&times;)" in page


def test_paper_sheet_chombo_shows_on_the_game_page(
    referee: Any, client: Client, game: Game
) -> None:
    game = _paper_chombo_game(referee, game)
    page = client.get(reverse("scoring:game", args=[game.pk])).content.decode()
    assert 'id="paper-scores"' in page  # the sheet's scores, no hands
    assert 'id="chombo-row"' in page and "-20000 (1&times;)" in page
    assert "on the paper sheet" in page and "David Dorn" in page
    # 20,000 - 30,000 - 15,000 uma - 20,000 chombo (EMA 2025 3.4.6, 3.7.1)
    assert "-45000" in page


@pytest.mark.parametrize("how", ["hands", "paper"])
def test_chombo_in_standings_penalty_column_csv_and_api(
    how: str,
    referee: Any,
    organiser_client: Client,
    client: Client,
    tournament: Tournament,
    players: list[Any],
    game: Game,
) -> None:
    """The standings' penalty column counts the chombo (already in the game result, so the
    total is not charged twice); so do the CSV and the API (`game_penalties`)."""
    if how == "hands":
        game = _hand_chombo_game(referee, game)
        offender = players[1]
    else:
        game = _paper_chombo_game(referee, game)
        offender = players[3]
    recompute_standings(tournament_id=tournament.pk)
    seat = [p.pk for p in players].index(offender.pk)
    result = game.summary["final"]["result"][seat]
    assert game.summary["final"]["penalties"][seat] == 20000

    html = client.get(reverse("tournaments:standings", args=[tournament.slug])).content.decode()
    row = html.split(f"/players/{offender.pk}/")[1].split("</tr>")[0]
    assert 'title="in games (chombo): 20000; tournament: 0">20000</td>' in row
    assert f'<td class="num">{result}</td>' in row  # the total: the game result, charged once

    response = client.get(reverse("tournaments:standings_csv", args=[tournament.slug]))
    lines = list(csv.DictReader(io.StringIO(response.content.decode())))
    line = next(x for x in lines if x["Last name"] == offender.last_name)
    assert line["Penalties"] == "-20000" and line["Total"] == str(result)

    api = client.get(f"/api/v1/tournaments/{tournament.slug}/standings/").json()
    rows = api["results"] if isinstance(api, dict) and "results" in api else api
    mine = next(r for r in rows if r["player"]["id"] == offender.pk)
    assert mine["game_penalties"] == 20000 and mine["penalties"] == 0
    assert mine["total"] == result


@pytest.mark.parametrize("how", ["hands", "paper"])
def test_chombo_in_the_ema_export_report(
    how: str,
    referee: Any,
    organiser_client: Client,
    tournament: Tournament,
    players: list[Any],
    game: Game,
) -> None:
    """The EMA report lists each chombo of a finished game with its 20,000 (EMA 2025 3.4.6)
    and counts it in the sum; the organiser's export page shows it."""
    if how == "hands":
        _hand_chombo_game(referee, game)
        offender, where = players[1], "session 1 table 1, hand E1"
    else:
        _paper_chombo_game(referee, game)
        offender, where = players[3], "session 1 table 1, paper score sheet"
    recompute_standings(tournament_id=tournament.pk)
    report = validate_for_export(tournament)
    assert report.penalties == [
        {
            "player": str(offender),
            "player_id": offender.pk,
            "kind": "chombo",
            "points": 20000,
            "session": 1,
            "reason": where,
            "game_id": game.pk,
        }
    ]
    assert report.penalty_total == 20000
    html = organiser_client.get(
        reverse("tournaments:exports", args=[tournament.slug])
    ).content.decode()
    assert "<td>chombo</td>" in html and 'id="penalty-total">20000<' in html
    api = organiser_client.get(f"/api/v1/tournaments/{tournament.slug}/ema-validation/").json()
    assert api["penalties"][0]["kind"] == "chombo" and api["penalty_total"] == 20000


def test_paper_sheet_record_keeps_its_chombo_through_export_and_import(
    referee: Any, organiser: Any, tournament: Tournament, players: list[Any], game: Game
) -> None:
    """A paper-sheet record (extension final_scores) has no hands: its chombo is a penalty of
    kind chombo, kept on import (a hand-by-hand record's chombos come from its hands)."""
    from scoring.records import game_record
    from tests.factories import SessionFactory, TableFactory

    game = _paper_chombo_game(referee, game)
    record = game_record(game, tournament_penalties=False)
    assert record["penalties"] == [{"seat": 3, "points": 20000, "kind": "chombo"}]
    table = TableFactory(session=SessionFactory(tournament=tournament, number=2), number=1)
    copy = import_game_record(
        actor=organiser, record=record, place=TablePlace(table), players=players, finalize=True
    )
    assert list(copy.penalties.values_list("seat", "kind", "points")) == [(3, "chombo", 20000)]
    assert copy.summary["final"]["result"] == game.summary["final"]["result"]


def test_results_pdf_penalty_column_counts_the_chombo(tournament: Tournament) -> None:
    """The final results PDF's penalty column: tournament penalties plus the games'
    deductions after uma (a chombo, EMA 2025 3.4.6)."""
    from tests.factories import PlayerFactory
    from tests.web.test_web_pdf import layout_text
    from tournaments import pdf
    from tournaments.models import StandingRow

    entry = {"game": 1, "session": 1, "table": 1, "seat": 0, "place": 4, "score": 20000,
             "result": -45000, "penalty": 20000}  # fmt: skip
    row = StandingRow.objects.create(
        tournament=tournament, player=PlayerFactory(first_name="Nora", last_name="Nagel"),
        rank=1, total=-48000, penalties=3000, per_session=[entry],
    )  # fmt: skip
    assert row.all_penalties == 23000
    document = pdf.render_document("pdf/results.html", {"tournament": tournament, "rows": [row]})
    assert "23000" in layout_text(document)
