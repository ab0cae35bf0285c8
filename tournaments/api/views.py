"""Tournaments over the API: staff, registrations, sessions, seating, penalties, standings.

Views parse input, call a service of tournaments.services, serialize. Which objects are public
is decided by tournaments.selectors; who may write by tournaments.api.permissions (both built on
tournaments.roles). POSTs honour `Idempotency-Key`.
"""

from __future__ import annotations

from collections.abc import Iterable

import django_filters
from django.db.models import QuerySet
from django.http import Http404, HttpResponse, HttpResponseNotModified
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_view,
)
from rest_framework import mixins, status
from rest_framework.decorators import action
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.permissions import BasePermission
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from core import audit
from core.api.base import ID_BOUNDS, ServiceViewSet, errors, parse
from core.api.permissions import IsAuthenticatedForWrites
from core.errors import ValidationFailed
from core.idempotency import IDEMPOTENCY_PARAMETER, idempotent
from core.roles import player_of
from scoring.api.serializers import AuditEntrySerializer
from tournaments import roles, services
from tournaments.backup import export_tournament
from tournaments.ema import mers
from tournaments.ema.export import XLS_TYPE, ExportBlocked, ema_file, validate_for_export
from tournaments.models import (
    Penalty,
    Registration,
    SeatingPlan,
    Session,
    Table,
    Tournament,
)
from tournaments.selectors import can_see_tournament, session_by_number, visible_tournaments
from tournaments.services.registration import seats_to_replace
from tournaments.standings import cache as standings_cache
from tournaments.standings.exports import standings_csv

from .permissions import (
    IsTournamentOrganiser,
    IsTournamentReferee,
    OrganiserOnly,
    RefereeOnly,
)
from .serializers import (
    ApplyPlanInputSerializer,
    CsvUploadInputSerializer,
    DisqualificationSerializer,
    EmaBlockedSerializer,
    EmaValidationSerializer,
    ImportResultSerializer,
    OptionalReasonInputSerializer,
    PenaltyInputSerializer,
    PenaltySerializer,
    RankingPreviewSerializer,
    ReasonInputSerializer,
    RegistrationImportInputSerializer,
    RegistrationInputSerializer,
    RegistrationSerializer,
    SeatingPlanInputSerializer,
    SeatingPlanSerializer,
    SessionSerializer,
    SessionsInputSerializer,
    StaffInputSerializer,
    StaffRoleSerializer,
    StandingRowSerializer,
    StatusInputSerializer,
    SwapInputSerializer,
    TablePenaltyInputSerializer,
    TableSerializer,
    TournamentInputSerializer,
    TournamentSerializer,
    TournamentSettingsInputSerializer,
    standings_json,
)

WRITE_ERRORS = errors(400, 403, 404, 422)
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


class FileFormatInQuery(DefaultContentNegotiation):
    """For the download actions `?format=csv|xlsx` picks the file, not a DRF renderer: the
    action answers the file itself, and errors are rendered as JSON."""

    def select_renderer(
        self,
        request: Request,
        renderers: Iterable[BaseRenderer],
        format_suffix: str | None = None,
    ) -> tuple[BaseRenderer, str]:
        first = next(iter(renderers))  # JSON: the project's first renderer
        return first, str(first.media_type)


def _query_flag(request: Request, name: str) -> bool:
    return request.query_params.get(name, "").lower() in ("1", "true", "yes")


def _file_format(request: Request, allowed: tuple[str, ...], default: str) -> str:
    chosen = request.query_params.get("format", default).lower()
    if chosen not in allowed:
        raise ValidationFailed(f"format must be one of: {', '.join(allowed)}.", field="format")
    return chosen


def _download(content: str | bytes, *, filename: str, content_type: str) -> HttpResponse:
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


# What a standings read needs of the tournament: its id and standings version (the ETag and
# the cache key); `slug` and `status` for the permission classes and anything that logs it.
STANDINGS_FIELDS = ("pk", "slug", "status", "standings_version")

