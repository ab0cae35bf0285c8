import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_wsgi_application()


def _warm_up() -> None:
    """Import every URL module (and with them the views and serializers) and load the
    translation catalogs now: otherwise each web worker's first requests pay for it, half a
    second that a referee's first hand entry would wait."""
    # After get_wsgi_application() has set Django up.
    from django.conf import settings
    from django.urls import get_resolver
    from django.utils import translation

    get_resolver().url_patterns  # noqa: B018  (the attribute access imports them)
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            translation.gettext("Standings")


_warm_up()
