"""Players and clubs over the API, and token login. Views parse, call a service, serialize."""

from __future__ import annotations

import json
from typing import Any

import django_filters
from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import mixins, status
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.decorators import action
from rest_framework.exceptions import ValidationError
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.permissions import BasePermission, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from club import services
from club.models import Club
from core import names
from core.api.base import ServiceViewSet, errors, parse
from core.api.permissions import (
    CanCreatePlayers,
    CanEditPlayer,
    IsAuthenticatedForWrites,
    IsSiteAdmin,
)
from core.api.serializers import PlayerSerializer
from core.idempotency import idempotent
from core.limits import BoundedJSONParser, upload_problem
from core.lockout import lockout_message, retry_after_seconds
from core.models import ApiToken, Player
from core.tokens import issue_token, revoke_token

from .permissions import IsClubAdmin
from .serializers import (
    ApiTokenSerializer,
    ClubInputSerializer,
    ClubNightInputSerializer,
    ClubNightSerializer,
    ClubSerializer,
    LeagueInputSerializer,
    LeagueSerializer,
    MembershipInputSerializer,
    MembershipSerializer,
    NightSeatingInputSerializer,
    OnlineImportInputSerializer,
    PlayerInputSerializer,
    PlayerUpdateInputSerializer,
    TokenSerializer,
)


class PlayerFilter(django_filters.FilterSet):
    search = django_filters.CharFilter(
        method="filter_search", label="Name or EMA number (part of it)"
    )
    ema_number = django_filters.CharFilter()
    country = django_filters.CharFilter()
    club = django_filters.CharFilter(field_name="memberships__club__slug", distinct=True)

    class Meta:
        model = Player
        fields = ["search", "ema_number", "country", "club"]

    def filter_search(self, queryset: QuerySet[Player], name: str, value: str) -> QuerySet[Player]:
        """Every word in the name (case and accents ignored: "zoe muller" finds "Zoë Müller")
        or the start of the EMA number."""
        words = value.split()
        if not words:
            return queryset
        ids = [
            pk
            for pk, first, last, ema in queryset.values_list(
                "pk", "first_name", "last_name", "ema_number"
            )
            if all(
                names.matches(word, f"{first} {last}") or (ema or "").startswith(word)
                for word in words
            )
        ]
        return queryset.filter(pk__in=ids)


@extend_schema_view(
    list=extend_schema(summary="Players (search by name or EMA number)"),
    retrieve=extend_schema(summary="One player", responses={200: PlayerSerializer, **errors(404)}),
)
class PlayerViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, ServiceViewSet):
    queryset = Player.objects.all().order_by("last_name", "first_name", "id")
    serializer_class = PlayerSerializer
    filterset_class = PlayerFilter

    def get_permissions(self) -> list[BasePermission]:
        if self.action == "create":
            return [CanCreatePlayers()]
        return [CanEditPlayer()]

    @extend_schema(
        summary="Create a player (organisers, club admins, site admins)",
        request=PlayerInputSerializer,
        responses={201: PlayerSerializer, **errors(400, 403, 422)},
    )
    @idempotent
    def create(self, request: Request) -> Response:
        data = parse(PlayerInputSerializer, request)
        player = services.register_player(actor=request.user, **data)
        return Response(PlayerSerializer(player).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        summary="Update a player (own profile; site admins)",
        request=PlayerUpdateInputSerializer,
        responses={200: PlayerSerializer, **errors(400, 403, 404)},
    )
    def partial_update(self, request: Request, pk: str) -> Response:
        player = self.get_object()
        data = parse(PlayerUpdateInputSerializer, request)
        player = services.update_player(actor=request.user, player=player, **data)
        return Response(PlayerSerializer(player).data)

    @extend_schema(
        summary="Replace a player's details",
        request=PlayerInputSerializer,
        responses={200: PlayerSerializer, **errors(400, 403, 404)},
    )
    def update(self, request: Request, pk: str) -> Response:
        player = self.get_object()
        data = parse(PlayerInputSerializer, request)
        player = services.update_player(actor=request.user, player=player, **data)
        return Response(PlayerSerializer(player).data)


class ClubViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, ServiceViewSet):
    """Clubs, their members, nights and leagues. Club admins add nights, leagues, members."""

    queryset = Club.objects.all().order_by("name")
    serializer_class = ClubSerializer
    lookup_field = "slug"
    filterset_fields = ["country", "city"]

    def get_permissions(self) -> list[BasePermission]:
        if self.action == "create":
            return [IsSiteAdmin()]
        if self.action == "online_import":
            # The service checks who may import (a club organiser or a player at the table).
            return [IsAuthenticatedForWrites()]
        return [IsClubAdmin()]

    @extend_schema(
        summary="Create a club (site admins)",
        request=ClubInputSerializer,
        responses={201: ClubSerializer, **errors(400, 403, 422)},
    )
    @idempotent
    def create(self, request: Request) -> Response:
        data = parse(ClubInputSerializer, request)
        club = services.create_club(actor=request.user, **data)
        return Response(ClubSerializer(club).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        methods=["GET"],
        summary="Members of the club",
        responses={200: MembershipSerializer(many=True)},
    )
    @extend_schema(
        methods=["POST"],
        summary="Add a member (club admins)",
        request=MembershipInputSerializer,
        responses={201: MembershipSerializer, **errors(400, 403, 404, 422)},
    )
    @action(detail=True, methods=["get", "post"], pagination_class=None)
    @idempotent
    def members(self, request: Request, slug: str) -> Response:
        club = self.get_object()
        if request.method == "POST":
            data = parse(MembershipInputSerializer, request)
            membership = services.add_member(actor=request.user, club=club, **data)
            return Response(MembershipSerializer(membership).data, status=status.HTTP_201_CREATED)
        memberships = club.memberships.select_related("player").order_by(
            "player__last_name", "player__first_name"
        )
        return Response(MembershipSerializer(memberships, many=True).data)

    @extend_schema(
        methods=["GET"], summary="Club nights", responses={200: ClubNightSerializer(many=True)}
    )
    @extend_schema(
        methods=["POST"],
        summary="Add a club night (club admins)",
        request=ClubNightInputSerializer,
        responses={201: ClubNightSerializer, **errors(400, 403, 404, 422)},
    )
    @action(detail=True, methods=["get", "post"], pagination_class=None)
    @idempotent
    def nights(self, request: Request, slug: str) -> Response:
        club = self.get_object()
        if request.method == "GET":
            return Response(ClubNightSerializer(club.nights.all(), many=True).data)
        data = parse(ClubNightInputSerializer, request)
        night = services.create_club_night(actor=request.user, club=club, **data)
        return Response(ClubNightSerializer(night).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        summary="Seat a round of a club night in tables of 4 and 3 (club admins)",
        request=NightSeatingInputSerializer,
        responses={201: OpenApiTypes.OBJECT, **errors(400, 403, 404, 422)},
    )
    @action(detail=True, methods=["post"], url_path=r"nights/(?P<night_id>[0-9]+)/seat")
    @idempotent
    def seat_night(self, request: Request, slug: str, night_id: str) -> Response:
        club = self.get_object()
        night = get_object_or_404(club.nights.all(), pk=int(night_id))
        data = parse(NightSeatingInputSerializer, request)
        seating = services.seat_club_night(
            actor=request.user, night=night, players=data["players"], seed=data.get("seed")
        )
        body = {
            "games": [
                {
                    "id": g.pk,
                    "ruleset": g.ruleset,
                    "players": [s.player_id for s in g.seats.order_by("seat")],
                }
                for g in seating.games
            ],
            "sitting_out": [p.pk for p in seating.sitting_out],
            "message": seating.message,
            "repeats": seating.repeats,
        }
        return Response(body, status=status.HTTP_201_CREATED)

    @extend_schema(
        summary="Import an online game log (Tenhou, Mahjong Soul) into a club night",
        description=(
            "Names not mapped before are refused with 400, field `players`, `errors` listing "
            "each name and seat: send them again in `players`. The answer holds the game and "
            "how our engine's replay compared with the points the site paid (`comparison`: "
            "`ok`, `hands`, `matching`, `mismatches`, `final`)."
        ),
        request=OnlineImportInputSerializer,
        responses={201: OpenApiTypes.OBJECT, **errors(400, 403, 404, 422)},
    )
    @action(detail=True, methods=["post"], url_path="online-import", url_name="online-import")
    @idempotent
    def online_import(self, request: Request, slug: str) -> Response:
        club = self.get_object()
        upload = request.FILES.get("log")
        problem = upload_problem(upload, services.online.MAX_LOG_BYTES) if upload else None
        if problem:  # seen while it streamed in (issue 16.8)
            raise ValidationError({"log": [problem]})
        if upload is not None:
            raw = request.data.dict() if hasattr(request.data, "dict") else dict(request.data)
            players = raw.get("players") or "{}"
            try:
                mapping = json.loads(players) if isinstance(players, str) else players
            except json.JSONDecodeError:
                raise ValidationError({"players": ["players must be a JSON object."]}) from None
            data = parse(
                OnlineImportInputSerializer,
                request,
                {"log": "-", "players": mapping, "date": raw.get("date") or None},
            )
            data["log"] = upload.read(services.online.MAX_LOG_BYTES + 1)
        else:
            data = parse(OnlineImportInputSerializer, request)
        done = services.import_online_log(
            actor=request.user,
            club=club,
            data=data["log"],
            players=data["players"],
            date=data.get("date"),
        )
        return Response(done.to_dict(), status=status.HTTP_201_CREATED)

    @extend_schema(methods=["GET"], summary="Leagues", responses={200: LeagueSerializer(many=True)})
    @extend_schema(
        methods=["POST"],
        summary="Add a league (club admins)",
        request=LeagueInputSerializer,
        responses={201: LeagueSerializer, **errors(400, 403, 404, 422)},
    )
    @action(detail=True, methods=["get", "post"], pagination_class=None)
    @idempotent
    def leagues(self, request: Request, slug: str) -> Response:
        club = self.get_object()
        if request.method == "GET":
            return Response(LeagueSerializer(club.leagues.all(), many=True).data)
        data = parse(LeagueInputSerializer, request)
        league = services.create_league(actor=request.user, club=club, **data)
        return Response(LeagueSerializer(league).data, status=status.HTTP_201_CREATED)