# Statuses in which the ranking preview is public (before that: staff only).
RANKING_PREVIEW_PUBLIC = (
    Tournament.Status.RUNNING,
    Tournament.Status.FINISHED,
    Tournament.Status.PUBLISHED,
)


class _PermissionsByAction:
    """`action_permissions` maps an action to its permission classes (default: the class's)."""

    action_permissions: dict[str, list[type[BasePermission]]] = {}

    def get_permissions(self) -> list[BasePermission]:
        classes = self.action_permissions.get(getattr(self, "action", "") or "")
        if classes is None:
            return super().get_permissions()  # type: ignore[misc]
        return [permission() for permission in classes]


class TournamentFilter(django_filters.FilterSet):
    # Bounded: an out-of-range year or id is a 400, not a crash in the database layer.
    year = django_filters.NumberFilter(
        field_name="starts_on", lookup_expr="year", min_value=1, max_value=9999
    )

    class Meta:
        model = Tournament
        fields = ["status", "country", "year"]


# Issue 16: why a player was dropped or disqualified is for the tournament's organisers only;
# the audit log that its referees read leaves it out (the entries themselves stay).
PRIVATE_AUDIT_FIELDS = ("drop_reason", "disqualification_reason")
PRIVATE_REASON_ACTIONS = ("registration.drop", "registration.disqualify")


def redact_private_reasons(entry: dict) -> dict:
    for side in ("before", "after"):
        if isinstance(entry.get(side), dict):
            entry[side] = {
                key: (None if key in PRIVATE_AUDIT_FIELDS else value)
                for key, value in entry[side].items()
            }
    if entry.get("action") in PRIVATE_REASON_ACTIONS:
        entry["reason"] = ""
    return entry


def drop_reason_context(request: Request, tournament: Tournament) -> dict[str, bool]:
    """Issue 16: drop reasons are private to the tournament's organisers."""
    return {"show_drop_reason": roles.is_organiser(request.user, tournament)}


