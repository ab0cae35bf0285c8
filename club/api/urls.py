"""API v1 routes of players, clubs and token login."""

from django.urls import URLPattern, URLResolver, path
from rest_framework.routers import SimpleRouter

from .views import ApiTokenViewSet, ClubViewSet, PlayerViewSet, TokenView

router = SimpleRouter()
router.register("players", PlayerViewSet, basename="player")
router.register("clubs", ClubViewSet, basename="club")
router.register("auth/tokens", ApiTokenViewSet, basename="auth-tokens")

urlpatterns: list[URLPattern | URLResolver] = [
    path("auth/token/", TokenView.as_view(), name="auth-token"),
    *router.urls,
]
