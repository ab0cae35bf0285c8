"""Results pages and downloads: standings CSV, the ranking preview (MERS weight, base ranks),
the organiser's "Results & EMA export" page with its validation report, the EMA CSV/XLSX,
the tournament backup and the game-record import."""

from __future__ import annotations

import json
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.serializers.json import DjangoJSONEncoder
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from core.errors import ServiceError, ValidationFailed
from scoring.services.imports import ImportTarget, import_game_records
from tournaments import roles
from tournaments.backup import export_tournament
from tournaments.ema.export import EMA_FORMATS, ExportBlocked, ema_file, validate_for_export
from tournaments.ema.mers import ranking_preview
from tournaments.forms import GameRecordImportForm
from tournaments.models import Table, Tournament
from tournaments.places import TablePlace
from tournaments.standings.exports import standings_csv
from tournaments.views.console.base import organiser_tournament
from tournaments.views.visibility import visible_tournament

XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def _download(content: str | bytes, filename: str, content_type: str) -> HttpResponse:
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def standings_download(request: HttpRequest, slug: str) -> HttpResponse:
    """The standings as CSV (whoever may see the standings page may download them)."""
    tournament = visible_tournament(request, slug)
    return _download(standings_csv(tournament), f"{slug}-standings.csv", "text/csv; charset=utf-8")


def results(request: HttpRequest, slug: str) -> HttpResponse:
    """The ranking preview: public once published, organisers see it before."""
    tournament = visible_tournament(request, slug)  # issue 16: a draft is not found (404)
    is_organiser = roles.is_organiser(request.user, tournament)
    if tournament.status != Tournament.Status.PUBLISHED and not is_organiser:
        raise PermissionDenied(_("The results are not published yet."))
    context = {
        "tournament": tournament,
        "preview": ranking_preview(tournament),
        "is_organiser": is_organiser,
    }
    return render(request, "tournaments/results.html", context)


def _export_page(
    request: HttpRequest,
    tournament: Tournament,
    *,
    import_form: GameRecordImportForm | None = None,
    status: int = 200,
) -> HttpResponse:
    report = validate_for_export(tournament)
    context = {
        "tournament": tournament,
        "report": report,
        "blocking": report.blocking,
        "notes": [p for p in report.problems if not p.blocking],
        "preview": ranking_preview(tournament),
        "import_form": import_form or GameRecordImportForm(),
    }
    return render(request, "tournaments/console/exports.html", context, status=status)


@login_required
def exports(request: HttpRequest, slug: str) -> HttpResponse:
    """Console page "Results & EMA export": validation report, downloads, record import."""
    return _export_page(request, organiser_tournament(request, slug))


@login_required
def ema_download(request: HttpRequest, slug: str, fmt: str) -> HttpResponse:
    """The EMA results file (csv, xls, xlsx). Refused (the report is shown) while blocking
    problems remain, unless an organiser posts "export anyway", or confirms the players
    without an EMA number (issue 36)."""
    tournament = organiser_tournament(request, slug)
    if fmt not in EMA_FORMATS:
        raise Http404("No such format.")
    posted = request.POST if request.method == "POST" else {}
    force, confirm = posted.get("force") == "1", posted.get("confirm") == "1"
    try:
        content, content_type = ema_file(tournament, fmt, force=force, confirm_unknown=confirm)
        return _download(content, f"{slug}-ema.{fmt}", content_type)
    except ExportBlocked:
        messages.error(request, _("The EMA file cannot be exported yet: see the report below."))
        return _export_page(request, tournament, status=409)


@login_required
def backup_download(request: HttpRequest, slug: str) -> HttpResponse:
    """The whole tournament as one JSON document (tournaments.backup)."""
    tournament = organiser_tournament(request, slug)
    document = export_tournament(tournament)
    text = json.dumps(document, cls=DjangoJSONEncoder, indent=1, sort_keys=True)
    return _download(text, f"{slug}-backup.json", "application/json")


def _error_lines(error: ServiceError) -> list[str]:
    """The error with the record, hand and field it names (scoring.records)."""
    rows = error.errors if isinstance(error, ValidationFailed) else []
    lines = []
    for row in rows or [{"field": error.field, "message": error.message}]:
        where = []
        if row.get("record") is not None:
            where.append(_("record %(n)s") % {"n": row["record"]})
        if row.get("hand") is not None:
            where.append(_("hand %(n)s") % {"n": row["hand"]})
        if row.get("field"):
            where.append(_("field %(f)s") % {"f": row["field"]})
        lines.append(f"{', '.join(where)}: {row.get('message')}" if where else row["message"])
    return lines


class _ImportFailed(Exception):
    def __init__(self, lines: list[str]) -> None:
        super().__init__(lines)
        self.lines = lines


def _import_onto_tables(
    actor: Any, tables: list[Table], records: list[dict[str, Any]]
) -> list[Any]:
    """Record i goes to the i-th table; one transaction, so a bad record imports nothing.
    (scoring.services.imports.import_game_records takes one table per call.)"""

    games: list[Any] = []
    with transaction.atomic():
        for index, (table, record) in enumerate(zip(tables, records, strict=True)):
            try:
                games += import_game_records(
                    actor=actor, records=[record], target=ImportTarget(place=TablePlace(table))
                )
            except ServiceError as error:
                if isinstance(error, ValidationFailed):
                    for row in error.errors or []:
                        if "record" in row:
                            row["record"] = index
                raise _ImportFailed(_error_lines(error)) from error
    return games


@login_required
def import_records(request: HttpRequest, slug: str) -> HttpResponse:
    """Upload game records (JSON): one record for the chosen table, or a list for that table
    and the following ones. Every record is checked; nothing is imported when one fails."""
    tournament = organiser_tournament(request, slug)
    if request.method != "POST":
        return redirect("tournaments:exports", slug=slug)
    form = GameRecordImportForm(request.POST, request.FILES)
    if form.is_valid():
        records = form.cleaned_data["records"]
        first = form.cleaned_data["table"]
        tables = list(
            Table.objects.filter(
                session__tournament=tournament,
                session__number=form.cleaned_data["session"],
                number__gte=first,
                number__lt=first + len(records),
            ).order_by("number")
        )
        if len(tables) != len(records):
            form.add_error(
                "table",
                _("No such table in this session.")
                if not tables
                else _("%(n)s records need tables %(a)s to %(b)s in this session.")
                % {"n": len(records), "a": first, "b": first + len(records) - 1},
            )
        else:
            try:
                games = _import_onto_tables(request.user, tables, records)
            except _ImportFailed as failure:
                for line in failure.lines:
                    form.add_error(None, line)
            else:
                messages.success(request, _("%(n)s games imported.") % {"n": len(games)})
                return redirect("tournaments:exports", slug=slug)
    return _export_page(request, tournament, import_form=form, status=400)
