"""PDF downloads: session paperwork for staff, final results for everyone once published."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from tournaments import pdf, roles
from tournaments.models import Session, Tournament

SESSION_DOCUMENTS = {
    "table-cards": pdf.table_cards_pdf,
    "score-sheets": pdf.score_sheets_pdf,
    "all-last": pdf.all_last_sheets_pdf,
}


def _pdf_response(content: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(content, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


@login_required
def session_pdf(request: HttpRequest, slug: str, number: int, document: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    if not roles.is_referee(request.user, tournament):
        raise PermissionDenied(_("Only the tournament's staff may print session paperwork."))
    session = get_object_or_404(Session, tournament=tournament, number=number)
    build = SESSION_DOCUMENTS.get(document)
    if build is None:
        from django.http import Http404

        raise Http404("No such document.")
    return _pdf_response(build(session), f"{slug}-session-{number}-{document}.pdf")


def results_pdf(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = get_object_or_404(Tournament, slug=slug)
    published = tournament.status == Tournament.Status.PUBLISHED
    if not published and not roles.is_organiser(request.user, tournament):
        raise PermissionDenied(_("The results are not published yet."))
    return _pdf_response(pdf.final_results_pdf(tournament), f"{slug}-results.pdf")
