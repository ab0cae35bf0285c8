"""Printable PDFs (WeasyPrint from templates/pdf/): table cards, score sheets, the all-last
sheet (EMA 2025 3.6) and the final results."""

from __future__ import annotations

from typing import Any

from django.template.loader import render_to_string
from django.utils import timezone

from tournaments.models import Seat, Session, StandingRow, Tournament
from tournaments.my_seat import table_card_links
from tournaments.selectors import session_roster
from tournaments.standings.teams import team_standings


def render_document(template: str, context: dict[str, Any]) -> Any:
    """The laid-out WeasyPrint document (pages), before it is written as PDF."""
    from weasyprint import HTML  # heavy import: only when a PDF is asked for

    # Issue 33: any time of day printed is in the event's time zone.
    zone = getattr(context.get("tournament"), "time_zone", None) or None
    with timezone.override(zone):
        html = render_to_string(template, context)
    return HTML(string=html).render()


def render_pdf(template: str, context: dict[str, Any]) -> bytes:
    return bytes(render_document(template, context).write_pdf())


def _tables(session: Session) -> list[dict[str, Any]]:
    """The session roster's tables (issue 31): a substitute's name in the seat they play,
    with whom they replace; a dropped player's seat marked as one to fill."""
    return [{"table": t, "seats": t.seats} for t in session_roster(session).tables]


def table_cards_pdf(session: Session) -> bytes:
    """One card per table: the table number and who sits in which starting wind."""
    tables = _tables(session)
    # Each player's QR code: their own "where do I sit" page on the phone (issue 35.4).
    table_card_links(session.tournament, tables)
    return render_pdf(
        "pdf/table_cards.html",
        {
            "session": session,
            "tournament": session.tournament,
            "tables": tables,
            "winds": Seat.WIND_LABELS,
        },
    )


def score_sheets_pdf(session: Session) -> bytes:
    """One score sheet per table, with rows for the hands and the signatures (EMA 2025 7.5)."""
    return render_pdf(
        "pdf/score_sheets.html",
        {
            "session": session,
            "tournament": session.tournament,
            "tables": _tables(session),
            "winds": Seat.WIND_LABELS,
            "rows": range(16),
        },
    )


def all_last_sheets_pdf(session: Session) -> bytes:
    """EMA 2025 3.6: a square sheet with an X; each zone holds a seat wind and a score."""
    return render_pdf(
        "pdf/all_last.html",
        {
            "session": session,
            "tournament": session.tournament,
            "tables": _tables(session),
            "winds": Seat.WIND_LABELS,
        },
    )


def final_results_pdf(tournament: Tournament) -> bytes:
    rows = list(
        StandingRow.objects.filter(tournament=tournament)
        .select_related("player")
        .order_by("is_substitute", "rank", "-total")
    )
    provisional = tournament.status != Tournament.Status.PUBLISHED
    context = {
        "tournament": tournament,
        "rows": rows,
        "provisional": provisional,
        # Issue 32.1: a team event's results add the team standings, from the same rows as
        # the players' table (the whole table: public once published, organisers before).
        "teams": team_standings(tournament, rows),
    }
    return render_pdf("pdf/results.html", context)
