"""A tournament's staff over the API: its organisers and referees (organisers only)."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from core.api.base import errors, parse
from core.idempotency import IDEMPOTENCY_PARAMETER, idempotent
from tournaments import services
from tournaments.api.permissions import OrganiserOnly
from tournaments.api.serializers import StaffInputSerializer, StaffRoleSerializer
from tournaments.api.views.common import WRITE_ERRORS, TournamentResource
from tournaments.selectors import staff_rows


class TournamentStaffViewSet(TournamentResource):
    action_permissions = {"staff": [OrganiserOnly]}

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
            return Response(StaffRoleSerializer(staff_rows(tournament), many=True).data)
        data = parse(StaffInputSerializer, request)
        role = services.add_staff(
            actor=request.user, tournament=tournament, user=data["user"], role=data["role"]
        )
        return Response(StaffRoleSerializer(role).data, status=status.HTTP_201_CREATED)

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
