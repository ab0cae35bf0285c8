"""Cuts over the API (issue 32.2): the tournament's cuts, and cutting the field."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from core.api.base import errors, parse
from core.idempotency import IDEMPOTENCY_PARAMETER, idempotent
from tournaments.api.cut_serializers import CutInputSerializer, CutSerializer
from tournaments.api.permissions import IsTournamentOrganiser
from tournaments.api.views.common import WRITE_ERRORS, TournamentResource
from tournaments.services.cuts import cut_field


class TournamentCutsViewSet(TournamentResource):
    action_permissions = {"cut": [IsTournamentOrganiser]}

    @extend_schema(
        methods=["GET"],
        summary="The tournament's cuts (public), in session order",
        responses={200: CutSerializer(many=True), **errors(404)},
    )
    @extend_schema(
        methods=["POST"],
        summary="Cut the field to its top N after a session (organisers; issue 32.2)",
        description="The standings after `after_session` decide (ties settled by the "
        "tie-breaks; `line.decided_by` says which; a tie none settles is drawn with `seed`). "
        "The qualified players alone play on: session after_session + 1 is seated with them "
        "at once (by standing or Swiss, winds by standing or drawn). The standings rank them "
        "first and the others below in their order at the cut; `carry_over` false starts "
        "the qualified from zero. A 400 names the field: `top` not a multiple of the table "
        "size or not smaller than the field, `after_session` not finished or already cut.",
        request=CutInputSerializer,
        parameters=[IDEMPOTENCY_PARAMETER],
        responses={201: CutSerializer, **WRITE_ERRORS},
    )
    @action(detail=True, methods=["get", "post"], pagination_class=None)
    @idempotent
    def cut(self, request: Request, slug: str) -> Response:
        tournament = self.get_object()
        if request.method == "GET":
            return Response(CutSerializer(tournament.cuts.all(), many=True).data)
        data = parse(CutInputSerializer, request)
        made = cut_field(actor=request.user, tournament=tournament, **data)
        return Response(CutSerializer(made).data, status=status.HTTP_201_CREATED)
