from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponsePermanentRedirect, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from drf_spectacular.utils import extend_schema
from drf_spectacular.views import SpectacularSwaggerView
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.health import health_report


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html")


def privacy(request: HttpRequest) -> HttpResponse:
    """What this site stores about players and why (issue 35.5; docs/privacy.md)."""
    context = {
        "controller": settings.PRIVACY_CONTROLLER,
        "contact": settings.PRIVACY_CONTACT,
        "retention_days": settings.SIGNUP_EMAIL_RETENTION_DAYS,
    }
    return render(request, "privacy.html", context)


def health(request: HttpRequest) -> JsonResponse:
    """For load balancers, compose health checks and monitoring (config.health): "status" is
    "ok", "degraded" (cache, broker or worker down; still 200) or "down" (no database: 503),
    and "components" says which part is which."""
    report, status = health_report()
    response = JsonResponse(report, status=status)
    response["Cache-Control"] = "no-store"
    return response


def favicon(request: HttpRequest) -> HttpResponsePermanentRedirect:
    """Browsers ask for /favicon.ico whatever the page says: answer with the app icon.

    Resolved per request, not when the URLs load: with production's manifest storage the
    hashed name exists only after collectstatic, and `check --deploy` must run before it.
    """
    return HttpResponsePermanentRedirect(static("icons/hanchan-192.png"))


class ApiDocsView(SpectacularSwaggerView):
    """/api/docs/: Swagger UI from our own static files (drf-spectacular-sidecar, a pinned
    version), started by `static/js/api-docs.js`: nothing from a CDN and no inline script, so
    the page works under the Content-Security-Policy (issue 16, docs/security.md)."""

    template_name = "api/docs.html"


# Routes the API root lists besides the routers' collections (named "<basename>-list").
API_ROOT_EXTRAS = ("auth-token", "tiles-evaluate")


def _api_route_names(patterns: list[URLPattern | URLResolver]) -> list[str]:
    names: list[str] = []
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            names.extend(_api_route_names(pattern.url_patterns))
        elif pattern.name and (pattern.name.endswith("-list") or pattern.name in API_ROOT_EXTRAS):
            names.append(pattern.name)
    return names


@extend_schema(exclude=True)  # an index of the schema's own operations, not one of them
class ApiRootView(APIView):
    """GET /api/v1/: the API's resources, each by its path and absolute URL, plus the
    documentation and the OpenAPI schema (issue 37). Read from the URL configuration, so a
    resource added to a router is listed without touching this view."""

    permission_classes = [AllowAny]

    def get(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        # The "api" namespace's routes, as the URL configuration resolved them: config.api_urls
        # imports this view, so it is not imported here (no import circle in config).
        _prefix, api = get_resolver().namespace_dict["api"]
        root = reverse("api:root")
        resources = {}
        for name in _api_route_names(api.url_patterns):
            path = reverse(f"api:{name}")
            resources[path.removeprefix(root).strip("/")] = request.build_absolute_uri(path)
        return Response(
            {
                **dict(sorted(resources.items())),
                "docs": request.build_absolute_uri(reverse("swagger-ui")),
                "schema": request.build_absolute_uri(reverse("schema")),
            }
        )
