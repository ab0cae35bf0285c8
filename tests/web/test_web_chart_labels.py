"""Issue 33.6: the player page's total chart read "0 / -26 500 / S3". Its labels are points in
the language's number format with a sign, and the sessions are named."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from scoring.services import enter_final_scores, finalize_game
from tournaments.models import StandingRow, Tournament
from tournaments.standings.services import recompute_standings
from tournaments.views.charts import line_chart_svg


def _texts(svg: str) -> list[str]:
    return re.findall(r"<text[^>]*>([^<]*)</text>", svg)


def test_total_chart_axis_reads_signed_points_with_thousands_separator() -> None:
    with translation.override("en"):
        svg = str(
            line_chart_svg(
                [0, 12500, -26500],
                labels=["start", "Session 1", "Session 2"],
                baseline=0,
                signed=True,
            )
        )
    # Axis: top +12,500 and bottom minus 26,500 (U+2212); x: first and last label in words.
    assert _texts(svg) == ["+12,500", "\u221226,500", "start", "Session 2"]
    assert "<title>start: 0</title>" in svg and "<title>Session 1: +12,500</title>" in svg


def test_chart_numbers_follow_the_language() -> None:
    with translation.override("de"):
        svg = str(line_chart_svg([30000, 38000, 22000], labels=["start", "E1", "E2"]))
    assert _texts(svg)[:2] == ["38.000", "22.000"]  # unsigned: absolute scores


@pytest.mark.django_db
def test_player_page_total_chart_names_the_session_and_signs_the_points(
    organiser: Any, client: Client, tournament: Tournament, players: list[Any], game: Any
) -> None:
    game = enter_final_scores(actor=organiser, game=game, scores=[25000, 45000, 30000, 20000],
                              expected_version=game.version)  # fmt: skip
    finalize_game(actor=organiser, game=game, expected_version=game.version)
    recompute_standings(tournament_id=tournament.pk)
    url = reverse("tournaments:player", args=[tournament.slug, players[1].pk])
    html = client.get(url).content.decode()
    chart = html.split("Tournament total</h2>")[1].split("</svg>")[0]
    session = game.table.session.number
    # Before: "S1" and "45000"-style labels with a bare 0; now words and signed points.
    assert f">Session {session}</text>" in chart and ">start</text>" in chart
    assert f"S{session}<" not in chart
    total = StandingRow.objects.get(tournament=tournament, player=players[1]).total
    assert total > 0 and f"+{total:,}" in chart
