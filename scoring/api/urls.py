"""API v1 routes of games, hands and tile evaluation."""

from django.urls import URLPattern, URLResolver, path
from rest_framework.routers import SimpleRouter

from .views import GameViewSet, TileEvaluateView

router = SimpleRouter()
router.register("games", GameViewSet, basename="game")

urlpatterns: list[URLPattern | URLResolver] = [
    path("tiles/evaluate/", TileEvaluateView.as_view(), name="tiles-evaluate"),
    *router.urls,
]
