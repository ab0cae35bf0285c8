"""PDFs: table cards, score sheets, all-last sheets (EMA 2025 3.6), final results."""

from __future__ import annotations

import shutil
import subprocess
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import PlayerFactory
from tournaments.models import StandingRow, Tournament

pytestmark = pytest.mark.django_db


def pdf_text(content: bytes, tmp_path: Any) -> str | None:
    """The PDF's text via pdftotext when the machine has it."""
    if shutil.which("pdftotext") is None:
        return None
    path = tmp_path / "out.pdf"
    path.write_bytes(content)
    return subprocess.run(
        ["pdftotext", str(path), "-"], check=True, capture_output=True, text=True
    ).stdout


def layout_text(document: Any) -> str:
    """Every text box WeasyPrint laid out (works without pdftotext)."""
    texts: list[str] = []

    def walk(box: Any) -> None:
        if getattr(box, "text", None):
            texts.append(box.text)
        for child in getattr(box, "children", []) or []:
            walk(child)

    for page in document.pages:
        walk(page._page_box)
    return " ".join(texts)


@pytest.mark.parametrize("document", ["table-cards", "score-sheets", "all-last"])
def test_session_pdfs(organiser_client: Client, game: Any, document: str, tmp_path: Any) -> None:
    session = game.table.session
    url = reverse(
        "tournaments:session_pdf", args=[session.tournament.slug, session.number, document]
    )
    response = organiser_client.get(url)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response.content.startswith(b"%PDF")
    text = pdf_text(response.content, tmp_path)
    if text is not None:
        assert "Anna Adler" in text and "David Dorn" in text


@pytest.mark.parametrize("builder", ["table_cards_pdf", "score_sheets_pdf", "all_last_sheets_pdf"])
def test_session_documents_name_every_player_one_page_per_table(game: Any, builder: str) -> None:
    from tournaments import pdf

    session = game.table.session
    templates = {
        "table_cards_pdf": "pdf/table_cards.html",
        "score_sheets_pdf": "pdf/score_sheets.html",
        "all_last_sheets_pdf": "pdf/all_last.html",
    }
    context = {
        "session": session,
        "tournament": session.tournament,
        "tables": pdf._tables(session),
        "winds": ["East", "South", "West", "North"],
        "rows": range(16),
    }
    document = pdf.render_document(templates[builder], context)
    assert len(document.pages) == 1  # one table
    text = layout_text(document)
    for name in ("Anna Adler", "Ben Berg", "Clara Claus", "David Dorn"):
        assert name in text


def test_all_last_sheet_has_the_cross_and_the_sum_check(game: Any) -> None:
    """EMA 2025 3.6: a square sheet with an X; players write scores and check the sum."""
    from django.template.loader import render_to_string

    from tournaments import pdf

    session = game.table.session
    html = render_to_string(
        "pdf/all_last.html",
        {
            "session": session,
            "tournament": session.tournament,
            "tables": pdf._tables(session),
            "winds": [],
        },
    )
    assert html.count("<line ") == 2 and "check the sum" in html


def test_session_pdfs_are_staff_only(client: Client, stranger_client: Client, game: Any) -> None:
    session = game.table.session
    url = reverse(
        "tournaments:session_pdf", args=[session.tournament.slug, session.number, "table-cards"]
    )
    assert client.get(url).status_code == 302
    assert stranger_client.get(url).status_code == 403


def test_results_pdf_public_once_published(
    client: Client, organiser_client: Client, tournament: Tournament
) -> None:
    player: Any = PlayerFactory(first_name="Nora", last_name="Nagel")
    StandingRow.objects.create(tournament=tournament, player=player, rank=1, total=55000)
    url = reverse("tournaments:results_pdf", args=[tournament.slug])
    assert client.get(url).status_code == 403
    response = organiser_client.get(url)
    assert response.status_code == 200 and response.content.startswith(b"%PDF")
    tournament.status = Tournament.Status.PUBLISHED
    tournament.save()
    assert client.get(url).status_code == 200

    from tournaments import pdf

    document = pdf.render_document(
        "pdf/results.html", {"tournament": tournament, "rows": [StandingRow.objects.get()]}
    )
    assert "Nora Nagel" in layout_text(document)
