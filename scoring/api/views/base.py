"""What the game API's ViewSets share: the game read for a write (locked inside an idempotent
request), its answer, the list filters by place, the request examples."""

from __future__ import annotations

from functools import cache
from typing import Any

import django_filters
from django.db import transaction
from django.db.models import QuerySet
from django.http import Http404
from drf_spectacular.utils import OpenApiExample
from rest_framework import status
from rest_framework.exceptions import PermissionDenied
from rest_framework.generics import get_object_or_404
from rest_framework.permissions import SAFE_METHODS
from rest_framework.response import Response

from core.api.base import ID_BOUNDS, ServiceViewSet, errors
from core.errors import ConflictError
from scoring import services
from scoring.models import Game
from scoring.selectors import games_for_writes, is_visible, settled_game, visible_games

from ..permissions import CanEditGame
from ..places import game_places
from ..serializers import SEATS_WITH_PLAYERS, game_payload

GAME_WRITE_ERRORS = errors(400, 403, 404, 409, 422)


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


def place_stamp() -> tuple[str, ...]:
    """The paths from Game that change what the game API shows of its place
    (scoring.api.places.GamePlaces.stamp)."""
    return game_places().stamp


class GameFilter(django_filters.FilterSet):
    """The game list's filters; those by place (`tournament`, `session`, `club_night`,
    `club`) are the apps' own (scoring.api.places.GamePlaces.filters): see `game_filter`."""

    player = django_filters.NumberFilter(field_name="seats__player_id", distinct=True, **ID_BOUNDS)
    status = django_filters.ChoiceFilter(choices=Game.Status.choices)

    class Meta:
        model = Game
        fields = ["player", "status"]


@cache
def game_filter() -> type[GameFilter]:
    """GameFilter with the filters by place of the game API's places (built on first use)."""
    filters: dict[str, Any] = game_places().filters()
    meta = type("Meta", (GameFilter.Meta,), {"fields": [*filters, *GameFilter.Meta.fields]})
    return type("GameFilter", (GameFilter,), {**filters, "Meta": meta, "__module__": __name__})


class GameViewBase(ServiceViewSet):
    """Games of tournaments and club nights: read with their summary; score entry as actions."""

    # (The schema's operation descriptions are this docstring, for every game ViewSet: the
    # split kept them as they were. Each ViewSet says what it holds in a comment.)

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

    def get_object(self) -> Game:
        if self.request.method in SAFE_METHODS:
            return super().get_object()
        # A write, checked by the cheap editor check first; the visibility query only tells 404
        # from 403 after a no. Inside a transaction (an idempotent POST) the game is read as the
        # service needs it, locked, and the service keeps it instead of reading it again.
        in_transaction = transaction.get_connection().in_atomic_block
        games = services.locked_games() if in_transaction else games_for_writes()
        user = self.request.user
        game = get_object_or_404(CanEditGame.in_query(games, user), pk=self.kwargs["pk"])
        try:
            self.check_object_permissions(self.request, game)
        except PermissionDenied:
            if not is_visible(self.request.user, game):
                raise Http404 from None
            raise
        return services.mark_locked(game) if in_transaction else game

    def conflict_state(self, error: ConflictError) -> dict[str, Any] | None:
        # The game as the winning write left it: read under its lock, so the version, seats,
        # hands and summary are one committed state (the phone rebases its queue on them).
        with settled_game(self.kwargs.get("pk")) as game:
            return game_payload(game) if game is not None else None

    def _answer(self, game: Game, code: int = status.HTTP_200_OK) -> Response:
        return Response(game_payload(game), status=code)
