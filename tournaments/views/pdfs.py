"""PDF downloads: session paperwork for staff, final results for everyone once published."""

from __future__ import annotations

import hashlib

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from tournaments import pdf, roles
from tournaments.models import Session, Tournament
from tournaments.standings import cache as standings_cache
from tournaments.views.visibility import visible_tournament

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
    tournament = visible_tournament(request, slug)  # issue 16: a draft is not found (404)
    if not roles.is_referee(request.user, tournament):
        raise PermissionDenied(_("Only the tournament's staff may print session paperwork."))
    session = get_object_or_404(Session, tournament=tournament, number=number)
    build = SESSION_DOCUMENTS.get(document)
    if build is None:
        raise Http404("No such document.")
    return _pdf_response(build(session), f"{slug}-session-{number}-{document}.pdf")


def results_pdf(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = visible_tournament(request, slug)  # issue 16: a draft is not found (404)
    published = tournament.status == Tournament.Status.PUBLISHED
    if not published and not roles.is_organiser(request.user, tournament):
        raise PermissionDenied(_("The results are not published yet."))
    # Built once per standings version (and language, status and the heading's fields): a
    # results PDF of 400 players takes seconds, and everyone downloads it at the prize-giving:
    # of the requests that miss at once, one builds it and the others wait for its copy.
    heading = "|".join(
        str(v)
        for v in (
            tournament.status,
            tournament.name,
            tournament.city,
            tournament.country,
            tournament.starts_on,
            tournament.ends_on,
        )
    )
    part = f"results-pdf-{get_language()}-{hashlib.sha256(heading.encode()).hexdigest()[:16]}"
    content = standings_cache.cached_built_once(
        tournament, part, lambda: pdf.final_results_pdf(tournament)
    )
    return _pdf_response(content, f"{slug}-results.pdf")
