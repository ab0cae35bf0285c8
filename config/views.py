from django.http import HttpRequest, HttpResponse, HttpResponsePermanentRedirect, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from drf_spectacular.views import SpectacularSwaggerView

from config.health import health_report


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html")


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