@extend_schema_view(
    list=extend_schema(summary="Tournaments (drafts only for their staff)"),
    retrieve=extend_schema(
        summary="One tournament", responses={200: TournamentSerializer, **errors(404)}
    ),
)
class TournamentViewSet(
    _PermissionsByAction, mixins.ListModelMixin, mixins.RetrieveModelMixin, ServiceViewSet
):
    serializer_class = TournamentSerializer
    lookup_field = "slug"
    filterset_class = TournamentFilter
    permission_classes = [IsTournamentOrganiser]
    action_permissions = {
        "create": [IsAuthenticatedForWrites],
        "staff": [OrganiserOnly],
        "seating_plans": [OrganiserOnly],
        "upload_seating_plan": [OrganiserOnly],
        "audit": [RefereeOnly],
        "penalties": [IsTournamentReferee],
        "table_penalties": [RefereeOnly],
        "ema_export": [OrganiserOnly],
        "ema_validation": [OrganiserOnly],
        "backup": [OrganiserOnly],
    }

    def get_queryset(self) -> QuerySet[Tournament]:
        return visible_tournaments(self.request.user).order_by("-starts_on", "name")

    def _visible_tournament(self, *fields: str) -> Tournament:
        """`get_object()` loading only `fields` of the tournament (the others on access).

        Without a query string (nothing for the filters to do) the tournament is read by its
        slug alone and the selectors' rule for one loaded tournament decides whether it is
        visible: the same rule as `visible_tournaments`, with a simpler query to build."""
        if self.request.query_params:
            queryset = self.filter_queryset(self.get_queryset()).only(*fields)
            tournament = get_object_or_404(queryset, slug=self.kwargs["slug"])
        else:
            tournament = get_object_or_404(
                Tournament.objects.only(*fields), slug=self.kwargs["slug"]
            )
            if not can_see_tournament(self.request.user, tournament):
                raise Http404
        self.check_object_permissions(self.request, tournament)
        return tournament

    @extend_schema(
        summary="Create a tournament (the creator becomes its organiser)",
        request=TournamentInputSerializer,
        parameters=[IDEMPOTENCY_PARAMETER],
        responses={201: TournamentSerializer, **errors(400, 403, 422)},
    )
    @idempotent
    def create(self, request: Request) -> Response:
        data = parse(TournamentInputSerializer, request)
        tournament = services.create_tournament(actor=request.user, **data)
        return Response(TournamentSerializer(tournament).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        summary="Change the tie-breaks or qualification-only (organisers); the standings and "
        "the EMA report are recomputed",
        request=TournamentSettingsInputSerializer,
        responses={200: TournamentSerializer, **WRITE_ERRORS},
    )
    def partial_update(self, request: Request, slug: str) -> Response:
        tournament = self.get_object()
        data = parse(TournamentSettingsInputSerializer, request)
        tournament = services.update_tournament(actor=request.user, tournament=tournament, **data)
        return Response(TournamentSerializer(tournament).data)

    @extend_schema(
        summary="Change the tournament's status (organisers)",
        request=StatusInputSerializer,
        parameters=[IDEMPOTENCY_PARAMETER],
        responses={200: TournamentSerializer, **WRITE_ERRORS},
    )
    @action(detail=True, methods=["post"], url_path="status", url_name="status")
    @idempotent
    def set_status(self, request: Request, slug: str) -> Response:
        tournament = self.get_object()
        data = parse(StatusInputSerializer, request)
        tournament = services.set_status(
            actor=request.user,
            tournament=tournament,
            status=data["status"],
            reason=data.get("reason", ""),
        )
        return Response(TournamentSerializer(tournament).data)

    @extend_schema(
        summary="Publish the results (organisers)",
        request=None,
        parameters=[IDEMPOTENCY_PARAMETER],
        responses={200: TournamentSerializer, **WRITE_ERRORS},
    )
    @action(detail=True, methods=["post"])
    @idempotent
    def publish(self, request: Request, slug: str) -> Response:
        tournament = self.get_object()
        tournament = services.publish_results(actor=request.user, tournament=tournament)
        return Response(TournamentSerializer(tournament).data)

    @extend_schema(
        methods=["GET"],
        summary="Staff of the tournament (organisers)",
        responses={200: StaffRoleSerializer(many=True), **errors(403, 404)},
    )
    @extend_schema(
        methods=["POST"],
        summary="Add an organiser or referee (organisers)",
        request=StaffInputSerializer,
        parameters=[IDEMPOTENCY_PARAMETER],
        responses={201: StaffRoleSerializer, **WRITE_ERRORS},
    )
    @action(detail=True, methods=["get", "post"], pagination_class=None)
    @idempotent
    def staff(self, request: Request, slug: str) -> Response:
        tournament = self.get_object()
        if request.method == "GET":
            staff = tournament.staff.select_related("user").order_by("role", "user__username")
            return Response(StaffRoleSerializer(staff, many=True).data)
        data = parse(StaffInputSerializer, request)
        role = services.add_staff(
            actor=request.user, tournament=tournament, user=data["user"], role=data["role"]
        )
        return Response(StaffRoleSerializer(role).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        methods=["GET"],
        summary="Registered players",
        responses={200: RegistrationSerializer(many=True), **errors(404)},
    )
    @extend_schema(
        methods=["POST"],
        summary="Register a player (organisers); an existing EMA number reuses the player",
        request=RegistrationInputSerializer,
        parameters=[IDEMPOTENCY_PARAMETER],
        responses={201: RegistrationSerializer, **WRITE_ERRORS},
    )
    @action(detail=True, methods=["get", "post"], pagination_class=None)
    @idempotent
    def registrations(self, request: Request, slug: str) -> Response:
        tournament = self.get_object()
        if request.method == "GET":
            rows = tournament.registrations.select_related("player")
            return Response(
                RegistrationSerializer(
                    rows, many=True, context=drop_reason_context(request, tournament)
                ).data
            )
        data = parse(RegistrationInputSerializer, request)
        data["ema_number"] = data.get("ema_number") or None
        registration = services.register_player(actor=request.user, tournament=tournament, **data)
        return Response(
            RegistrationSerializer(
                registration, context=drop_reason_context(request, tournament)
            ).data,
            status=status.HTTP_201_CREATED,
        )

    @extend_schema(
        summary="Import registrations from CSV (all rows or none; errors per row)",
        request={
            "multipart/form-data": RegistrationImportInputSerializer,
            "application/json": RegistrationImportInputSerializer,
        },
        parameters=[IDEMPOTENCY_PARAMETER],
        responses={201: ImportResultSerializer, **WRITE_ERRORS},
    )
    @action(
        detail=True,
        methods=["post"],
        url_path="registrations/import",
        url_name="registrations-import",
    )
    @idempotent
    def import_registrations(self, request: Request, slug: str) -> Response:
        tournament = self.get_object()
        data = parse(RegistrationImportInputSerializer, request)
        result = services.import_registrations_csv(
            actor=request.user, tournament=tournament, text=data["text"]
        )
        body = {
            "imported": len(result.registrations),
            "registrations": RegistrationSerializer(
                result.registrations, many=True, context=drop_reason_context(request, tournament)
            ).data,
            "already_registered": result.already_registered,
            "possible_duplicates": result.possible_duplicates,
        }
        return Response(body, status=status.HTTP_201_CREATED)

    @extend_schema(
        methods=["DELETE"],
        summary="Remove a staff role (organisers)",
        request=None,
        responses={204: None, **errors(400, 403, 404)},
    )
    @action(
        detail=True,
        methods=["delete"],
        url_path=r"staff/(?P<staff_id>\d+)",
        url_name="staff-detail",
    )
    def remove_staff(self, request: Request, slug: str, staff_id: str) -> Response:
        tournament = self.get_object()
        staff = get_object_or_404(tournament.staff, pk=int(staff_id))
        services.remove_staff(actor=request.user, staff=staff)
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(
        methods=["GET"],
        summary="Sessions of the tournament",
        responses={200: SessionSerializer(many=True), **errors(404)},
    )
    @extend_schema(
        methods=["POST"],
        summary="Create the missing sessions 1..count (organisers)",
        request=SessionsInputSerializer,
        parameters=[IDEMPOTENCY_PARAMETER],
        responses={201: SessionSerializer(many=True), **WRITE_ERRORS},
    )
    @action(detail=True, methods=["get", "post"], pagination_class=None)
    @idempotent
    def sessions(self, request: Request, slug: str) -> Response:
        tournament = self.get_object()
        if request.method == "POST":
            data = parse(SessionsInputSerializer, request)
            services.create_sessions(
                actor=request.user, tournament=tournament, count=data.get("count")
            )
            sessions = SessionSerializer(tournament.sessions.all(), many=True).data
            return Response(sessions, status=status.HTTP_201_CREATED)
        return Response(SessionSerializer(tournament.sessions.all(), many=True).data)

    @extend_schema(
        methods=["GET"],
        summary="Seating plans requested so far (organisers)",
        responses={200: SeatingPlanSerializer(many=True), **errors(403, 404)},
    )
    @extend_schema(
        methods=["POST"],
        summary="Request a seating plan: 202, then poll /seating-plans/{id}/",
        request=SeatingPlanInputSerializer,
        parameters=[IDEMPOTENCY_PARAMETER],
        responses={202: SeatingPlanSerializer, **WRITE_ERRORS, **errors(503)},
    )
    @action(
        detail=True,
        methods=["get", "post"],
        url_path="seating-plans",
        url_name="seating-plans",
        pagination_class=None,
    )
    @idempotent
    def seating_plans(self, request: Request, slug: str) -> Response:
        tournament = self.get_object()
        if request.method == "GET":
            plans = tournament.seating_plans.order_by("-created_at", "-id")
            return Response(SeatingPlanSerializer(plans, many=True).data)
        data = parse(SeatingPlanInputSerializer, request)
        plan = services.request_seating_plan(actor=request.user, tournament=tournament, **data)
        plan.refresh_from_db()  # eager tasks may have finished it already
        return Response(SeatingPlanSerializer(plan).data, status=status.HTTP_202_ACCEPTED)

    @extend_schema(
        summary="Upload a seating plan as CSV (organisers); checked like a generated one",
        request={
            "multipart/form-data": CsvUploadInputSerializer,
            "application/json": CsvUploadInputSerializer,
        },
        parameters=[IDEMPOTENCY_PARAMETER],
        responses={201: SeatingPlanSerializer, **WRITE_ERRORS},
    )
    @action(
        detail=True,
        methods=["post"],
        url_path="seating-plans/upload",
        url_name="seating-plans-upload",
    )
    @idempotent
    def upload_seating_plan(self, request: Request, slug: str) -> Response:
        tournament = self.get_object()
        data = parse(CsvUploadInputSerializer, request)
        plan = services.upload_seating_plan(
            actor=request.user, tournament=tournament, text=data["text"]
        )
        return Response(SeatingPlanSerializer(plan).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        methods=["GET"],
        summary="Penalties (public, cancelled ones included)",
        responses={200: PenaltySerializer(many=True), **errors(404)},
    )
    @extend_schema(
        methods=["POST"],
        summary="Give a penalty (referees and organisers); lateness from minutes_late and "
        "seconds_late, per started minute (EMA 2025 7.2)",
        request=PenaltyInputSerializer,
        parameters=[IDEMPOTENCY_PARAMETER],
        responses={201: PenaltySerializer, **WRITE_ERRORS},
    )
    @action(detail=True, methods=["get", "post"], pagination_class=None)
    @idempotent
    def penalties(self, request: Request, slug: str) -> Response:
        tournament = self.get_object()
        if request.method == "GET":
            rows = tournament.penalties.select_related("player", "session")
            return Response(PenaltySerializer(rows, many=True).data)
        data = parse(PenaltyInputSerializer, request)
        session = None
        if data.get("session") is not None:
            session = session_by_number(tournament, data["session"])
        penalty = services.add_penalty(
            actor=request.user,
            tournament=tournament,
            player=data["player"],
            kind=data["kind"],
            points=data.get("points"),
            minutes_late=data.get("minutes_late"),
            seconds_late=data.get("seconds_late"),
            session=session,
            reason=data["reason"],
        )
        return Response(PenaltySerializer(penalty).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        summary="A score-sheet penalty for every player of a table (EMA 2025 7.5)",
        description="EMA 2025 7.5: a mistake on the score sheet that cannot be fixed costs "
        "2,000 points for each of the players. One penalty per player who played at the table "
        "(a substitute who sat in, not the player they replaced), each with its own audit "
        "entry naming the table; all or none.",
        request=TablePenaltyInputSerializer,
        parameters=[IDEMPOTENCY_PARAMETER],
        responses={201: PenaltySerializer(many=True), **WRITE_ERRORS},
    )
    @action(detail=True, methods=["post"], url_path="table-penalties", pagination_class=None)
    @idempotent
    def table_penalties(self, request: Request, slug: str) -> Response:
        tournament = self.get_object()
        data = parse(TablePenaltyInputSerializer, request)
        session = session_by_number(tournament, data["session"])
        penalties = services.add_table_penalty(
            actor=request.user,
            tournament=tournament,
            session=session,
            table_number=data["table"],
            kind=data["kind"],
            reason=data["reason"],
        )
        return Response(
            PenaltySerializer(penalties, many=True).data, status=status.HTTP_201_CREATED
        )

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
        # few seconds): the tournament is looked up as get_object does (visibility, filters,
        # object permissions), reading only what the answer needs; the rest of the row loads
        # only when the cached JSON must be built (issue 14.7).
        tournament = self._visible_tournament(*STANDINGS_FIELDS)
        tag = standings_cache.etag(tournament)
        answer: HttpResponse
        if tag in request.headers.get("If-None-Match", ""):
            answer = HttpResponseNotModified()
        else:
            # Ranked first, then unranked substitutes; rendered once per standings change.
            answer = HttpResponse(
                standings_cache.cached(
                    tournament, standings_cache.API_JSON, lambda: standings_json(tournament)
                ),
                content_type="application/json",
            )
        answer["ETag"] = tag
        answer["Cache-Control"] = "no-cache"  # phones may keep it, but revalidate each time
        return answer

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

    @extend_schema(
        summary="The tournament's audit log (its referees and organisers)",
        responses={200: AuditEntrySerializer(many=True), **errors(403, 404)},
    )
    @action(detail=True, methods=["get"])
    def audit(self, request: Request, slug: str) -> Response:
        tournament = self.get_object()
        entries = audit.audit_for_tournament(tournament.pk)
        page = self.paginate_queryset(entries)
        data: list[dict] = [dict(e) for e in AuditEntrySerializer(page, many=True).data]
        if not roles.is_organiser(request.user, tournament):
            data = [redact_private_reasons(entry) for entry in data]
        return self.get_paginated_response(data)


