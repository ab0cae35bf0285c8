"""With the cache (Redis) down, everything still works from the database (issue 30.1).

The cache is Redis at a closed port on this machine, as settings build it from a `CACHE_URL`
(socket timeouts of 0.5 s): every cache call raises a redis ConnectionError at once. Login (page
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
from django.core.cache import cache
from django.test import Client, override_settings
from redis.exceptions import ConnectionError as RedisConnectionError

from core.tokens import issue_token
from scoring.models import Hand
from tests.factories import UserFactory, non_dealer_rons
from tests.reliability.reliability_support import Event, make_event
from tests.test_health import closed_port, redis_at

pytestmark = [pytest.mark.django_db, pytest.mark.xdist_group("reliability")]

PASSWORD = "right-password-30"


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
