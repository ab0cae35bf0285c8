"""Sessions and tables over the API: a tournament's sessions; one session's start, close,
reopen, seat swap, tables and the player's own table; tables by tournament, session, player.
"""

from __future__ import annotations

import django_filters
from django.db.models import Q, QuerySet
from django.http import Http404
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import mixins, status
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from core.api.base import ID_BOUNDS, ServiceViewSet, errors, parse
from core.errors import ValidationFailed
from core.idempotency import IDEMPOTENCY_PARAMETER, idempotent
from core.roles import player_of
from tournaments import services
from tournaments.api.permissions import IsTournamentOrganiser
from tournaments.api.serializers import (
    ReasonInputSerializer,
    SessionSerializer,
    SessionsInputSerializer,
    SessionUpdateInputSerializer,
    SwapInputSerializer,
    TableSerializer,
    my_seat,
)
from tournaments.api.views.common import WRITE_ERRORS, TournamentResource
from tournaments.models import Session, Table
from tournaments.selectors import session_roster, visible_tournaments


class TournamentSessionsViewSet(TournamentResource):
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
        summary="Mark the session online or not (organisers; issue 32.5)",
        description="`online: true`: the session is played on Tenhou or Mahjong Soul, each "
        "table's game is imported from its log (POST /tables/{id}/online-log/). Refused for a "
        "closed session, and turning it off once a log was imported.",
        request=SessionUpdateInputSerializer,
        responses={200: SessionSerializer, **WRITE_ERRORS},
    )
    def partial_update(self, request: Request, pk: str) -> Response:
        session = self.get_object()
        data = parse(SessionUpdateInputSerializer, request)
        services.set_session_online(actor=request.user, session=session, online=data["online"])
        return self._answer(session)

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
            tables = _with_player(tables, int(player))
        return Response(TableSerializer(tables, many=True).data)

    @extend_schema(
        summary="Where do I sit: the logged-in player's table in this session",
        description="The table where the session roster has the player: the one they play "
        "(also as a substitute), or the one the plan gave them that a substitute plays (EMA "
        "2025 7.3). The answer adds `me` to the table (MySeat in the components: wind, "
        "wind_name, state seated / substitute / replaced / seat to fill, replaces, "
        "replaced_by, message) saying which, in words too.",
        responses={200: TableSerializer, **errors(403, 404)},
    )
    @action(detail=True, methods=["get"], url_path="my-table", url_name="my-table")
    def my_table(self, request: Request, pk: str) -> Response:
        session = self.get_object()
        me = player_of(request.user)
        if me is None:
            self.permission_denied(request, message="Log in with a user linked to a player.")
        roster = session_roster(session)
        seat = roster.seat_of(me.pk) or roster.planned_seat(me.pk)
        if seat is None:
            raise Http404("You have no seat in this session.")
        table = get_object_or_404(_tables(session), pk=seat.table_id)
        return Response({**TableSerializer(table).data, "me": my_seat(seat, me.pk)})


def _with_player(tables: QuerySet[Table], player_id: int) -> QuerySet[Table]:
    """The tables where the player was seated or plays as a substitute (the game's seat)."""
    return tables.filter(
        Q(seats__player_id=player_id) | Q(game__seats__player_id=player_id)
    ).distinct()


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
    player = django_filters.NumberFilter(method="filter_player", **ID_BOUNDS)

    def filter_player(self, queryset: QuerySet[Table], name: str, value: float) -> QuerySet[Table]:
        # Seated there by the plan, or playing there as a substitute (issue 31).
        return _with_player(queryset, int(value))

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
