"""What the table enters over the API: a game's hands (enter, correct, delete the last) and,
in club play without a referee, the other players' confirmations of a hand or of the game's
paper sheet or finish."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from core.api.base import errors, parse
from core.idempotency import IDEMPOTENCY_PARAMETER, idempotent
from scoring import services

from ..serializers import (
    GameDetailSerializer,
    HandCorrectionInputSerializer,
    HandDeleteInputSerializer,
    HandInputSerializer,
    HandOutputSerializer,
    VersionInputSerializer,
)
from .base import GAME_WRITE_ERRORS, RON_EXAMPLE, GameViewBase


class GameHandViewSet(GameViewBase):
    """Games of tournaments and club nights: read with their summary; score entry as actions."""

    # `/games/<id>/hands/...` and `/games/<id>/confirm/`: hand by hand from the table (the
    # same URLs, names and schema as when they were GameViewSet's actions).

    # -- hands ----------------------------------------------------------------------------
    @extend_schema(
        methods=["GET"],
        summary="The game's hands",
        responses={200: HandOutputSerializer(many=True)},
    )
    @extend_schema(
        methods=["POST"],
        summary="Enter the next hand",
        request=HandInputSerializer,
        parameters=[IDEMPOTENCY_PARAMETER],
        examples=[RON_EXAMPLE],
        responses={201: GameDetailSerializer, **GAME_WRITE_ERRORS},
    )
    @action(detail=True, methods=["get", "post"], pagination_class=None)
    @idempotent
    def hands(self, request: Request, pk: str) -> Response:
        game = self.get_object()
        if request.method == "GET":
            return Response(HandOutputSerializer(game.hands.all(), many=True).data)
        data = parse(HandInputSerializer, request)
        game = services.enter_hand(
            actor=request.user,
            game=game,
            hand=data["hand"],
            expected_version=data["version"],
            tiles=data.get("tiles") or "",
        ).game
        return self._answer(game, status.HTTP_201_CREATED)

    @extend_schema(
        methods=["PUT"],
        summary="Correct a hand (with a reason)",
        request=HandCorrectionInputSerializer,
        responses={200: GameDetailSerializer, **errors(400, 403, 404, 409)},
    )
    @extend_schema(
        methods=["DELETE"],
        summary="Delete the last hand (with a reason)",
        request=HandDeleteInputSerializer,
        parameters=[
            OpenApiParameter("version", OpenApiTypes.INT, description="Or in the body."),
            OpenApiParameter("reason", OpenApiTypes.STR, description="Or in the body."),
        ],
        responses={200: GameDetailSerializer, **errors(400, 403, 404, 409)},
    )
    @action(
        detail=True,
        methods=["put", "delete"],
        url_path=r"hands/(?P<number>\d+)",
        url_name="hand-detail",
    )
    def hand_detail(self, request: Request, pk: str, number: str) -> Response:
        game = self.get_object()
        if request.method == "PUT":
            data = parse(HandCorrectionInputSerializer, request)
            game = services.correct_hand(
                actor=request.user,
                game=game,
                number=int(number),
                hand=data["hand"],
                expected_version=data["version"],
                reason=data["reason"],
                tiles=data.get("tiles"),
            )
            return self._answer(game)
        # DELETE: clients and proxies may drop a DELETE body, so the query string works too.
        data = parse(HandDeleteInputSerializer, request, request.data or request.query_params)
        game = services.delete_last_hand(
            actor=request.user,
            game=game,
            number=int(number),
            expected_version=data["version"],
            reason=data["reason"],
        )
        return self._answer(game)

    @extend_schema(
        summary="Confirm a hand another player at the table entered (club play, no referee)",
        request=VersionInputSerializer,
        responses={200: GameDetailSerializer, **errors(400, 403, 404, 409)},
    )
    @action(
        detail=True,
        methods=["post"],
        url_path=r"hands/(?P<number>\d+)/confirm",
        url_name="hand-confirm",
    )
    def hand_confirm(self, request: Request, pk: str, number: str) -> Response:
        game = self.get_object()
        data = parse(VersionInputSerializer, request)
        game = services.confirm_hand(
            actor=request.user, game=game, number=int(number), expected_version=data["version"]
        )
        return self._answer(game)

    @extend_schema(
        summary="Confirm the paper score sheet or the finish another player at the table "
        "entered (club play, no referee)",
        request=VersionInputSerializer,
        responses={200: GameDetailSerializer, **errors(400, 403, 404, 409)},
    )
    @action(detail=True, methods=["post"], url_path="confirm", url_name="confirm")
    def confirm(self, request: Request, pk: str) -> Response:
        game = self.get_object()
        data = parse(VersionInputSerializer, request)
        game = services.confirm_game(
            actor=request.user, game=game, expected_version=data["version"]
        )
        return self._answer(game)
