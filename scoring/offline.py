"""The referee's pages as an installable web app that keeps working offline (issue 21).

Three small public resources under the referee pages' path (`/games/`), so the service worker's
scope covers `/games/referee/` and every `/games/<id>/entry/`:

- `sw.js`: the service worker (`templates/scoring/sw.js`). Its cache names carry a version: a
  hash of the worker's template and of the files it pre-caches, so a deploy that changes any of
  them installs a new worker, which drops the old caches when it activates.
- `manifest.webmanifest`: name, icons, start page (the referee's tables), scope.
- `offline/`: the page shown for a referee page never opened while online.

Hand entries made offline wait in the phone's IndexedDB (`static/js/offline.js`) and are sent
through the API with an `Idempotency-Key` (core.idempotency) and the game version they were
entered against, so a retry never applies a hand twice and a stale version is a conflict.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template.loader import get_template
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

# Static files every referee page needs, cached when the worker installs.
PRECACHED_STATIC = (
    "css/hanchan.css",
    "css/offline.css",
    "js/htmx.min.js",
    "js/offline-queue.js",
    "js/paytable.js",
    "js/scoreboard.js",
    "js/offline.js",
    "icons/hanchan-192.png",
    "icons/hanchan-512.png",
)
SW_TEMPLATE = "scoring/sw.js"
THEME_COLOR = "#1f6f4a"
BACKGROUND_COLOR = "#fbfaf6"


@cache
def cache_version() -> str:
    """12 hex digits naming this deploy's caches: the worker's source and pre-cached files."""
    digest = hashlib.sha256()
    template = get_template(SW_TEMPLATE)
    origin = getattr(getattr(template, "origin", None), "name", None)
    if origin:
        digest.update(Path(origin).read_bytes())
    for name in PRECACHED_STATIC:
        found = finders.find(name)
        path = found[0] if isinstance(found, list) else found
        digest.update(name.encode())
        if path:
            digest.update(Path(path).read_bytes())
    return digest.hexdigest()[:12]


def scope() -> str:
    """The worker's scope: the folder of `sw.js`, which holds every referee page."""
    return reverse("scoring:service_worker").rsplit("/", 1)[0] + "/"


def page_patterns() -> list[str]:
    """Regular expressions (JavaScript syntax) of the paths the worker keeps for offline use."""
    entry = reverse("scoring:entry", args=[987654321]).replace("987654321", r"\d+")
    return ["^" + reverse("scoring:referee") + "$", "^" + entry + "$"]


def add_hand_pattern() -> str:
    """The entry form's POST (JavaScript regular expression; group 1 is the game id)."""
    path = reverse("scoring:add_hand", args=[987654321])
    return "^" + path.replace("987654321", r"(\d+)") + "$"


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    precache = [static(name) for name in PRECACHED_STATIC]
    offline_url = reverse("scoring:offline")
    response = render(
        request,
        SW_TEMPLATE,
        {
            "version": cache_version(),
            "precache": json.dumps([*precache, offline_url]),
            "offline_url": json.dumps(offline_url),
            "page_patterns": json.dumps(page_patterns()),
            "add_hand_pattern": json.dumps(add_hand_pattern()),
            "queue_script": json.dumps(static("js/offline-queue.js")),
            "entry_url": json.dumps(reverse("scoring:entry", args=[987654321])),
        },
        content_type="text/javascript; charset=utf-8",
    )
    # Browsers check for a new worker on every navigation; never serve a stale one.
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
def manifest(request: HttpRequest) -> JsonResponse:
    icons = []
    for size in (192, 512):
        for purpose in ("any", "maskable"):
            icons.append(
                {
                    "src": static(f"icons/hanchan-{size}.png"),
                    "sizes": f"{size}x{size}",
                    "type": "image/png",
                    "purpose": purpose,
                }
            )
    response = JsonResponse(
        {
            "name": _("Hanchan referee"),
            "short_name": "Hanchan",
            "description": _("Enter hands at your tables, also when the hall's Wi-Fi drops."),
            "lang": get_language() or settings.LANGUAGE_CODE,
            "start_url": reverse("scoring:referee"),
            "scope": scope(),
            "display": "standalone",
            "background_color": BACKGROUND_COLOR,
            "theme_color": THEME_COLOR,
            "icons": icons,
        },
        content_type="application/manifest+json",
        json_dumps_params={"ensure_ascii": False},
    )
    return response


@require_GET
def offline_page(request: HttpRequest) -> HttpResponse:
    """Shown by the worker for a referee page that was never opened online on this phone.

    The worker keeps it from its install for whoever uses the phone next (issue 30.5): it is
    rendered as for nobody, with no user's name in it."""
    request.user = AnonymousUser()
    return render(request, "scoring/offline.html")
