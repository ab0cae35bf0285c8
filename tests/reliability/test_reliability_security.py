"""Security: login rate limiting, CSRF on the web forms, production settings (check --deploy,
secure cookies, HSTS), no secrets in the repository, and size/type limits on uploads."""

from __future__ import annotations

import json
import math
import os
import re
import secrets
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from core.models import Player
from scoring.models import Hand
from tests.reliability.reliability_support import ROOT, Event
from tournaments.models import Registration

pytestmark = pytest.mark.xdist_group("reliability")

MB = 1024 * 1024


# --- login rate limiting (django-axes: 5 failures lock out) ---------------------------------


@pytest.mark.django_db
def test_five_failed_logins_lock_the_account_out_even_with_the_right_password(
    event: Event,
) -> None:
    client = Client()
    username = event.referee.username
    for _ in range(4):
        response = client.post("/accounts/login/", {"username": username, "password": "wrong"})
        assert response.status_code == 200  # the form again, with an error
    fifth = client.post("/accounts/login/", {"username": username, "password": "wrong"})
    assert fifth.status_code == 429  # the fifth failure locks out at once
    assert "_auth_user_id" not in client.session

    locked = client.post("/accounts/login/", {"username": username, "password": "test-password"})

    assert locked.status_code == 429
    assert "_auth_user_id" not in client.session
    # A page of the site saying why and for how long (AXES_COOLOFF_TIME: 15 minutes).
    assert locked["Retry-After"] == "900"
    page = locked.content.decode()
    assert "<h1>Login locked</h1>" in page
    assert "locked after 5 failed logins. Try again in 15 minutes." in page
    other = Client(REMOTE_ADDR="10.9.8.7")  # the lock is per user and address
    assert other.post("/accounts/login/", {"username": username, "password": "test-password"})[
        "Location"
    ]


@pytest.mark.django_db
def test_four_failures_then_the_right_password_still_logs_in(event: Event) -> None:
    client = Client()
    username = event.referee.username
    for _ in range(4):
        client.post("/accounts/login/", {"username": username, "password": "wrong"})
    response = client.post("/accounts/login/", {"username": username, "password": "test-password"})
    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(event.referee.pk)


@pytest.mark.django_db
def test_api_token_login_is_rate_limited_too(event: Event) -> None:
    """The token endpoint takes a password as well: it must not be a way around the limit."""
    client = Client()
    username = event.referee.username
    url = "/api/v1/auth/token/"
    right = {"username": username, "password": "test-password"}
    assert client.post(url, right).json()["token"]  # the control: it does work
    for _ in range(5):
        response = client.post(url, {"username": username, "password": "x"})
        assert response.status_code in (400, 403, 429)
        assert "token" not in response.json()

    locked = client.post(url, right)

    # Locked out: even the right password gets no token; 429 says why and when to come back.
    assert locked.status_code == 429, locked.content
    assert locked["Retry-After"] == "900"  # AXES_COOLOFF_TIME, restarted by this attempt
    assert locked.json() == {
        "field": "username",
        "message": "This account is locked after 5 failed logins. Try again in 15 minutes.",
        "errors": [],
    }


@pytest.mark.django_db
def test_api_token_lockout_starts_with_the_failure_that_reaches_the_limit(event: Event) -> None:
    client = Client()
    url = "/api/v1/auth/token/"
    wrong = {"username": event.referee.username, "password": "x"}
    for _ in range(4):
        response = client.post(url, wrong)
        assert response.status_code == 400  # an ordinary wrong password
        assert "Retry-After" not in response

    fifth = client.post(url, wrong)

    assert fifth.status_code == 429, fifth.content
    assert fifth.json()["field"] == "username"
    assert fifth["Retry-After"] == "900"


# --- CSRF on the web forms -------------------------------------------------------------------


def hand_form(version: int = 0) -> dict[str, Any]:
    return {
        "outcome": "ron",
        "winners": ["1"],
        "loser": "2",
        "han_1": "2",
        "fu_1": "30",
        "expected_version": str(version),
    }


@pytest.mark.django_db
def test_hand_entry_form_without_csrf_token_is_refused_and_saves_nothing(event: Event) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(event.referee)
    game = event.games[0]

    response = client.post(f"/games/{game.pk}/entry/hands/", hand_form())

    assert response.status_code == 403
    assert b"CSRF" in response.content  # refused for the missing token, not a permission
    assert not Hand.objects.filter(game=game).exists()