class RegistrationViewSet(_PermissionsByAction, mixins.RetrieveModelMixin, ServiceViewSet):
    serializer_class = RegistrationSerializer
    permission_classes = [IsTournamentOrganiser]

    def get_queryset(self) -> QuerySet[Registration]:
        return Registration.objects.filter(
            tournament__in=visible_tournaments(self.request.user).values("pk")
        ).select_related("player", "tournament")

    def private_view(self, registration: Registration) -> dict:
        context = drop_reason_context(self.request, registration.tournament)
        return dict(RegistrationSerializer(registration, context=context).data)

    @extend_schema(summary="One registration (the drop reason only for organisers)")
    def retrieve(self, request: Request, pk: str) -> Response:
        return Response(self.private_view(self.get_object()))

    @extend_schema(
        summary="Drop a player from the tournament (organisers)",
        request=ReasonInputSerializer,
        parameters=[IDEMPOTENCY_PARAMETER],
        responses={200: RegistrationSerializer, **WRITE_ERRORS},
    )
    @action(detail=True, methods=["post"])
    @idempotent
    def drop(self, request: Request, pk: str) -> Response:
        registration = self.get_object()
        data = parse(ReasonInputSerializer, request)
        result = services.drop_player(
            actor=request.user, registration=registration, reason=data["reason"]
        )
        registration = result if isinstance(result, Registration) else registration
        registration.refresh_from_db()
        return Response(self.private_view(registration))

    @extend_schema(
        summary="Disqualify a player (organisers; EMA 2025 6.12)",
        description="EMA 2025 6.12: cheating, or further repeated obstruction. The player is "
        "dropped (never seated again) and shown unranked in the standings and left out of the "
        "EMA file; `seats_to_replace` lists the seats a substitute must take (EMA 2025 7.3). "
        "Undone by `reinstate`.",
        request=ReasonInputSerializer,
        parameters=[IDEMPOTENCY_PARAMETER],
        responses={200: DisqualificationSerializer, **WRITE_ERRORS},
    )
    @action(detail=True, methods=["post"])
    @idempotent
    def disqualify(self, request: Request, pk: str) -> Response:

        registration = self.get_object()
        data = parse(ReasonInputSerializer, request)
        registration = services.disqualify_player(
            actor=request.user, registration=registration, reason=data["reason"]
        )
        registration.refresh_from_db()
        return Response(
            {**self.private_view(registration), "seats_to_replace": seats_to_replace(registration)}
        )

    @extend_schema(
        summary="Take a dropped player back (organisers)",
        request=OptionalReasonInputSerializer,
        parameters=[IDEMPOTENCY_PARAMETER],
        responses={200: RegistrationSerializer, **WRITE_ERRORS},
    )
    @action(detail=True, methods=["post"])
    @idempotent
    def reinstate(self, request: Request, pk: str) -> Response:
        registration = self.get_object()
        data = parse(OptionalReasonInputSerializer, request)
        services.reinstate_player(
            actor=request.user, registration=registration, reason=data["reason"]
        )
        registration.refresh_from_db()
        return Response(self.private_view(registration))


