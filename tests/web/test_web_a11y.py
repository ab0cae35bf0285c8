"""Issue 22: what a reader needs without a mouse or without seeing the page - tie-break values
shown (not only on hover), language options in their own language, named table columns,
session links big enough to tap (WCAG 2.2 2.5.8; measured in tests/browser/test_browser_axe.py).
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import SeatFactory, SessionFactory, TableFactory
from tests.web.test_web_results import paper_game
from tournaments.models import Tournament
from tournaments.standings.services import recompute_standings

pytestmark = pytest.mark.django_db


def test_tie_break_values_are_columns_and_a_line_on_phones(
    client: Client, tournament: Tournament, players: list[Any]
) -> None:
    """EMA 2025 tie-breaks (the default: best game, first places, head to head) each get a
    column; on phones the same values are a line under the player's name."""
    paper_game(tournament, 1, 1, players)  # 45300, 30000, 25000, 19700
    recompute_standings(tournament_id=tournament.pk)
    html = client.get(reverse("tournaments:standings", args=[tournament.slug])).content.decode()
    headers = re.findall(r'<th class="num tb" scope="col">([^<]*)</th>', html)
    assert headers == ["Best game", "First places", "Head to head"]
    anna = html[html.index("Anna Adler") : html.index("</tr>", html.index("Anna Adler"))]
    cells = re.findall(r'<td class="num tb">([^<]*)</td>', anna)
    line = re.findall(r"<span>([^<]*)</span>", anna[: anna.index("</td>")])
    first = next(row for row in tournament.standings.all() if row.player_id == players[0].pk)
    best, firsts, h2h = first.tie_break_values
    assert cells == [str(best), str(firsts), str(h2h)] and firsts == 1
    assert line == [f"best game {best}", "first places 1", f"head to head {h2h}"]


def test_average_placement_shows_two_decimals_in_the_readers_format(
    client: Client, tournament: Tournament, players: list[Any]
) -> None:
    tournament.tie_breaks = ["average_placement"]
    tournament.save()
    paper_game(tournament, 1, 1, players)
    paper_game(tournament, 2, 1, [players[1], players[0], players[2], players[3]])
    recompute_standings(tournament_id=tournament.pk)
    url = reverse("tournaments:standings", args=[tournament.slug])
    english = client.get(url).content.decode()
    german = client.get(url, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert '<td class="num tb">1.50</td>' in english  # Anna: 1st, then 2nd
    assert '<td class="num tb">1,50</td>' in german


def test_language_options_name_their_language(client: Client) -> None:
    html = client.get("/").content.decode()
    assert '<option value="de" lang="de"' in html
    assert '<option value="pl" lang="pl"' in html and ">Polski</option>" in html


def test_registrations_table_names_every_column(
    organiser_client: Client, tournament: Tournament, players: list[Any]
) -> None:
    url = reverse("tournaments:registrations", args=[tournament.slug])
    html = organiser_client.get(url).content.decode()
    table = html[html.index('<table id="registrations"') : html.index("</table>")]
    assert "<th></th>" not in table
    head = table[: table.index("</thead>")]
    assert len(re.findall(r"<th[ >]", head)) == 6  # one per cell of a row
    assert '<span class="sr-only"> Anna Adler</span>' in table  # "Edit Anna Adler"


def test_session_links_on_where_do_i_sit_are_tap_targets(
    client: Client, tournament: Tournament, players: list[Any]
) -> None:
    for number in (1, 2):
        table = TableFactory(session=SessionFactory(tournament=tournament, number=number))
        for seat, player in enumerate(players):
            SeatFactory(table=table, player=player, wind=seat)
    html = client.get(reverse("tournaments:seating", args=[tournament.slug])).content.decode()
    nav = html[html.index('<nav class="row small session-links"') :]
    nav = nav[: nav.index("</nav>")]
    assert nav.count("<a ") == 2 and 'aria-label="Sessions"' in nav


def test_no_template_has_an_empty_table_header() -> None:
    """A header cell without text names nothing for a screen reader (axe empty-table-header):
    action columns carry a visually hidden name, an empty corner is a <td>."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "templates"
    empty = re.compile(r"<th(?:\s[^>]*)?>\s*</th>")
    found = [
        str(path.relative_to(root))
        for path in sorted(root.rglob("*.html"))
        if empty.search(path.read_text(encoding="utf-8"))
    ]
    assert found == []
