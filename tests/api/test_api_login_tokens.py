"""Issue 16.4 and 16.5: login lockout behind a proxy, a per-address throttle, and API tokens
that expire, die with a password change, and are listed and revoked by their owner."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client
from django.utils import timezone

from core.models import ApiToken, AuditEntry
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

PROXY = "10.0.0.5"
LOGIN = "/accounts/login/"
TOKEN = "/api/v1/auth/token/"


@pytest.fixture(autouse=True)
def _clean(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.TRUSTED_PROXIES = ["10.0.0.0/24"]
    cache.clear()


@pytest.fixture
def referee() -> Any:
    user = UserFactory(username="referee")
    user.set_password("right-password")
    user.save()
    return user


def via_proxy(client_address: str) -> Client:
    """A browser at ``client_address`` behind the load balancer at PROXY."""
    return Client(REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=client_address)


def fail(client: Client, username: str = "referee") -> int:
    return client.post(LOGIN, {"username": username, "password": "wrong"}).status_code


# --- 16.4: lockout behind a proxy ----------------------------------------------------------


def test_an_attacker_behind_the_proxy_cannot_lock_the_referee_out(referee: Any) -> None:
    attacker = via_proxy("203.0.113.9")
    codes = [fail(attacker) for _ in range(5)]
    assert codes[-1] == 429  # the attacker's own address is locked for this account
    # The referee, behind the same load balancer, logs in (the probe: locked for 15 minutes).
    referee_browser = via_proxy("198.51.100.7")
    response = referee_browser.post(LOGIN, {"username": "referee", "password": "right-password"})
    assert response.status_code == 302
    assert referee_browser.session["_auth_user_id"] == str(referee.pk)


def test_forwarded_for_is_ignored_unless_the_connection_is_a_trusted_proxy(referee: Any) -> None:
    # A client connecting directly cannot escape its lock by inventing addresses.
    for n in range(5):
        Client(REMOTE_ADDR="203.0.113.9", HTTP_X_FORWARDED_FOR=f"192.0.2.{n}").post(
            LOGIN, {"username": "referee", "password": "wrong"}
        )
    again = Client(REMOTE_ADDR="203.0.113.9", HTTP_X_FORWARDED_FOR="192.0.2.200")
    assert again.post(LOGIN, {"username": "referee", "password": "right-password"}).status_code == (
        429
    )


def test_the_client_address_is_the_last_hop_before_the_trusted_proxies() -> None:
    from django.test import RequestFactory

    from core.lockout import client_ip

    rf = RequestFactory()
    spoofed = rf.get("/", REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR="1.1.1.1, 203.0.113.9, 10.0.0.7")
    assert client_ip(spoofed) == "203.0.113.9"  # 1.1.1.1 was written by the client itself
    assert client_ip(rf.get("/", REMOTE_ADDR="198.51.100.1", HTTP_X_FORWARDED_FOR="1.1.1.1")) == (
        "198.51.100.1"
    )
    assert client_ip(rf.get("/", REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR="junk")) == PROXY


def test_one_address_guessing_many_accounts_is_throttled(settings: Any) -> None:
    # A private cache: on CI's shared Redis another worker's cache.clear() would reset the count.
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    settings.LOGIN_THROTTLE_PER_ADDRESS = 12
    for n in range(12):
        UserFactory(username=f"user{n}")
    guesser = via_proxy("203.0.113.50")
    codes = [fail(guesser, f"user{n}") for n in range(12)]
    assert 429 not in codes  # 1 failure per account: no account lock
    blocked = guesser.post(LOGIN, {"username": "user0", "password": "x"})
    assert blocked.status_code == 429
    assert blocked["Retry-After"] == "900"
    api = Client(REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR="203.0.113.50").post(
        TOKEN, {"username": "user1", "password": "x"}
    )
    assert api.status_code == 429
    assert api.json()["field"] == "username"
    # Everyone else still logs in.
    assert fail(via_proxy("198.51.100.8"), "user0") == 200


# --- 16.5: tokens ----------------------------------------------------------------------------


def login_token(client: Client | None = None, password: str = "right-password") -> dict[str, Any]:
    client = client or Client()
    response = client.post(TOKEN, {"username": "referee", "password": password})
    assert response.status_code == 200, response.content
    return response.json()


def api(key: str) -> Client:
    return Client(HTTP_AUTHORIZATION=f"Token {key}")


def test_a_token_expires(referee: Any, settings: Any) -> None:
    body = login_token()
    assert api(body["token"]).get("/api/v1/auth/tokens/").status_code == 200
    expires = datetime.datetime.fromisoformat(body["expires_at"].replace("Z", "+00:00"))
    assert datetime.timedelta(days=29) < expires - timezone.now() <= datetime.timedelta(days=30)
    ApiToken.objects.update(expires_at=timezone.now() - datetime.timedelta(seconds=1))
    expired = api(body["token"]).get("/api/v1/auth/tokens/")
    assert expired.status_code in (401, 403)
    assert "expired" in expired.json()["detail"]


def test_a_password_change_revokes_every_token(referee: Any) -> None:
    first, second = login_token()["token"], login_token()["token"]
    assert first != second and ApiToken.objects.filter(user=referee).count() == 2
    referee.set_password("a-new-password-9")
    referee.save()
    for key in (first, second):
        assert api(key).get("/api/v1/auth/tokens/").status_code in (401, 403)
    assert ApiToken.objects.filter(user=referee).count() == 0
    # Saving the user for another reason (last login) keeps the tokens.
    third = login_token(password="a-new-password-9")["token"]
    referee.first_name = "Rita"
    referee.save()
    assert api(third).get("/api/v1/auth/tokens/").status_code == 200


def test_the_owner_lists_and_revokes_tokens_and_no_one_else_can(referee: Any) -> None:
    phone = login_token()
    laptop = login_token()
    listed = api(phone["token"]).get("/api/v1/auth/tokens/").json()
    assert [t["id"] for t in listed] == [laptop["id"], phone["id"]]
    assert [t["current"] for t in listed] == [False, True]
    assert listed[1]["prefix"] == phone["token"][:8]
    assert all("token" not in t and "key_hash" not in t for t in listed)  # never shown again
    # Another user cannot see or revoke them.
    other = UserFactory(username="other")
    other.set_password("other-password")
    other.save()
    key = Client().post(TOKEN, {"username": "other", "password": "other-password"}).json()["token"]
    assert api(key).delete(f"/api/v1/auth/tokens/{laptop['id']}/").status_code == 404
    assert len(api(key).get("/api/v1/auth/tokens/").json()) == 1
    # The owner revokes the laptop's token: it stops working at once, audited.
    assert api(phone["token"]).delete(f"/api/v1/auth/tokens/{laptop['id']}/").status_code == 204
    assert api(laptop["token"]).get("/api/v1/auth/tokens/").status_code in (401, 403)
    assert api(phone["token"]).get("/api/v1/auth/tokens/").status_code == 200
    entry = AuditEntry.objects.get(action="token.revoke")
    assert entry.actor_id == referee.pk and entry.before["prefix"] == laptop["token"][:8]
    assert laptop["token"] not in str(entry.before)


def test_only_the_hash_of_a_key_is_stored(referee: Any) -> None:
    key = login_token()["token"]
    stored = ApiToken.objects.get()
    assert key not in (stored.key_hash, stored.prefix, stored.name)
    assert len(stored.key_hash) == 64


# --- 30.6: a proxy nobody named -------------------------------------------------------------


def test_production_warns_once_when_requests_come_through_an_unnamed_proxy(
    settings: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Issue 30.6: behind a proxy without TRUSTED_PROXIES every client shares its address (six
    bad logins lock the account for everyone): production says so in the log, once."""
    import core.lockout

    settings.TRUSTED_PROXIES = []
    settings.PRODUCTION = True
    monkeypatch.setattr(core.lockout, "_proxy_warning_due", True)
    with caplog.at_level("WARNING", logger="core.lockout"):
        Client(REMOTE_ADDR=PROXY).get("/")  # no header: nothing to say
        assert not caplog.records
        for address in ("203.0.113.1", "203.0.113.2"):
            Client(REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR=address).get("/")
    warnings = [r.getMessage() for r in caplog.records if "TRUSTED_PROXIES" in r.getMessage()]
    assert len(warnings) == 1 and PROXY in warnings[0]
    # Named proxies, or a development instance: nothing to warn about.
    caplog.clear()
    for production, proxies in ((True, [PROXY]), (False, [])):
        settings.PRODUCTION, settings.TRUSTED_PROXIES = production, proxies
        monkeypatch.setattr(core.lockout, "_proxy_warning_due", True)
        with caplog.at_level("WARNING", logger="core.lockout"):
            Client(REMOTE_ADDR=PROXY, HTTP_X_FORWARDED_FOR="203.0.113.3").get("/")
    assert not [r for r in caplog.records if "TRUSTED_PROXIES" in r.getMessage()]
