"""Tile evaluation over the API: yaku, han, fu and payment of a winning hand; writes nothing."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from core.api.base import ServiceAPIView, errors, parse
from scoring.selectors import evaluate_tiles

from ..serializers import TileEvaluateInputSerializer, TileEvaluationSerializer
from .base import TILES_EXAMPLE


class TileEvaluateView(ServiceAPIView):
    """Evaluate a winning hand from its tiles (yaku, han, fu, payment); writes nothing."""

    permission_classes = [AllowAny]

    @extend_schema(
        summary="Evaluate a hand from its tiles",
        request=TileEvaluateInputSerializer,
        examples=[TILES_EXAMPLE],
        responses={200: TileEvaluationSerializer, **errors(400)},
    )
    def post(self, request: Request) -> Response:
        data = parse(TileEvaluateInputSerializer, request)
        return Response(evaluate_tiles(data))
