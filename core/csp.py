"""The Content-Security-Policy header (issue 16), its text built once per process (issue 14.7).

django-csp's middleware builds the policy text from the settings on every response. The
project's policy is the same on every response that asks nothing of its own (no nonce, no
per-view policy, not exempt), so for those the text built the first time is used again: a
standings revalidation, the most frequent request, spent ~10% of its CPU building it. Every
other response goes django-csp's own way. Changed settings (tests) build it afresh.
"""

from __future__ import annotations

from typing import Any

from csp.constants import HEADER, HEADER_REPORT_ONLY
from csp.middleware import CheckableLazyObject
from csp.middleware import CSPMiddleware as LibraryCSPMiddleware
from csp.utils import build_policy
from django.conf import settings
from django.core.signals import setting_changed
from django.dispatch import receiver

# What a view or decorator may set to change the policy of its own response (django-csp).
_OWN_POLICY = (
    "_csp_config",
    "_csp_update",
    "_csp_replace",
    "_csp_exempt",
    "_csp_config_ro",
    "_csp_update_ro",
    "_csp_replace_ro",
    "_csp_exempt_ro",
)
_SETTINGS = ("CONTENT_SECURITY_POLICY", "CONTENT_SECURITY_POLICY_REPORT_ONLY")
_built: dict[str, list[tuple[str, str]]] = {}


@receiver(setting_changed)
def _settings_changed(*, setting: str, **_: Any) -> None:
    if setting in (*_SETTINGS, "DEBUG"):
        _built.clear()


def _excludes_some_paths() -> bool:
    return any(
        (getattr(settings, name, None) or {}).get("EXCLUDE_URL_PREFIXES") for name in _SETTINGS
    )


class CSPMiddleware(LibraryCSPMiddleware):
    """django-csp's middleware; a response that asks nothing of its own gets the policy text
    built once (see the module's docstring)."""

    def process_response(self, request: Any, response: Any) -> Any:
        if (
            settings.DEBUG  # django-csp leaves Django's debug pages alone
            or getattr(request, "_csp_nonce", None) is not None
            or any(hasattr(response, name) for name in _OWN_POLICY)
        ):
            return super().process_response(request, response)
        headers = _built.get("plain")
        if headers is None:
            if _excludes_some_paths():
                return super().process_response(request, response)
            headers = []
            for header, report_only in ((HEADER, False), (HEADER_REPORT_ONLY, True)):
                parts = self.get_policy_parts(request, response, report_only=report_only)
                text = build_policy(
                    config=parts.config,
                    update=parts.update,
                    replace=parts.replace,
                    nonce=parts.nonce,
                    report_only=report_only,
                )
                if text:
                    headers.append((header, text))
            _built["plain"] = headers
        for header, text in headers:
            if header not in response:  # a view that wrote its own header keeps it
                response[header] = text
        # As django-csp does: a nonce asked for after the header was written is an error.
        request.csp_nonce = CheckableLazyObject(self._csp_nonce_post_response)
        return response
