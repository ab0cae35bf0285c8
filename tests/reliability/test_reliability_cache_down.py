"""With the cache (Redis) down, everything still works from the database (issue 30.1).

The cache is Redis at a closed port on this machine, as settings build it from a `CACHE_URL`
(socket timeouts of 0.5 s): every cache call raises a redis ConnectionError at once. The last
test starts gunicorn with `CACHE_URL=redis://127.0.0.1:<closed port>/4` in its environment
(PostgreSQL only); it answered 500 to a bad login before the fix. Login (page
and API token, right and wrong passwords, the per-address throttle), hand entry, standings and
pages answer as with the cache up; `/health/` says "degraded". Each cache use and its behaviour
when the cache is down is listed in docs/reliability.md ("Every use of the cache"); the
standings, game and results PDF pages alone: tests/web/test_web_cache_down.py and
tests/web/test_web_results_pdf_cache.py.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from django.core.cache import cache
from django.test import Client, override_settings
from redis.exceptions import ConnectionError as RedisConnectionError

from core.tokens import issue_token
from scoring.models import Hand
from tests.factories import UserFactory, non_dealer_rons
from tests.reliability.reliability_support import Event, make_event
from tests.test_health import closed_port, redis_at

pytestmark = [pytest.mark.django_db, pytest.mark.xdist_group("reliability")]

PASSWORD = "right-pass-30"


@pytest.fixture
def cache_down() -> Iterator[None]:
    """settings.CACHES as config/settings.py builds it for CACHE_URL=redis://127.0.0.1:<closed>."""
    with override_settings(CACHES=redis_at(closed_port())):
        with pytest.raises(RedisConnectionError):
            cache.get("probe")  # the cache really is down
        yield


@pytest.fixture
def event(db: None) -> Event:
    event = make_event(tables=2, slug="cache-down-open")
    event.referee.set_password(PASSWORD)
    event.referee.save()  # a new password revokes the user's tokens: a new one
    event.tokens["referee"] = issue_token(event.referee)[1]
    return event


def test_login_page_and_api_token_work_with_the_cache_down(event: Event, cache_down: None) -> None:
    browser = Client()
    wrong = browser.post("/accounts/login/", {"username": "nobody", "password": "x"})
    assert wrong.status_code == 200  # the form again, with its error; was a 500
    right = browser.post(
        "/accounts/login/", {"username": event.referee.username, "password": PASSWORD}
    )
    assert right.status_code == 302, right.content[:500]
    assert browser.session["_auth_user_id"] == str(event.referee.pk)
    refused = Client().post("/api/v1/auth/token/", {"username": "nobody", "password": "x"})
    assert refused.status_code == 400, refused.content[:500]
    token = Client().post(
        "/api/v1/auth/token/", {"username": event.referee.username, "password": PASSWORD}
    )
    assert token.status_code == 200, token.content[:500]
    assert token.json()["token"]


def test_the_per_address_throttle_counts_in_the_database_with_the_cache_down(
    cache_down: None, settings: Any
) -> None:
    """Issue 16.4's throttle across usernames still holds: axes' attempts in the database."""
    settings.LOGIN_THROTTLE_PER_ADDRESS = 6
    for n in range(6):
        UserFactory(username=f"guessed{n}")
    guesser = Client(REMOTE_ADDR="203.0.113.77")
    codes = [
        guesser.post("/accounts/login/", {"username": f"guessed{n}", "password": "x"}).status_code
        for n in range(6)
    ]
    assert codes == [200] * 6  # one failure per account: no account lock
    assert guesser.post("/accounts/login/", {"username": "guessed0"}).status_code == 429
    api = Client(REMOTE_ADDR="203.0.113.77").post("/api/v1/auth/token/", {"username": "x"})
    assert api.status_code == 429
    # Another address logs in.
    other = UserFactory(username="elsewhere")
    other.set_password(PASSWORD)
    other.save()
    assert (
        Client(REMOTE_ADDR="198.51.100.3")
        .post("/accounts/login/", {"username": "elsewhere", "password": PASSWORD})
        .status_code
        == 302
    )


