"""REST API v1: every service reachable with the right permissions (see docs/api.md)."""

from django.urls import URLPattern, URLResolver, include, path

from config.views import ApiRootView

app_name = "api"

urlpatterns: list[URLPattern | URLResolver] = [
    path("", ApiRootView.as_view(), name="root"),
    path("", include("club.api.urls")),
    path("", include("tournaments.api.urls")),
    path("", include("scoring.api.urls")),
]
