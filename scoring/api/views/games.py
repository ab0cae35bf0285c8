"""Games over the API: list, read, create, import, finish, reopen, paper sheets, the record and
the audit trail. Views parse, call a service or selector, serialize."""

from __future__ import annotations

from typing import Any

from django.http import Http404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import mixins, status
from rest_framework.decorators import action
from rest_framework.permissions import BasePermission
from rest_framework.request import Request
from rest_framework.response import Response

from core import audit
from core import cache as fail_open_cache
from core.api.base import errors, parse
from core.api.permissions import IsAuthenticatedForWrites
from core.idempotency import IDEMPOTENCY_PARAMETER, idempotent
from scoring import services
from scoring.selectors import game_detail_key

from ..permissions import CanEditGame, CanReadGameAudit
from ..places import game_places
from ..serializers import (
    AuditEntrySerializer,
    FinalizeInputSerializer,
    FinalScoresInputSerializer,
    GameCreateInputSerializer,
    GameDetailSerializer,
    GameImportInputSerializer,
    GameListSerializer,
    PreviewInputSerializer,
    ReopenInputSerializer,
)
from .base import GAME_WRITE_ERRORS, PREVIEW_EXAMPLE, GameViewBase, place_stamp

GAME_DETAIL_SECONDS = 600  # a game's answer, kept per version (a new version is a new key)


class GameViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, GameViewBase):
    """Games of tournaments and club nights: read with their summary; score entry as actions."""

    # List, read, create and import games; finish, reopen, paper sheets, the record, the audit
    # trail (hands and confirmations: GameHandViewSet; substitutes, a tournament's rule:
    # tournaments.api.views.substitutes, on the same URLs).

    @extend_schema(responses={200: GameDetailSerializer, **errors(404)})
    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """A game with its hands and summary: the answer is kept per game version (and the
        seated players' names), so a phone polling an unchanged game costs two small queries."""
        key = game_detail_key(request.user, self.kwargs["pk"], place_stamp=place_stamp())
        if key is None:
            raise Http404
        data = fail_open_cache.get(key)
        if data is None:
            data = GameDetailSerializer(super().get_object()).data
            fail_open_cache.set(key, data, GAME_DETAIL_SECONDS)
        return Response(data)

    def get_serializer_class(self) -> type:
        return GameDetailSerializer if self.action == "retrieve" else GameListSerializer

    # -- create ----------------------------------------------------------------------------
    @extend_schema(
        summary="Create a club-night game",
        request=GameCreateInputSerializer,
        parameters=[IDEMPOTENCY_PARAMETER],
        responses={201: GameDetailSerializer, **errors(400, 403, 422)},
    )
    @idempotent
    def create(self, request: Request) -> Response:
        data = parse(GameCreateInputSerializer, request)
        night, places = data["club_night"], game_places()
        # Without a ruleset the club's house rules apply, overrides included.
        if "ruleset" in data:
            ruleset, overrides = data["ruleset"], data.get("rule_overrides")
        else:
            ruleset, house = places.house_rules(night)
            overrides = data.get("rule_overrides", house)
        game = services.create_game(
            actor=request.user,
            players=data["players"],
            ruleset=ruleset,
            rule_overrides=overrides,
            place=places.place("club_night", night),
            entry=data["entry"],
        )
        return self._answer(game, status.HTTP_201_CREATED)

    # -- preview, finalize, final scores, reopen ------------------------------------------------
    @extend_schema(
        summary="Payment preview of a hand (nothing is written)",
        request=PreviewInputSerializer,
        examples=[PREVIEW_EXAMPLE],
        responses={
            200: OpenApiResponse(
                OpenApiTypes.OBJECT,
                description="The hand's replay entry (round, honba, deltas, scores) "
                "with the game's `final`, `ended_by` and `next` as if it were entered. For a "
                "chombo, also `chombo`: {`seat`, `points`}: what the offender loses after uma "
                "(EMA 2025 3.4.6: 20,000), `points` null where the rules pay it at the table "
                "(then in `deltas`).",
            ),
            **errors(400, 403, 404),
        },
    )
    @action(detail=True, methods=["post"])
    def preview(self, request: Request, pk: str) -> Response:
        game = self.get_object()
        data = parse(PreviewInputSerializer, request)
        return Response(services.preview(game=game, hand=data["hand"]))

    @extend_schema(
        summary="Finish the game so its result counts",
        request=FinalizeInputSerializer,
        parameters=[IDEMPOTENCY_PARAMETER],
        responses={200: GameDetailSerializer, **GAME_WRITE_ERRORS},
    )
    @action(detail=True, methods=["post"])
    @idempotent
    def finalize(self, request: Request, pk: str) -> Response:
        game = self.get_object()
        data = parse(FinalizeInputSerializer, request)
        game = services.finalize_game(
            actor=request.user,
            game=game,
            expected_version=data["version"],
            end=data.get("end"),
            reason=data["reason"],
        )
        return self._answer(game)

    @extend_schema(
        summary="Reopen a finished game (with a reason)",
        request=ReopenInputSerializer,
        parameters=[IDEMPOTENCY_PARAMETER],
        responses={200: GameDetailSerializer, **GAME_WRITE_ERRORS},
    )
    @action(detail=True, methods=["post"])
    @idempotent
    def reopen(self, request: Request, pk: str) -> Response:
        game = self.get_object()
        data = parse(ReopenInputSerializer, request)
        game = services.reopen_game(
            actor=request.user, game=game, expected_version=data["version"], reason=data["reason"]
        )
        return self._answer(game)

    @extend_schema(
        summary="Enter the final table scores from a paper score sheet",
        request=FinalScoresInputSerializer,
        parameters=[IDEMPOTENCY_PARAMETER],
        responses={200: GameDetailSerializer, **GAME_WRITE_ERRORS},
    )
    @action(detail=True, methods=["post"], url_path="final-scores", url_name="final-scores")
    @idempotent
    def final_scores(self, request: Request, pk: str) -> Response:
        game = self.get_object()
        data = parse(FinalScoresInputSerializer, request)
        game = services.enter_final_scores(
            actor=request.user,
            game=game,
            scores=data["scores"],
            riichi_sticks_left=data["riichi_sticks_left"],
            expected_version=data["version"],
            chombos=data.get("chombo"),
        )
        return self._answer(game)

    # -- record and audit -----------------------------------------------------------------
    @extend_schema(
        summary="Export the game record (riichi-game-record/1)",
        responses={200: OpenApiResponse(OpenApiTypes.OBJECT, description="The game record.")},
    )
    @action(detail=True, methods=["get"])
    def record(self, request: Request, pk: str) -> Response:
        return Response(services.game_record(self.get_object()))

    @extend_schema(
        summary="Import a whole game record",
        request=GameImportInputSerializer,
        parameters=[IDEMPOTENCY_PARAMETER],
        responses={201: GameDetailSerializer, **errors(400, 403, 422)},
    )
    @action(detail=False, methods=["post"], url_path="import", url_name="import")
    @idempotent
    def import_record(self, request: Request) -> Response:
        data = parse(GameImportInputSerializer, request)
        kind = next((k for k in ("table", "club_night") if data.get(k)), None)
        game = services.import_game_record(
            actor=request.user,
            record=data["record"],
            players=data["players"],
            place=game_places().place(kind, data[kind]) if kind else None,
            finalize=data["finalize"],
        )
        return self._answer(game, status.HTTP_201_CREATED)

    @extend_schema(
        summary="The game's audit trail (its tournament's referees and organisers)",
        responses={200: AuditEntrySerializer(many=True), **errors(403, 404)},
    )
    @action(detail=True, methods=["get"], pagination_class=None)
    def audit(self, request: Request, pk: str) -> Response:
        game = self.get_object()
        entries = audit.audit_for_game(game.pk)
        return Response(AuditEntrySerializer(entries, many=True).data)

    def get_permissions(self) -> list[BasePermission]:
        if self.action == "audit":
            return [CanReadGameAudit()]
        if self.action in ("create", "import_record"):
            # The services check the club night or table the game is created at.
            return [IsAuthenticatedForWrites()]
        return [CanEditGame()]
