"""A tournament's results over the API: standings (JSON with its ETag, or CSV), the EMA file
and its validation report, the ranking preview, the backup document.
"""

from __future__ import annotations

from django.http import HttpResponse, HttpResponseNotModified
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from core.api.base import errors
from tournaments import roles
from tournaments.api.permissions import OrganiserOnly
from tournaments.api.serializers import (
    EmaBlockedSerializer,
    EmaValidationSerializer,
    RankingPreviewSerializer,
    StandingRowSerializer,
    standings_json,
)
from tournaments.api.views.common import (
    RANKING_PREVIEW_PUBLIC,
    STANDINGS_FIELDS,
    XLSX,
    FileFormatInQuery,
    TournamentResource,
    _download,
    _file_format,
    _query_flag,
)
from tournaments.backup import export_tournament
from tournaments.ema import mers
from tournaments.ema.export import XLS_TYPE, ExportBlocked, ema_file, validate_for_export
from tournaments.models import Tournament
from tournaments.standings import cache as standings_cache
from tournaments.standings.asof import hidden_from
from tournaments.standings.exports import standings_csv
from tournaments.standings.selectors import public_standings

JSON = "application/json"


class TournamentExportsViewSet(TournamentResource):
    action_permissions = {
        "ema_export": [OrganiserOnly],
        "ema_validation": [OrganiserOnly],
        "backup": [OrganiserOnly],
    }

    @extend_schema(
        summary="Standings (public); ?format=csv for the CSV file",
        parameters=[
            OpenApiParameter(
                "format",
                OpenApiTypes.STR,
                enum=["json", "csv"],
                description="csv: one quoted row per player, as the standings page downloads.",
            )
        ],
        responses={
            (200, "application/json"): StandingRowSerializer(many=True),
            (200, "text/csv"): OpenApiTypes.STR,
            304: OpenApiResponse(
                description="JSON unchanged since the ETag sent in If-None-Match."
            ),
            **errors(400, 404),
        },
    )
    @action(
        detail=True,
        methods=["get"],
        pagination_class=None,
        content_negotiation_class=FileFormatInQuery,
    )
    def standings(self, request: Request, slug: str) -> Response | HttpResponse:
        if _file_format(request, ("json", "csv"), "json") == "csv":
            tournament = self.get_object()
            return _download(
                standings_csv(tournament),
                filename=f"{tournament.slug}-standings.csv",
                content_type="text/csv; charset=utf-8",
            )
        # The most frequent request of a tournament (every phone revalidates its ETag every
        # few seconds): the tournament is looked up as get_object does (visibility, object
        # permissions; no list filter), reading only what the answer needs; the rest of the
        # row loads only when the cached JSON must be built (issue 14.7).
        tournament = self._visible_tournament(*STANDINGS_FIELDS)
        answer: HttpResponse
        if hidden_from(tournament) is None:
            tag = standings_cache.etag(tournament)
            if tag in request.headers.get("If-None-Match", ""):
                answer = HttpResponseNotModified()
            else:
                # Ranked first, then unranked substitutes; rendered once per standings change.
                answer = HttpResponse(self._standings_body(tournament), content_type=JSON)
        else:
            # Issue 32.3: the standings before the hidden session, tagged by their own bytes.
            body = self._standings_body(tournament)
            tag = standings_cache.etag(tournament, body)
            if tag in request.headers.get("If-None-Match", ""):
                answer = HttpResponseNotModified()
            else:
                answer = HttpResponse(body, content_type=JSON)
        answer["ETag"] = tag
        answer["Cache-Control"] = "no-cache"  # phones may keep it, but revalidate each time
        return answer

    @staticmethod
    def _standings_body(tournament: Tournament) -> bytes:
        body: bytes = standings_cache.cached(
            tournament, standings_cache.API_JSON, lambda: standings_json(tournament)
        )
        return body

    @extend_schema(
        summary="The EMA results file (organisers); 409 with the report while not ready",
        parameters=[
            OpenApiParameter(
                "format",
                OpenApiTypes.STR,
                enum=["csv", "xls", "xlsx"],
                description="Default csv; xls is the workbook the EMA's importer opens.",
            ),
            OpenApiParameter(
                "force",
                OpenApiTypes.BOOL,
                description="Export even though the validation report blocks it.",
            ),
            OpenApiParameter(
                "confirm_unknown",
                OpenApiTypes.BOOL,
                description="Export players without an EMA number (written as 0).",
            ),
            OpenApiParameter(
                "sheet", OpenApiTypes.STR, description="Workbook sheet name (xls: rcr)."
            ),
        ],
        responses={
            (200, "text/csv"): OpenApiTypes.STR,
            (200, XLS_TYPE): OpenApiTypes.BINARY,
            (200, XLSX): OpenApiTypes.BINARY,
            409: EmaBlockedSerializer,
            **errors(400, 403, 404),
        },
    )
    @action(
        detail=True,
        methods=["get"],
        url_path="ema-export",
        url_name="ema-export",
        content_negotiation_class=FileFormatInQuery,
    )
    def ema_export(self, request: Request, slug: str) -> Response | HttpResponse:
        tournament = self.get_object()
        file_format = _file_format(request, ("csv", "xls", "xlsx"), "csv")
        flags = {name: _query_flag(request, name) for name in ("force", "confirm_unknown")}
        try:
            content, content_type = ema_file(
                tournament, file_format, sheet=request.query_params.get("sheet"), **flags
            )
            filename = f"{tournament.slug}-ema.{file_format}"
            return _download(content, filename=filename, content_type=content_type)
        except ExportBlocked as blocked:
            body = {**blocked.as_dict(), "report": blocked.report.to_dict()}
            return Response(body, status=status.HTTP_409_CONFLICT)

    @extend_schema(
        summary="What the EMA export checks: blocking problems, penalties, ties (organisers)",
        responses={200: EmaValidationSerializer, **errors(403, 404)},
    )
    @action(detail=True, methods=["get"], url_path="ema-validation", url_name="ema-validation")
    def ema_validation(self, request: Request, slug: str) -> Response:
        tournament = self.get_object()
        return Response(validate_for_export(tournament).to_dict())

    @extend_schema(
        summary="MERS weight with its parts and each place's base rank (public once running)",
        responses={200: RankingPreviewSerializer, **errors(403, 404)},
    )
    @action(detail=True, methods=["get"], url_path="ranking-preview", url_name="ranking-preview")
    def ranking_preview(self, request: Request, slug: str) -> Response:
        tournament = self.get_object()
        if tournament.status not in RANKING_PREVIEW_PUBLIC and not roles.is_referee(
            request.user, tournament.pk
        ):
            self.permission_denied(
                request, message="The ranking preview is public once the tournament runs."
            )
        if hidden_from(tournament) is not None and not roles.is_referee(
            request.user, tournament.pk
        ):
            # Issue 32.3: the places as they stood before the hidden session.
            return Response(mers.ranking_preview(tournament, public_standings(tournament).rows))
        return Response(mers.ranking_preview(tournament))

    @extend_schema(
        summary="The whole tournament as one JSON backup document (organisers)",
        description="`hanchan-tournament/1`, as `manage.py export_tournament` writes it; "
        "load it with `manage.py import_tournament` (docs/backup.md).",
        responses={200: OpenApiTypes.OBJECT, **errors(403, 404)},
    )
    @action(detail=True, methods=["get"])
    def backup(self, request: Request, slug: str) -> Response:
        tournament = self.get_object()
        response = Response(export_tournament(tournament))
        response["Content-Disposition"] = f'attachment; filename="{tournament.slug}-backup.json"'
        return response
