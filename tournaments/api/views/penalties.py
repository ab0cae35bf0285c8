"""Penalties over the API: a tournament's list, a penalty, a table's score-sheet penalty
(EMA 2025 7.5); cancelling one.
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
from tournaments import roles, services
from tournaments.api.permissions import IsTournamentReferee, RefereeOnly
from tournaments.api.serializers import (
    PenaltyInputSerializer,
    PenaltySerializer,
    ReasonInputSerializer,
    TablePenaltyInputSerializer,
)
from tournaments.api.views.common import WRITE_ERRORS, TournamentResource
from tournaments.models import Penalty
from tournaments.selectors import session_by_number, visible_tournaments
from tournaments.standings.selectors import public_penalties


class TournamentPenaltiesViewSet(TournamentResource):
    action_permissions = {"penalties": [IsTournamentReferee], "table_penalties": [RefereeOnly]}

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
            # Issue 32.3: the hidden sessions' penalties are the staff's while results are hidden.
            rows = public_penalties(tournament, staff=roles.is_referee(request.user, tournament.pk))
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
