"""API v1 routes of games, hands and tile evaluation."""

from django.urls import URLPattern, URLResolver, path
from rest_framework.routers import SimpleRouter

from .views import GameHandViewSet, GameViewSet, TileEvaluateView

router = SimpleRouter()
router.register("games", GameViewSet, basename="game")
# The hands of a game: the same prefix and route names (game-hands, game-hand-detail,
# game-hand-confirm), from a router of their own (one router registers a basename once).
hands = SimpleRouter()
hands.register("games", GameHandViewSet, basename="game")

urlpatterns: list[URLPattern | URLResolver] = [
    path("tiles/evaluate/", TileEvaluateView.as_view(), name="tiles-evaluate"),
    *router.urls,
    *hands.urls,
]
