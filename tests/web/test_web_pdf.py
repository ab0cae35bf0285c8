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


def pdf_text(content: bytes, tmp_path: Any) -> str:
    """The PDF's text via poppler-utils' pdftotext. Required, never an optional path: a test
    must give the same verdict on every machine (`make test` installs it,
    scripts/ensure-test-tools.sh)."""
    if shutil.which("pdftotext") is None:
        pytest.fail(
            "The PDF tests read the PDFs with pdftotext: install it with "
            "`apt-get install -y poppler-utils` (make test does).",
            pytrace=False,
        )
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


@pytest.mark.pdftotext
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
    lines = [line.strip() for line in pdf_text(response.content, tmp_path).splitlines()]
    # Each name whole on one line: never "Anna" on one line and "Adler" on the next.
    for name in ("Anna Adler", "Ben Berg", "Clara Claus", "David Dorn"):
        assert any(name in line for line in lines), (name, lines)


LONG_NAMES = [
    ("Maximiliane", "van der Berg-Schmidt"),
    ("Jean-Baptiste", "de la Fontaine"),
    ("Zoë", "Müller-Lüdenscheidt"),
    ("Bartholomew", "Featherstonehaugh"),
]


def line_texts(document: Any) -> list[str]:
    """The text of every laid-out line (WeasyPrint's line boxes), page by page."""
    lines: list[str] = []

    def text_of(box: Any) -> str:
        own = getattr(box, "text", None) or ""
        return own + "".join(text_of(c) for c in getattr(box, "children", []) or [])

    def walk(box: Any) -> None:
        if type(box).__name__ == "LineBox":
            lines.append(text_of(box))
            return
        for child in getattr(box, "children", []) or []:
            walk(child)

    for page in document.pages:
        walk(page._page_box)
    return lines


@pytest.mark.pdftotext
@pytest.mark.parametrize("builder", ["table_cards_pdf", "score_sheets_pdf", "all_last_sheets_pdf"])
def test_long_names_are_not_wrapped(game: Any, builder: str, tmp_path: Any) -> None:
    """Issue 18: score sheets and table cards keep each name on one line, long ones too."""
    from tournaments import pdf

    for seat, (first, last) in zip(game.seats.all(), LONG_NAMES, strict=True):
        seat.player.first_name, seat.player.last_name = first, last
        seat.player.save()
    session = game.table.session
    content = getattr(pdf, builder)(session)
    lines = [line.strip() for line in pdf_text(content, tmp_path).splitlines()]
    for first, last in LONG_NAMES:
        assert any(f"{first} {last}" in line for line in lines), (first, last, "|".join(lines))
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
    laid_out = line_texts(pdf.render_document(templates[builder], context))
    for first, last in LONG_NAMES:
        assert any(f"{first} {last}" in line for line in laid_out), (first, last)


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


@pytest.mark.pdftotext
def test_results_pdf_says_provisional_until_published(
    organiser_client: Client, tournament: Tournament, tmp_path: Any
) -> None:
    StandingRow.objects.create(
        tournament=tournament,
        player=PlayerFactory(first_name="Nora", last_name="Nagel"),
        rank=1,
        total=1,
    )
    tournament.status = Tournament.Status.FINISHED
    tournament.save()
    url = reverse("tournaments:results_pdf", args=[tournament.slug])
    text = pdf_text(organiser_client.get(url).content, tmp_path)
    assert "Provisional results" in text and "Final results" not in text
    tournament.status = Tournament.Status.PUBLISHED
    tournament.save()
    text = pdf_text(organiser_client.get(url).content, tmp_path)
    assert "Final results" in text and "Provisional" not in text
