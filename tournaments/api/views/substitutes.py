"""POST /games/{id}/substitutes/: seating a substitute is a tournament's rule (EMA 2025 7.3),
so the tournament app answers it on the game's own URL, with scoring's game permissions and
answer (scoring.api.views.base.GameViewBase); scoring's game API holds no substitutes. Its
route comes before scoring's (config/api_urls.py includes tournaments first)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from core.api.base import parse
from core.idempotency import IDEMPOTENCY_PARAMETER, idempotent
from scoring.api.serializers import GameDetailSerializer
from scoring.api.views.base import GAME_WRITE_ERRORS, GameViewBase
from tournaments.services.substitutes import substitute_player

from ..serializers import SubstituteInputSerializer


class GameSubstitutesViewSet(GameViewBase):
    """Games of tournaments and club nights: read with their summary; score entry as actions."""

    # (The docstring is the game API's operation description, as on scoring's game ViewSets.)

    @extend_schema(
        summary="Seat a substitute for a tournament player (EMA 2025 7.3)",
        request=SubstituteInputSerializer,
        parameters=[IDEMPOTENCY_PARAMETER],
        responses={200: GameDetailSerializer, **GAME_WRITE_ERRORS},
    )
    @action(detail=True, methods=["post"])
    @idempotent
    def substitutes(self, request: Request, pk: str) -> Response:
        game = self.get_object()
        data = parse(SubstituteInputSerializer, request)
        game = substitute_player(
            actor=request.user,
            game=game,
            seat=data["seat"],
            substitute=data["substitute"],
            reason=data["reason"],
            from_=data["from"],
            expected_version=data["version"],
        )
        return self._answer(game)
