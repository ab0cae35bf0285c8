"""Seating plans over the API: a tournament's plans (requested: 202, then poll), an uploaded
plan, and applying a plan.
"""

from __future__ import annotations

from django.db.models import QuerySet
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, status
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from core.api.base import ServiceViewSet, errors, parse
from core.idempotency import IDEMPOTENCY_PARAMETER, idempotent
from tournaments import services
from tournaments.api.permissions import OrganiserOnly
from tournaments.api.serializers import (
    ApplyPlanInputSerializer,
    CsvUploadInputSerializer,
    SeatingPlanInputSerializer,
    SeatingPlanSerializer,
    SessionSerializer,
)
from tournaments.api.views.common import WRITE_ERRORS, TournamentResource
from tournaments.models import SeatingPlan
from tournaments.selectors import visible_tournaments


class TournamentSeatingPlansViewSet(TournamentResource):
    permission_classes = [OrganiserOnly]

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