class SessionViewSet(mixins.RetrieveModelMixin, ServiceViewSet):
    serializer_class = SessionSerializer
    permission_classes = [IsTournamentOrganiser]

    def get_queryset(self) -> QuerySet[Session]:
        return Session.objects.filter(
            tournament__in=visible_tournaments(self.request.user).values("pk")
        )

    def _answer(self, session: Session) -> Response:
        session.refresh_from_db()
        return Response(SessionSerializer(session).data)

    @extend_schema(
        summary="Start the session (organisers)",
        request=None,
        parameters=[IDEMPOTENCY_PARAMETER],
        responses={200: SessionSerializer, **WRITE_ERRORS},
    )
    @action(detail=True, methods=["post"])
    @idempotent
    def start(self, request: Request, pk: str) -> Response:
        session = self.get_object()
        services.start_session(actor=request.user, session=session)
        return self._answer(session)

    @extend_schema(
        summary="Close the session (organisers; refused while games are unfinished)",
        request=None,
        parameters=[IDEMPOTENCY_PARAMETER],
        responses={200: SessionSerializer, **WRITE_ERRORS},
    )
    @action(detail=True, methods=["post"])
    @idempotent
    def close(self, request: Request, pk: str) -> Response:
        session = self.get_object()
        services.close_session(actor=request.user, session=session)
        return self._answer(session)

    @extend_schema(
        summary="Reopen a closed session (organisers; with a reason)",
        request=ReasonInputSerializer,
        parameters=[IDEMPOTENCY_PARAMETER],
        responses={200: SessionSerializer, **WRITE_ERRORS},
    )
    @action(detail=True, methods=["post"])
    @idempotent
    def reopen(self, request: Request, pk: str) -> Response:
        session = self.get_object()
        data = parse(ReasonInputSerializer, request)
        services.reopen_session(actor=request.user, session=session, reason=data["reason"])
        return self._answer(session)

    @extend_schema(
        summary="Swap two players' seats in this session (organisers)",
        request=SwapInputSerializer,
        parameters=[IDEMPOTENCY_PARAMETER],
        responses={200: TableSerializer(many=True), **WRITE_ERRORS},
    )
    @action(detail=True, methods=["post"])
    @idempotent
    def swap(self, request: Request, pk: str) -> Response:
        session = self.get_object()
        data = parse(SwapInputSerializer, request)
        services.swap_seats(actor=request.user, session=session, a=data["a"], b=data["b"])
        return Response(TableSerializer(_tables(session), many=True).data)

    @extend_schema(
        summary="Tables of the session with their seats and game (filter ?player=<id>)",
        parameters=[OpenApiParameter("player", OpenApiTypes.INT, description="Player id")],
        responses={200: TableSerializer(many=True), **errors(404)},
    )
    @action(detail=True, methods=["get"], pagination_class=None)
    def tables(self, request: Request, pk: str) -> Response:
        session = self.get_object()
        tables = _tables(session)
        player = request.query_params.get("player")
        if player:
            if not player.isdigit() or int(player) > ID_BOUNDS["max_value"]:
                raise ValidationFailed("player must be a player id.", field="player")
            tables = tables.filter(seats__player_id=int(player))
        return Response(TableSerializer(tables, many=True).data)

    @extend_schema(
        summary="Where do I sit: the logged-in player's table in this session",
        responses={200: TableSerializer, **errors(403, 404)},
    )
    @action(detail=True, methods=["get"], url_path="my-table", url_name="my-table")
    def my_table(self, request: Request, pk: str) -> Response:
        session = self.get_object()
        me = player_of(request.user)
        if me is None:
            self.permission_denied(request, message="Log in with a user linked to a player.")
        table = get_object_or_404(_tables(session), seats__player=me)
        return Response(TableSerializer(table).data)


