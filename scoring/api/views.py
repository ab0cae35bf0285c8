"""Games, hands and tile evaluation over the API. Views parse, call a service, serialize.

Every write on a game takes the `version` the client last read; a stale one is 409 with the
game as it is now (`current`). POSTs honour `Idempotency-Key` (core.idempotency).
"""

from __future__ import annotations

import hashlib
from functools import cache
from typing import Any

import django_filters
from django.db import transaction
from django.db.models import QuerySet
from django.http import Http404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import mixins, status
from rest_framework.decorators import action
from rest_framework.exceptions import PermissionDenied
from rest_framework.generics import get_object_or_404
from rest_framework.permissions import SAFE_METHODS, AllowAny, BasePermission
from rest_framework.request import Request
from rest_framework.response import Response

from core import audit
from core import cache as fail_open_cache
from core.api.base import ID_BOUNDS, ServiceAPIView, ServiceViewSet, errors, parse
from core.api.permissions import IsAuthenticatedForWrites
from core.errors import ConflictError, ValidationFailed
from core.idempotency import IDEMPOTENCY_PARAMETER, idempotent
from scoring import services
from scoring.engine import load_ruleset
from scoring.models import Game, GameSeat
from scoring.policy import game_relations, game_stamp, house_rules, place_filters, policy_for
from scoring.selectors import chombo_points, visible_games
from scoring.tiles import Situation, cross_check, evaluate

from .permissions import CanEditGame, CanReadGameAudit
from .serializers import (
    SEATS_WITH_PLAYERS,
    AuditEntrySerializer,
    FinalizeInputSerializer,
    FinalScoresInputSerializer,
    GameCreateInputSerializer,
    GameDetailSerializer,
    GameImportInputSerializer,
    GameListSerializer,
    HandCorrectionInputSerializer,
    HandDeleteInputSerializer,
    HandInputSerializer,
    HandOutputSerializer,
    PreviewInputSerializer,
    ReopenInputSerializer,
    SubstituteInputSerializer,
    TileEvaluateInputSerializer,
    TileEvaluationSerializer,
    VersionInputSerializer,
    game_payload,
)

GAME_WRITE_ERRORS = errors(400, 403, 404, 409, 422)
GAME_DETAIL_SECONDS = 600  # a game's answer, kept per version (a new version is a new key)


# Request examples: shown on /api/docs/, and sent first by the schemathesis run (bench/fuzz.py),
# so the hand services get valid input and not only generated objects the engine refuses.
RON_HAND = {"outcome": "ron", "wins": [{"winner": 1, "han": 2, "fu": 30}], "loser": 2}
RON_EXAMPLE = OpenApiExample(
    "A ron for 2 han 30 fu",
    value={"version": 0, "hand": RON_HAND},
    request_only=True,
)
PREVIEW_EXAMPLE = OpenApiExample("A ron", value={"hand": RON_HAND}, request_only=True)
TILES_EXAMPLE = OpenApiExample(
    "Riichi, ron on 1s",
    value={"notation": "234567m234p2355s+1s", "riichi": True},
    request_only=True,
)


class GameFilter(django_filters.FilterSet):
    """The game list's filters; those by place (`tournament`, `session`, `club_night`,
    `club`) are the apps' own (scoring.policy.place_filters): see `game_filter`."""

    player = django_filters.NumberFilter(field_name="seats__player_id", distinct=True, **ID_BOUNDS)
    status = django_filters.ChoiceFilter(choices=Game.Status.choices)

    class Meta:
        model = Game
        fields = ["player", "status"]


@cache
def game_filter() -> type[GameFilter]:
    """GameFilter with the registered policies' filters by place (built on first use: the
    policies register in their apps' ready())."""
    filters: dict[str, Any] = place_filters()
    meta = type("Meta", (GameFilter.Meta,), {"fields": [*filters, *GameFilter.Meta.fields]})
    return type("GameFilter", (GameFilter,), {**filters, "Meta": meta, "__module__": __name__})


class GameViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, ServiceViewSet):
    """Games of tournaments and club nights: read with their summary; score entry as actions."""

    permission_classes = [CanEditGame]

    @property
    def filterset_class(self) -> type[GameFilter]:
        return game_filter()

    def get_queryset(self) -> QuerySet[Game]:
        games = visible_games(self.request.user)
        if self.action == "list":
            games = games.prefetch_related("seats__player")
        elif self.action == "retrieve":
            games = games.prefetch_related(SEATS_WITH_PLAYERS, "hands")
        return games.order_by("-created_at", "-id")

    @extend_schema(responses={200: GameDetailSerializer, **errors(404)})
    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """A game with its hands and summary: the answer is kept per game version (and the
        seated players' names), so a phone polling an unchanged game costs two small queries."""
        pk = self.kwargs["pk"]
        try:
            # Read only if visible (the one draft-visibility rule, scoring.selectors), with
            # what its place shows (scoring.policy.game_stamp).
            stamp = (
                visible_games(request.user)
                .filter(pk=int(pk))
                .values_list("version", "updated_at", *game_stamp())
                .get()
            )
        except (Game.DoesNotExist, ValueError, OverflowError):
            raise Http404 from None
        # The seats' players as the answer names them (a rename bumps no game version).
        seated = list(
            GameSeat.objects.filter(game_id=int(pk))
            .order_by("seat")
            .values_list(
                "seat", "player_id", "player__first_name", "player__last_name", "player__ema_number"
            )
        )
        stamp_of = repr((int(pk), stamp, seated)).encode()
        key = "game-detail:" + hashlib.sha256(stamp_of).hexdigest()
        data = fail_open_cache.get(key)
        if data is None:
            data = GameDetailSerializer(super().get_object()).data
            fail_open_cache.set(key, data, GAME_DETAIL_SECONDS)
        return Response(data)

    def get_object(self) -> Game:
        if self.request.method in SAFE_METHODS:
            return super().get_object()
        # A write, checked by the cheap editor check first; the visibility query only tells 404
        # from 403 after a no. Inside a transaction (an idempotent POST) the game is read as the
        # service needs it, locked, and the service keeps it instead of reading it again.
        in_transaction = transaction.get_connection().in_atomic_block
        games = (
            services.locked_games()
            if in_transaction
            else Game.objects.select_related(*game_relations()).defer("summary")
        )
        user = self.request.user
        game = get_object_or_404(CanEditGame.in_query(games, user), pk=self.kwargs["pk"])
        CanEditGame.remember(user, game)  # the editor check below needs no query of its own
        try:
            self.check_object_permissions(self.request, game)
        except PermissionDenied:
            if not visible_games(self.request.user).filter(pk=game.pk).exists():
                raise Http404 from None
            raise
        return services.mark_locked(game) if in_transaction else game

    def get_serializer_class(self) -> type:
        return GameDetailSerializer if self.action == "retrieve" else GameListSerializer

    def conflict_state(self, error: ConflictError) -> dict[str, Any] | None:
        pk = self.kwargs.get("pk")
        game = (
            Game.objects.select_related(*game_relations()).filter(pk=pk).first()
            if pk is not None
            else None
        )
        return game_payload(game) if game is not None else None

    def _answer(self, game: Game, code: int = status.HTTP_200_OK) -> Response:
        return Response(game_payload(game), status=code)

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
        night = data["club_night"]
        # Without a ruleset the club's house rules apply, overrides included.
        if "ruleset" in data:
            ruleset, overrides = data["ruleset"], data.get("rule_overrides")
        else:
            ruleset, house = house_rules(night)
            overrides = data.get("rule_overrides", house)
        game = services.create_game(
            actor=request.user,
            players=data["players"],
            ruleset=ruleset,
            rule_overrides=overrides,
            place=night,
            entry=data["entry"],
        )
        return self._answer(game, status.HTTP_201_CREATED)

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
        last = game.hands.order_by("-number").values_list("number", flat=True).first()
        if last is None or last != int(number):
            raise ValidationFailed(
                f"Only the last hand (number {last}) can be deleted; correct others instead.",
                field="number",
            )
        game = services.delete_last_hand(
            actor=request.user,
            game=game,
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
        result = services.preview(game=game, hand=data["hand"])
        hand = data["hand"]
        if isinstance(hand, dict) and hand.get("outcome") == "chombo":
            # EMA 2025 3.4.6: nothing changes hands at the table; say what it costs.
            from scoring.engine import load_ruleset

            rules = load_ruleset(game.ruleset, game.rule_overrides or None)
            result = {
                **result,
                "chombo": {"seat": hand.get("offender"), "points": chombo_points(rules)},
            }
        return Response(result)

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
        # A tournament's rule (EMA 2025 7.3): the game's app seats the substitute.
        game = policy_for(game).seat_substitute(
            actor=request.user,
            game=game,
            seat=data["seat"],
            substitute=data["substitute"],
            reason=data["reason"],
            from_=data["from"],
            expected_version=data["version"],
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
        game = services.import_game_record(
            actor=request.user,
            record=data["record"],
            players=data["players"],
            place=data.get("table") or data.get("club_night"),
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
        rules = load_ruleset(data["ruleset"], data.get("rule_overrides") or None)
        situation = Situation(
            **{
                name: data[name]
                for name in (
                    "tsumo",
                    "riichi",
                    "ippatsu",
                    "rinshan",
                    "chankan",
                    "haitei",
                    "houtei",
                    "double_riichi",
                    "tenhou",
                    "chiihou",
                    "renhou",
                    "seat_wind",
                    "round_wind",
                )
            },
            dora_indicators=tuple(data["dora_indicators"]),
            ura_indicators=tuple(data["ura_indicators"]),
        )
        evaluation = evaluate(data["notation"], rules=rules, situation=situation)
        mismatches: list[str] = []
        if any(k in data for k in ("han", "fu", "yakuman")):
            mismatches = list(
                cross_check(
                    evaluation,
                    han=data.get("han"),
                    fu=data.get("fu"),
                    yakuman=data.get("yakuman") or 0,
                )
            )
        return Response({**evaluation.to_dict(), "mismatches": mismatches})