@pytest.mark.django_db
def test_hand_entry_form_with_the_csrf_token_is_accepted(event: Event) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(event.referee)
    game = event.games[0]
    page = client.get(f"/games/{game.pk}/entry/")
    assert page.status_code == 200
    token = client.cookies["csrftoken"].value

    response = client.post(
        f"/games/{game.pk}/entry/hands/", {**hand_form(), "csrfmiddlewaretoken": token}
    )

    assert response.status_code in (200, 302), response.content[:500]
    assert Hand.objects.filter(game=game).count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("path", "data"),
    [
        ("/accounts/login/", {"username": "x", "password": "y"}),
        ("/t/{slug}/console/registrations/", {"first_name": "Aiko", "last_name": "Tanaka"}),
        ("/t/{slug}/console/penalties/", {"player": "1", "kind": "lateness"}),
        ("/t/{slug}/console/publish/", {}),
    ],
)
def test_web_forms_refuse_posts_without_csrf_token(
    event: Event, path: str, data: dict[str, str]
) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(event.organiser)
    registrations = Registration.objects.count()
    response = client.post(path.format(slug=event.tournament.slug), data)
    assert response.status_code == 403
    assert b"CSRF" in response.content  # refused for the missing token, not a permission
    assert Registration.objects.count() == registrations


@pytest.mark.django_db
def test_api_with_a_session_cookie_needs_csrf_too(event: Event) -> None:
    """Token clients need no CSRF token; a browser session on the API does."""
    client = Client(enforce_csrf_checks=True)
    client.force_login(event.referee)
    game = event.games[0]
    response = client.post(
        f"/api/v1/games/{game.pk}/hands/",
        {"version": 0, "hand": {"outcome": "draw", "tenpai": [], "riichi": []}},
        content_type="application/json",
    )
    assert response.status_code == 403
    assert b"CSRF" in response.content  # refused for the missing token, not a permission
    assert not Hand.objects.filter(game=game).exists()


# --- production settings ----------------------------------------------------------------------


def production_env(**extra: str) -> dict[str, str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if key
        not in {
            "DEBUG",
            "HANCHAN_TESTING",
            "DATABASE_URL",
            "CELERY_BROKER_URL",
            "DJANGO_ALLOW_ASYNC_UNSAFE",
        }
        and not key.startswith(("SECURE_", "PYTEST", "DJANGO_SETTINGS"))
    }
    # A fresh random key each run: nothing secret is stored anywhere.
    env.update(
        HANCHAN_ENV="production",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="hanchan.example.org",
        DJANGO_SETTINGS_MODULE="config.settings",
    )
    env.update(extra)
    return env


def run_manage(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )


def test_check_deploy_has_no_security_warnings_with_production_settings() -> None:
    result = run_manage("check", "--deploy", env=production_env())
    output = result.stdout + result.stderr
    security = re.findall(r"\(security\.[WE]\d+\)[^\n]*", output)
    assert security == [], output
    # Anything else check --deploy reports (e.g. drf_spectacular schema warnings) is for the
    # settings and API owners; it must at least not be an error.
    assert result.returncode == 0, output


