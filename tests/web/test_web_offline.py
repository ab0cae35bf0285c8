"""Issue 21: the referee pages as an installable web app (manifest, service worker, offline
page) and the hooks the entry page gives the offline queue (static/js/offline.js)."""

from __future__ import annotations

import json
import re
from typing import Any

from django.test import Client

from scoring import offline


def test_service_worker_is_served_from_the_referee_pages_folder(client: Client) -> None:
    response = client.get("/games/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Cache-Control"] == "no-cache"
    body = response.content.decode()
    # Its scope (the folder it is served from) holds the table list and every entry page.
    assert offline.scope() == "/games/"
    assert "/games/referee/".startswith(offline.scope())
    # Versioned caches: the names carry this deploy's version.
    version = offline.cache_version()
    assert re.fullmatch(r"[0-9a-f]{12}", version)
    assert f'const VERSION = "{version}";' in body
    assert '"hanchan-static-" + VERSION' in body
    for name in offline.PRECACHED_STATIC:
        assert f"/static/{name}" in body
    assert '"/games/offline/"' in body
    patterns = json.loads(re.search(r"const PAGE_PATTERNS = (\[.*?\])\.map", body).group(1))
    assert [bool(re.match(p, "/games/referee/")) for p in patterns] == [True, False]
    assert [bool(re.match(p, "/games/17/entry/")) for p in patterns] == [False, True]
    assert not any(re.match(p, "/games/17/entry/hands/") for p in patterns)


def test_manifest_makes_the_referee_pages_installable(client: Client) -> None:
    response = client.get("/games/manifest.webmanifest", HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    data = json.loads(response.content)
    assert data["start_url"] == "/games/referee/"
    assert data["scope"] == "/games/"
    assert data["display"] == "standalone"
    sizes = {icon["sizes"] for icon in data["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in data["icons"]:
        assert client.get(icon["src"]).status_code == 200
    assert data["name"] and data["short_name"] == "Hanchan"


def test_offline_page_explains_what_to_do(client: Client) -> None:
    response = client.get("/games/offline/")
    assert response.status_code == 200
    assert 'id="offline-page"' in response.content.decode()


def test_entry_page_carries_the_offline_hooks(referee_client: Client, game: Any) -> None:
    response = referee_client.get(f"/games/{game.pk}/entry/")
    html = response.content.decode()
    assert '<link rel="manifest" href="/games/manifest.webmanifest">' in html
    assert 'src="/static/js/offline.js"' in html
    assert 'id="net-status"' in html
    assert 'id="offline-queue"' in html
    config = json.loads(
        re.search(r'<script id="offline-config" type="application/json">(.*?)</script>', html)
        .group(1)
        .replace("\\u0026", "&")
    )
    assert config["game"] == game.pk
    assert config["version"] == game.version
    assert config["hands"] == 0
    assert config["players"] == ["Anna Adler", "Ben Berg", "Clara Claus", "David Dorn"]
    assert config["hands_api"].replace("987654321", str(game.pk)) == (
        f"/api/v1/games/{game.pk}/hands/"
    )
    # The phone describes a hand with the server's own (translated) texts.
    assert config["strings"]["ron"] == "Ron: %(wins)s from %(loser)s"


def test_table_list_keeps_the_referees_tables(referee_client: Client, game: Any) -> None:
    html = referee_client.get("/games/referee/").content.decode()
    config = json.loads(
        re.search(
            r'<script id="offline-config" type="application/json">(.*?)</script>', html
        ).group(1)
    )
    assert config["warm"] == [f"/games/{game.pk}/entry/"]


def test_cache_version_follows_the_precached_files(monkeypatch: Any, tmp_path: Any) -> None:
    """A deploy that changes a pre-cached file gets new cache names (the old ones are deleted
    when the new worker activates)."""
    from django.contrib.staticfiles import finders

    css = tmp_path / "hanchan.css"
    css.write_text("body { color: black; }")
    real_find = finders.find
    monkeypatch.setattr(
        finders,
        "find",
        lambda name, **kw: str(css) if name == "css/hanchan.css" else real_find(name),
    )
    before = offline.cache_version.__wrapped__()
    assert offline.cache_version.__wrapped__() == before  # stable for the same files
    css.write_text("body { color: red; }")
    assert offline.cache_version.__wrapped__() != before