def test_hand_entry_standings_and_pages_work_with_the_cache_down(
    event: Event, cache_down: None, django_capture_on_commit_callbacks: Any
) -> None:
    game = event.games[0]
    referee = event.client()
    version = 0
    with django_capture_on_commit_callbacks(execute=True):  # the standings tasks
        for hand in non_dealer_rons(8):
            entered = referee.post(
                f"/api/v1/games/{game.pk}/hands/", {"version": version, "hand": hand}, format="json"
            )
            assert entered.status_code == 201, entered.content[:500]
            version = entered.json()["version"]
        finished = referee.post(
            f"/api/v1/games/{game.pk}/finalize/", {"version": version}, format="json"
        )
        assert finished.status_code == 200, finished.content[:500]
    assert Hand.objects.filter(game=game).count() == 8
    slug = event.tournament.slug
    standings = Client().get(f"/api/v1/tournaments/{slug}/standings/")
    assert standings.status_code == 200, standings.content[:500]
    ranked = {row["player"]["id"] for row in standings.json() if row["games"]}
    assert ranked == {seat.player_id for seat in game.seats.all()}  # the game counts
    web = Client()
    web.force_login(event.referee)
    for url in (
        "/",
        "/t/",
        f"/t/{slug}/",
        f"/t/{slug}/standings/",
        f"/t/{slug}/seating/",
        f"/games/{game.pk}/",
        f"/games/{game.pk}/entry/",
        f"/api/v1/games/{game.pk}/",
        "/api/v1/",
    ):
        response = web.get(url)
        assert response.status_code == 200, (url, response.status_code)
    health = Client().get("/health/").json()
    assert health["status"] == "degraded" and health["components"]["cache"]["status"] == "down"


@pytest.mark.django_db(transaction=True)
def test_gunicorn_started_with_cache_url_at_a_closed_port_logs_in_and_serves(
    tmp_path: Any,
) -> None:
    """The same through a real server process whose settings read CACHE_URL from the
    environment (PostgreSQL only: the process shares the test database)."""
    import json
    import urllib.error
    import urllib.request

    from tests.reliability.reliability_support import process_env, start_web, stop_process

    env = process_env(
        broker_url="", queue="unused", CACHE_URL=f"redis://127.0.0.1:{closed_port()}/4"
    )  # skips on SQLite
    event = make_event(tables=1, slug="cache-url-down")
    # The server keeps Django's hashers (the tests' MD5 is this process's only): a PBKDF2 hash,
    # with few iterations to be quick.
    hasher = PBKDF2PasswordHasher()
    event.referee.password = hasher.encode(PASSWORD, hasher.salt(), iterations=1000)
    event.referee.save()
    web, base = start_web(env, tmp_path / "web.log")

    def call(method: str, path: str, body: Any = None, token: str = "") -> tuple[int, Any]:
        request = urllib.request.Request(
            base + path,
            data=None if body is None else json.dumps(body).encode(),
            method=method,
            headers={"Content-Type": "application/json"}
            | ({"Authorization": f"Token {token}"} if token else {}),
        )
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                raw, status = response.read(), response.status
        except urllib.error.HTTPError as error:
            raw, status = error.read(), error.code
        try:
            return status, json.loads(raw or b"null")
        except ValueError:
            return status, raw

    try:
        assert call("GET", "/health/")[1]["components"]["cache"]["status"] == "down"
        wrong = call("POST", "/api/v1/auth/token/", {"username": "x", "password": "y"})
        assert wrong[0] == 400, wrong
        status, body = call(
            "POST",
            "/api/v1/auth/token/",
            {"username": event.referee.username, "password": PASSWORD},
        )
        assert status == 200, body
        game = event.games[0]
        status, body = call(
            "POST",
            f"/api/v1/games/{game.pk}/hands/",
            {"version": 0, "hand": non_dealer_rons(1)[0]},
            token=body["token"],
        )
        assert status == 201, body
        slug = event.tournament.slug
        for path in ("/", f"/t/{slug}/", f"/t/{slug}/standings/", f"/games/{game.pk}/"):
            assert call("GET", path)[0] == 200, path
        assert call("GET", f"/api/v1/tournaments/{slug}/standings/")[0] == 200
    finally:
        stop_process(web)
    assert "Traceback" not in (tmp_path / "web.log").read_text()
