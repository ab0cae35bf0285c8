"""Issue 16 (finding 6): the Content-Security-Policy header on every response, and templates
that need no exception to it (no inline script, event handler or style attribute).

The browser tests (tests/browser/test_browser_csp.py and the console recorder every browser
test has) check that Chromium refuses nothing; these check the header itself and keep inline
code from coming back into a template.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.test import Client

pytestmark = pytest.mark.django_db

TEMPLATES = Path(settings.BASE_DIR) / "templates"
# PDFs are drawn by WeasyPrint on the server, never shown by a browser: their styles may stay.
BROWSER_TEMPLATES = [p for p in TEMPLATES.rglob("*.html") if "pdf" not in p.parts]

POLICY = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "object-src": "'none'",
    "frame-ancestors": "'none'",
    "base-uri": "'self'",
}


def _directives(header: str) -> dict[str, str]:
    parts = (d.strip().split(None, 1) for d in header.split(";") if d.strip())
    return {p[0]: (p[1] if len(p) > 1 else "") for p in parts}


@pytest.mark.parametrize(
    "path",
    [
        "/",
        "/t/",
        "/t/no-such-tournament/",  # a 404 page
        "/accounts/login/",
        "/api/docs/",
        "/api/schema/",
        "/api/v1/tournaments/",
        "/games/sw.js",  # the service worker runs under its own response's policy
        "/games/offline/",
        "/admin/login/",
        "/health/",
    ],
)
def test_every_response_carries_the_policy(client: Client, path: str) -> None:
    response = client.get(path)
    header = response.get("Content-Security-Policy", "")
    assert header, f"{path}: {response.status_code} without a policy"
    directives = _directives(header)
    for name, value in POLICY.items():
        assert directives.get(name) == value, (path, name, header)
    assert "unsafe-inline" not in header and "unsafe-eval" not in header


def test_a_refused_oversized_request_carries_the_policy(client: Client, settings: Any) -> None:
    """Answers of middleware that stops a request early (413) are pages too."""
    response = client.generic(
        "POST",
        "/accounts/login/",
        b"x",
        "application/x-www-form-urlencoded",
        CONTENT_LENGTH=str(settings.MAX_REQUEST_BODY_BYTES + 1),
    )
    assert response.status_code == 413
    assert "default-src 'self'" in response["Content-Security-Policy"]


def test_the_http_to_https_redirect_carries_the_policy(client: Client, settings: Any) -> None:
    """Issue 30.6: SecurityMiddleware answers the redirect before later middleware runs; the
    policy's middleware comes first, so the 301 carries it too (and HSTS is not on http)."""
    settings.SECURE_SSL_REDIRECT = True
    response = client.get("/t/", secure=False)
    assert response.status_code == 301
    assert response["Location"] == "https://testserver/t/"
    directives = _directives(response.get("Content-Security-Policy", ""))
    for name, value in POLICY.items():
        assert directives.get(name) == value, (name, response.headers)


def test_the_api_docs_page_loads_swagger_ui_from_our_static_files(client: Client) -> None:
    html = client.get("/api/docs/").content.decode()
    sources = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert any(s.endswith("swagger-ui-bundle.js") for s in sources)
    assert all(s.startswith(("/static/", "/api/")) for s in sources), sources
    assert "cdn" not in html.lower() and "<script>" not in html and "<style" not in html


@pytest.mark.parametrize("template", BROWSER_TEMPLATES, ids=lambda p: str(p.relative_to(TEMPLATES)))
def test_no_template_needs_unsafe_inline(template: Path) -> None:
    text = template.read_text()
    inline_scripts = [
        tag
        for tag in re.findall(r"<script\b[^>]*>", text)
        if "src=" not in tag and 'type="application/json"' not in tag
    ]
    assert inline_scripts == []
    assert re.findall(r"\son[a-z]+\s*=", text) == []  # onclick="..." and the like
    assert re.findall(r"\sstyle\s*=", text) == []
    assert "<style" not in text
    assert "hx-on" not in text and "js:" not in text  # htmx attributes that eval


def test_the_policy_built_once_is_the_librarys(client: Client) -> None:
    """Issue 14.7: core.csp builds the policy text once per process; it is django-csp's own
    text for the settings, on the first response and the ones after it."""
    from csp.utils import build_policy

    first = client.get("/api/v1/tournaments/")["Content-Security-Policy"]
    again = client.get("/health/")["Content-Security-Policy"]
    assert first == again == build_policy()
    assert "Content-Security-Policy-Report-Only" not in client.get("/")


def test_changed_settings_and_a_views_own_policy_are_honoured(
    client: Client, settings: Any
) -> None:
    """The text kept is built again when the policy settings change, and a response with a
    policy of its own (django-csp's decorators) goes django-csp's way."""
    from django.http import HttpResponse
    from django.test import RequestFactory

    from core.csp import CSPMiddleware

    client.get("/")  # the text is built and kept
    directives = {**settings.CONTENT_SECURITY_POLICY["DIRECTIVES"], "img-src": ["'self'"]}
    settings.CONTENT_SECURITY_POLICY = {"DIRECTIVES": directives}
    header = client.get("/")["Content-Security-Policy"]
    assert _directives(header)["img-src"] == "'self'"  # no "data:" any more

    own = HttpResponse("x")
    own._csp_update = {"img-src": ["https://example.org"]}  # type: ignore[attr-defined]
    middleware = CSPMiddleware(lambda request: own)
    answer = middleware(RequestFactory().get("/"))
    assert "https://example.org" in answer["Content-Security-Policy"]
    plain = CSPMiddleware(lambda request: HttpResponse("x"))(RequestFactory().get("/"))
    assert "https://example.org" not in plain["Content-Security-Policy"]