def test_production_settings_use_secure_cookies_hsts_and_ssl_redirect() -> None:
    code = (
        "import json, django; django.setup(); from django.conf import settings as s; "
        "print(json.dumps({k: getattr(s, k) for k in ("
        "'DEBUG', 'SESSION_COOKIE_SECURE', 'CSRF_COOKIE_SECURE', 'SECURE_SSL_REDIRECT', "
        "'SECURE_HSTS_SECONDS', 'SECURE_HSTS_INCLUDE_SUBDOMAINS', 'SECURE_HSTS_PRELOAD', "
        "'SECURE_CONTENT_TYPE_NOSNIFF', 'X_FRAME_OPTIONS', 'SESSION_COOKIE_HTTPONLY')}))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=production_env(),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    values = json.loads(result.stdout.strip().splitlines()[-1])
    assert values["DEBUG"] is False
    assert values["SESSION_COOKIE_SECURE"] is True
    assert values["CSRF_COOKIE_SECURE"] is True
    assert values["SESSION_COOKIE_HTTPONLY"] is True
    assert values["SECURE_SSL_REDIRECT"] is True
    assert values["SECURE_HSTS_SECONDS"] >= 31536000
    assert values["SECURE_HSTS_INCLUDE_SUBDOMAINS"] is True
    assert values["SECURE_CONTENT_TYPE_NOSNIFF"] is True
    assert values["X_FRAME_OPTIONS"] == "DENY"


def test_production_refuses_to_start_without_a_secret_key() -> None:
    env = production_env()
    del env["SECRET_KEY"]
    result = run_manage("check", env=env)
    assert result.returncode != 0
    assert "SECRET_KEY" in result.stderr


def test_production_refuses_debug_and_an_unknown_environment_name() -> None:
    # Issue 14.8: production is declared by HANCHAN_ENV=production and stays strict; a typo
    # must not start a server with the development key.
    debug = run_manage("check", env=production_env(DEBUG="1"))
    assert debug.returncode != 0
    assert "DEBUG must be off" in debug.stderr
    typo = run_manage("check", env=production_env(HANCHAN_ENV="prod"))
    assert typo.returncode != 0
    assert "HANCHAN_ENV" in typo.stderr


def test_outside_production_the_development_key_is_used_and_check_deploy_flags_it() -> None:
    env = production_env()
    for name in ("HANCHAN_ENV", "SECRET_KEY", "ALLOWED_HOSTS"):
        del env[name]
    assert run_manage("check", env=env).returncode == 0
    deploy = run_manage("check", "--deploy", env=env)
    assert "security.W009" in deploy.stdout + deploy.stderr  # the short development key


# --- no secret in the repository -------------------------------------------------------------

PRIVATE_KEY = re.compile(r"-----BEGIN [A-Z ]*PRIVATE " + r"KEY-----")
KNOWN_TOKENS = [
    re.compile(r"\bAKIA[0-9A-Z]{16}\b"),  # AWS access key id
    re.compile(r"\bgh[pousr]_[A-Za-z0-9]{36,}\b"),  # GitHub token
    re.compile(r"\bxox[abprs]-[A-Za-z0-9-]{10,}\b"),  # Slack token
    re.compile(r"\bsk_live_[A-Za-z0-9]{20,}\b"),  # Stripe live key
]
# NAME = "literal" where NAME says secret/password/token/key: the literal is suspect.
ASSIGNED_SECRET = re.compile(
    r"""(?ix)
    \b[\w.]*(secret|password|passwd|token|api_key|private_key|access_key)[\w]*\b
    ["']?\s*[:=]\s*[rbuf]?["']([^"'\s]{16,})["']
    """
)
# Placeholders and throwaway test values that are fine in the repository.
ALLOWED_LITERALS = {
    "dev-only-insecure-key-do-not-use-in-production",
}
SKIPPED_SUFFIXES = {".png", ".jpg", ".jpeg", ".gif", ".ico", ".pdf", ".woff", ".woff2", ".mo"}
SKIPPED_PARTS = {"migrations"}


def entropy(text: str) -> float:
    counts = Counter(text)
    return -sum(n / len(text) * math.log2(n / len(text)) for n in counts.values())


def repository_files() -> list[Path]:
    """Tracked files and the ones about to be (untracked but not ignored)."""
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    return [
        ROOT / name
        for name in listed
        if Path(name).suffix.lower() not in SKIPPED_SUFFIXES
        and not SKIPPED_PARTS & set(Path(name).parts)
        and (ROOT / name).is_file()
    ]


def test_no_secret_is_committed() -> None:
    findings: list[str] = []
    files = repository_files()
    assert len(files) > 50  # the scan really sees the repository
    for path in files:
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        relative = path.relative_to(ROOT)
        if PRIVATE_KEY.search(text):
            findings.append(f"{relative}: private key")
        for pattern in KNOWN_TOKENS:
            for match in pattern.finditer(text):
                findings.append(f"{relative}: token {match.group(0)[:8]}...")
        for match in ASSIGNED_SECRET.finditer(text):
            literal = match.group(2)
            if literal in ALLOWED_LITERALS or "{" in literal or "$" in literal:
                continue
            if entropy(literal) >= 3.5 and re.search(r"\d", literal):
                findings.append(f"{relative}: {match.group(1)} = {literal[:6]}...")
    assert findings == []


def test_the_secret_scan_finds_planted_secrets() -> None:
    """The scanner itself works: it flags a realistic key and ignores the dev placeholder."""
    planted = 'SECRET_KEY = "k8#Zq1v$Lr2pW9xT4mB7nC0dE5fG3hJ6"'.replace("$", "S")
    assert ASSIGNED_SECRET.search(planted)
    assert entropy(ASSIGNED_SECRET.search(planted).group(2)) >= 3.5  # type: ignore[union-attr]
    header = "-----BEGIN RSA PRIVATE " + "KEY-----"
    assert PRIVATE_KEY.search(header)
    settings_text = (ROOT / "config" / "settings.py").read_text()
    for match in ASSIGNED_SECRET.finditer(settings_text):
        assert match.group(2) in ALLOWED_LITERALS


# --- upload limits ------------------------------------------------------------------------


def import_url(event: Event) -> str:
    return f"/api/v1/tournaments/{event.tournament.slug}/registrations/import/"


def big_csv(size: int) -> bytes:
    row = b"Aiko Tanaka,,JP\n"
    return b"name,ema_number,country\n" + row * (size // len(row) + 1)


@pytest.mark.django_db
def test_csv_upload_over_2_mb_is_refused_before_anything_is_imported(event: Event) -> None:
    players = Player.objects.count()
    upload = SimpleUploadedFile("players.csv", big_csv(2 * MB + 1024), content_type="text/csv")
    response = event.client("organiser").post(
        import_url(event), {"file": upload}, format="multipart"
    )
    assert response.status_code in (400, 413), response.content[:300]
    assert re.search(rb"(?i)2 ?MB|too (big|large)|size", response.content)
    assert Player.objects.count() == players


@pytest.mark.django_db
def test_csv_text_over_2_mb_in_json_is_refused(event: Event) -> None:
    players = Player.objects.count()
    response = event.client("organiser").post(
        import_url(event), {"text": big_csv(2 * MB + 1024).decode()}, format="json"
    )
    assert response.status_code in (400, 413), response.content[:300]
    assert Player.objects.count() == players


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("name", "content", "content_type"),
    [
        ("photo.png", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xff\xfe\x00", "image/png"),
        ("players.csv", b"name\nAiko \x00Tanaka\n", "text/csv"),
        ("players.csv", "name\nAiko Tanaka\n".encode("utf-16"), "text/csv"),
        ("players.xlsx", b"PK\x03\x04\x14\x00\x06\x00\x08\x00\x00\x00!\x00\xff", "application/zip"),
    ],
)
def test_non_text_csv_upload_is_refused_naming_the_file(
    event: Event, name: str, content: bytes, content_type: str
) -> None:
    registrations = Registration.objects.count()
    upload = SimpleUploadedFile(name, content, content_type=content_type)
    response = event.client("organiser").post(
        import_url(event), {"file": upload}, format="multipart"
    )
    assert response.status_code == 400, response.content[:300]
    assert "file" in response.json() or response.json().get("field") == "file"
    assert Registration.objects.count() == registrations


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("body", "content_type"),
    [
        (b"format: riichi-game-record/1\nhands: []\n", "text/plain"),
        (b"<record><hands/></record>", "application/xml"),
        (b'{"record": {"format": "riichi-game-record/1"', "application/json"),  # cut short
    ],
)
def test_game_record_import_refuses_non_json(event: Event, body: bytes, content_type: str) -> None:
    from scoring.models import Game

    games = Game.objects.count()
    response = event.client("organiser").generic(
        "POST", "/api/v1/games/import/", body.decode(), content_type=content_type
    )
    assert response.status_code in (400, 415), response.content[:300]
    assert Game.objects.count() == games


@pytest.mark.django_db
def test_game_record_import_refuses_a_file_upload(event: Event) -> None:
    from scoring.models import Game

    games = Game.objects.count()
    upload = SimpleUploadedFile("game.json", b'{"format": "riichi-game-record/1"}')
    response = event.client("organiser").post(
        "/api/v1/games/import/", {"record": upload, "players": [1, 2, 3, 4]}, format="multipart"
    )
    assert response.status_code in (400, 415), response.content[:300]
    assert Game.objects.count() == games