def _tables(session: Session) -> QuerySet[Table]:
    return (
        Table.objects.filter(session=session)
        .select_related("session", "game")
        .prefetch_related("seats__player")
        .order_by("number")
    )


class TableFilter(django_filters.FilterSet):
    tournament = django_filters.CharFilter(field_name="session__tournament__slug")
    session = django_filters.NumberFilter(field_name="session__number", **ID_BOUNDS)
    player = django_filters.NumberFilter(field_name="seats__player_id", distinct=True, **ID_BOUNDS)

    class Meta:
        model = Table
        fields = ["tournament", "session", "player"]


@extend_schema_view(
    list=extend_schema(summary="Tables and seats (filter by tournament, session, player)"),
    retrieve=extend_schema(summary="One table", responses={200: TableSerializer, **errors(404)}),
)
class TableViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, ServiceViewSet):
    serializer_class = TableSerializer
    filterset_class = TableFilter

    def get_queryset(self) -> QuerySet[Table]:
        return (
            Table.objects.filter(
                session__tournament__in=visible_tournaments(self.request.user).values("pk")
            )
            .select_related("session", "game")
            .prefetch_related("seats__player")
            .order_by("session__tournament_id", "session__number", "number")
        )


class SeatingPlanViewSet(mixins.RetrieveModelMixin, ServiceViewSet):
    """A requested plan: poll status, progress and quality; apply it when done."""

    serializer_class = SeatingPlanSerializer
    permission_classes = [OrganiserOnly]

    def get_queryset(self) -> QuerySet[SeatingPlan]:
        return SeatingPlan.objects.filter(
            tournament__in=visible_tournaments(self.request.user).values("pk")
        )

    @extend_schema(
        summary="Apply the plan: create tables, seats and games from `from_session` on",
        request=ApplyPlanInputSerializer,
        parameters=[IDEMPOTENCY_PARAMETER],
        responses={200: SessionSerializer(many=True), **WRITE_ERRORS},
    )
    @action(detail=True, methods=["post"])
    @idempotent
    def apply(self, request: Request, pk: str) -> Response:
        plan = self.get_object()
        data = parse(ApplyPlanInputSerializer, request)
        sessions = services.apply_seating_plan(
            actor=request.user, plan=plan, from_session=data.get("from_session")
        )
        return Response(SessionSerializer(sessions, many=True).data)


class PenaltyViewSet(mixins.RetrieveModelMixin, ServiceViewSet):
    serializer_class = PenaltySerializer
    permission_classes = [IsTournamentReferee]

    def get_queryset(self) -> QuerySet[Penalty]:
        return Penalty.objects.filter(
            tournament__in=visible_tournaments(self.request.user).values("pk")
        ).select_related("player", "session")

    @extend_schema(
        summary="Cancel a penalty (referees and organisers; with a reason)",
        request=ReasonInputSerializer,
        parameters=[IDEMPOTENCY_PARAMETER],
        responses={200: PenaltySerializer, **WRITE_ERRORS},
    )
    @action(detail=True, methods=["post"])
    @idempotent
    def cancel(self, request: Request, pk: str) -> Response:
        penalty = self.get_object()
        data = parse(ReasonInputSerializer, request)
        services.cancel_penalty(actor=request.user, penalty=penalty, reason=data["reason"])
        penalty.refresh_from_db()
        return Response(PenaltySerializer(penalty).data)
