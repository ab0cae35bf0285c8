"""Referee calls over the API (issue 35.2): a table calls (no login needed), staff read a
tournament's calls, a referee acknowledges and closes them."""

from __future__ import annotations

from django.db.models import QuerySet
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.decorators import action
from rest_framework.permissions import AllowAny, BasePermission
from rest_framework.request import Request
from rest_framework.response import Response

from core.api.base import ServiceViewSet, errors, parse
from core.errors import PermissionDenied
from tournaments import roles
from tournaments.api.referee_call_serializers import (
    RefereeCallInputSerializer,
    RefereeCallSerializer,
    TableExtendInputSerializer,
    TableTimeSerializer,
)
from tournaments.api.views.common import TournamentResource
from tournaments.clock import session_clock, table_signal_at
from tournaments.models import RefereeCall, Table
from tournaments.selectors import visible_tournaments
from tournaments.services import referee_calls
from tournaments.services.table_time import extend_table


class TableRefereeCallsViewSet(ServiceViewSet):
    queryset = Table.objects.none()

    def get_permissions(self) -> list[BasePermission]:
        return [AllowAny()]  # the players at the table call without a login

    def get_queryset(self) -> QuerySet[Table]:
        return Table.objects.filter(
            session__tournament__in=visible_tournaments(self.request.user).values("pk")
        ).select_related("session")

    @extend_schema(
        summary="Call a referee to this table (no login needed)",
        description="201 with the new call; 200 with the call still open for the table (a "
        "double tap or a retried offline call makes no second one); 429 after "
        "REFEREE_CALLS_PER_TABLE calls from the table in 10 minutes.",
        request=RefereeCallInputSerializer,
        responses={
            201: RefereeCallSerializer,
            200: RefereeCallSerializer,
            **errors(400, 404, 429),
        },
    )
    @action(detail=True, methods=["post"], url_path="referee-calls", url_name="referee-calls")
    def referee_calls(self, request: Request, pk: str) -> Response:
        table = self.get_object()
        data = parse(RefereeCallInputSerializer, request)
        try:
            call, created = referee_calls.call_referee(
                actor=request.user, table=table, note=data["note"]
            )
        except referee_calls.TooManyCalls as refused:
            return Response(
                {**refused.as_dict(), "errors": []},
                status=status.HTTP_429_TOO_MANY_REQUESTS,
                headers={"Retry-After": "600"},
            )
        return Response(
            RefereeCallSerializer(call).data,
            status=status.HTTP_201_CREATED if created else status.HTTP_200_OK,
        )

    @extend_schema(
        summary="Give this table its own time: extra minutes or one more hand (referees)",
        description="EMA 2025 7.4 is the session's signal; a table given `minutes` has its "
        "own signal that many minutes later, and its game finishes on time only after it. "
        "`one_more_hand` records that the table may finish one more hand. Audited with the "
        "reason.",
        request=TableExtendInputSerializer,
        responses={200: TableTimeSerializer, **errors(400, 403, 404)},
    )
    @action(detail=True, methods=["post"])
    def extend(self, request: Request, pk: str) -> Response:
        table = self.get_object()
        data = parse(TableExtendInputSerializer, request)
        table = extend_table(
            actor=request.user,
            table=table,
            reason=data["reason"],
            minutes=data.get("minutes"),
            one_more_hand=data["one_more_hand"],
        )
        clock = session_clock(table.session)
        signal_at = table_signal_at(table, clock["signal_at"])
        ends_at = table_signal_at(table, clock["ends_at"])
        body = {
            "pk": table.pk,
            "number": table.number,
            "extra_minutes": table.extra_minutes,
            "one_more_hand": table.one_more_hand,
            "signal_at": signal_at,
            "ends_at": ends_at,
        }
        return Response(TableTimeSerializer(body).data)


class TournamentRefereeCallsViewSet(TournamentResource):
    def get_permissions(self) -> list[BasePermission]:
        return [AllowAny()]  # checked in the view: the tournament's referees and organisers

    @extend_schema(
        summary="Referee calls of the tournament, oldest first (referees and organisers)",
        parameters=[
            OpenApiParameter(
                "open", bool, description="1: only calls not closed (open or acknowledged)."
            )
        ],
        responses={200: RefereeCallSerializer(many=True), **errors(403, 404)},
    )
    @action(
        detail=True,
        methods=["get"],
        url_path="referee-calls",
        url_name="referee-calls",
        pagination_class=None,
        filter_backends=[],
    )
    def referee_calls(self, request: Request, slug: str) -> Response:
        tournament = self._visible_tournament("pk", "slug", "status")
        if not roles.is_referee(request.user, tournament):
            raise PermissionDenied("Only the tournament's referees and organisers see calls.")
        calls = RefereeCall.objects.filter(tournament=tournament).select_related("table__session")
        if request.query_params.get("open") in ("1", "true", "yes"):
            calls = calls.filter(status__in=referee_calls.OPEN_STATES)
        return Response(RefereeCallSerializer(calls, many=True).data)


class RefereeCallViewSet(ServiceViewSet):
    serializer_class = RefereeCallSerializer

    def get_queryset(self) -> QuerySet[RefereeCall]:
        return RefereeCall.objects.filter(
            tournament__in=visible_tournaments(self.request.user).values("pk")
        ).select_related("table__session")

    @extend_schema(
        summary="Acknowledge a call: a referee is on the way (referees)",
        request=None,
        responses={200: RefereeCallSerializer, **errors(400, 403, 404)},
    )
    @action(detail=True, methods=["post"])
    def acknowledge(self, request: Request, pk: str) -> Response:
        call = referee_calls.acknowledge_call(actor=request.user, call=self.get_object())
        return Response(RefereeCallSerializer(call).data)

    @extend_schema(
        summary="Close a call (referees)",
        request=None,
        responses={200: RefereeCallSerializer, **errors(400, 403, 404)},
    )
    @action(detail=True, methods=["post"])
    def close(self, request: Request, pk: str) -> Response:
        call = referee_calls.close_call(actor=request.user, call=self.get_object())
        return Response(RefereeCallSerializer(call).data)