class TokenView(ObtainAuthToken):
    """POST username and password; get the API token (send it as `Authorization: Token ...`)."""

    # ObtainAuthToken names its own parsers: use the bounded JSON one (issue 16.3).
    parser_classes = (FormParser, MultiPartParser, BoundedJSONParser)

    @extend_schema(
        summary="Obtain an API token",
        responses={200: TokenSerializer, **errors(400, 429)},
    )
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        try:
            serializer = self.get_serializer(data=request.data)
            serializer.is_valid(raise_exception=True)
            data = request.data if isinstance(request.data, dict) else {}
            name = str(data.get("name") or request.headers.get("User-Agent") or "")
            token, key = issue_token(serializer.validated_data["user"], name=name)
            return Response({"token": key, "id": token.pk, "expires_at": token.expires_at})
        except ValidationError:
            # django-axes marks the request it refused (or just locked); DRF alone would say 400.
            if not getattr(request, "axes_locked_out", False):
                raise
            body = {"field": "username", "message": lockout_message(request._request), "errors": []}
            response = Response(body, status=status.HTTP_429_TOO_MANY_REQUESTS)
            response["Retry-After"] = str(retry_after_seconds(request._request))
            return response


class ApiTokenViewSet(mixins.ListModelMixin, mixins.DestroyModelMixin, ServiceViewSet):
    """The logged-in user's API tokens: list them, revoke one (issue 16.5)."""

    serializer_class = ApiTokenSerializer
    permission_classes = [IsAuthenticated]
    pagination_class = None

    def get_queryset(self) -> QuerySet[ApiToken]:
        return ApiToken.objects.filter(user_id=int(self.request.user.pk or 0))

    @extend_schema(summary="My API tokens", responses={200: ApiTokenSerializer(many=True)})
    def list(self, request: Request) -> Response:
        current = request.auth.pk if isinstance(request.auth, ApiToken) else None
        rows = [
            {
                "id": t.pk,
                "name": t.name,
                "prefix": t.prefix,
                "created_at": t.created_at,
                "expires_at": t.expires_at,
                "current": t.pk == current,
            }
            for t in self.get_queryset()
        ]
        return Response(ApiTokenSerializer(rows, many=True).data)

    @extend_schema(summary="Revoke one of my API tokens", responses={204: None, **errors(404)})
    def destroy(self, request: Request, pk: str) -> Response:
        token = self.get_object()  # another user's token is 404
        revoke_token(actor=request.user, token=token)
        return Response(status=status.HTTP_204_NO_CONTENT)
