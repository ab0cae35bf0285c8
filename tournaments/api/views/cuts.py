"""Cuts over the API (issue 32.2): the tournament's cuts, cutting the field, undoing the last
cut and promoting the next player in place of a finalist who dropped."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from core.api.base import errors, parse
from core.idempotency import IDEMPOTENCY_PARAMETER, idempotent
from tournaments.api.cut_serializers import (
    CutInputSerializer,
    CutPromoteInputSerializer,
    CutSerializer,
)
from tournaments.api.permissions import IsTournamentOrganiser
from tournaments.api.views.common import WRITE_ERRORS, TournamentResource
from tournaments.services.cuts import cut_field, promote_at_cut, undo_cut


class TournamentCutsViewSet(TournamentResource):
    action_permissions = {
        "cut": [IsTournamentOrganiser],
        "undo_cut": [IsTournamentOrganiser],
        "promote_at_cut": [IsTournamentOrganiser],
    }

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

    @extend_schema(
        methods=["DELETE"],
        summary="Undo the last cut (organisers)",
        description="Every player is in the field again; the sessions after the cut lose the "
        "tables the cut seated and go back to planned. 409 (field `cut`) when a later cut "
        "exists or a session after the cut has started.",
        request=None,
        parameters=[IDEMPOTENCY_PARAMETER],
        responses={204: None, **errors(400, 403, 404, 409)},
    )
    @action(
        detail=True,
        methods=["delete"],
        url_path=r"cut/(?P<cut_id>\d+)",
        url_name="cut-detail",
    )
    @idempotent
    def undo_cut(self, request: Request, slug: str, cut_id: str) -> Response:
        tournament = self.get_object()
        cut = get_object_or_404(tournament.cuts, pk=int(cut_id))
        undo_cut(actor=request.user, tournament=tournament, cut=cut)
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(
        methods=["POST"],
        summary="The next player at the cut takes a dropped finalist's place (organisers)",
        description="`replaces`: a player qualified at this cut who has dropped. The first "
        "player below the line still in the tournament qualifies in their place (and takes "
        "their seats in sessions not started yet); the dropped player is out at the cut. 400 "
        "naming `replaces` or `cut`; 409 when a later cut exists.",
        request=CutPromoteInputSerializer,
        parameters=[IDEMPOTENCY_PARAMETER],
        responses={200: CutSerializer, **errors(400, 403, 404, 409)},
    )
    @action(
        detail=True,
        methods=["post"],
        url_path=r"cut/(?P<cut_id>\d+)/promote",
        url_name="cut-promote",
    )
    @idempotent
    def promote_at_cut(self, request: Request, slug: str, cut_id: str) -> Response:
        tournament = self.get_object()
        cut = get_object_or_404(tournament.cuts, pk=int(cut_id))
        data = parse(CutPromoteInputSerializer, request)
        made = promote_at_cut(actor=request.user, tournament=tournament, cut=cut, **data)
        return Response(CutSerializer(made).data)
