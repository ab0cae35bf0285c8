"""Shared pytest fixtures. Model factories live in tests/factories.py."""

import fcntl
import hashlib
import os
import sqlite3
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

import django
import django.core.management
import pytest
from django.conf import settings
from django.db import connections
from django.utils import translation

import tournaments.seating
from config.celery import app as celery_app
from tests.flush_support import install_flush_keeping, remember_kept_rows

ROOT = Path(__file__).resolve().parent.parent

# The suite makes thousands of users (every factory user, staff role, seeded demo, login): with
# Django's PBKDF2 (1,000,000 iterations, 0.37 s a password on this machine under load) hashing
# was the largest single cost of the page and service tests. MD5 is only for tests; production
# keeps Django's default hashers (config.settings sets none). Set before anything hashes:
# django.contrib.auth caches the hasher list on first use.
settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def _flush_by_delete(
    self: Any, style: Any, tables: list[str], *, reset_sequences: bool = False, **options: Any
) -> list[str]:
    """Empty the tables with DELETE, not TRUNCATE, after each transactional test on PostgreSQL.

    TRUNCATE gives each of the ~40 tables a new file (and drops the old one at commit): 1.0-1.3 s
    per flush on this machine, after every browser, live-server, fuzz and concurrency test (about
    170 of them), while DELETE of their few rows took 6 ms. Same end state: every row gone,
    sequences left as TRUNCATE without RESTART IDENTITY leaves them. Django's flush runs the
    list in one transaction and its foreign keys are DEFERRABLE INITIALLY DEFERRED, so the order
    of the deletes does not matter. Tests only; production never flushes.
    """
    if not tables or reset_sequences or options.get("allow_cascade"):
        return _truncate(self, style, tables, reset_sequences=reset_sequences, **options)
    return ["SET CONSTRAINTS ALL DEFERRED;"] + [
        f"{style.SQL_KEYWORD('DELETE FROM')} {style.SQL_FIELD(self.quote_name(table))};"
        for table in tables
    ]


if connections["default"].vendor == "postgresql":
    from django.db.backends.postgresql.operations import DatabaseOperations as _PostgresOperations

    _truncate = _PostgresOperations.sql_flush
    _PostgresOperations.sql_flush = _flush_by_delete  # type: ignore[method-assign]


_call_command = django.core.management.call_command


def _migration_key() -> str:
    """What the migrated schema is made of: every migration file on disk (ours and the
    installed packages'), the installed apps, the models of apps without migrations (created
    from the models) and Django's version."""
    from django.apps import apps
    from django.db.migrations.loader import MigrationLoader

    digest = hashlib.sha256(f"{django.__version__} {settings.INSTALLED_APPS}".encode())
    loader = MigrationLoader(None, ignore_no_migrations=True)
    for key in sorted(loader.disk_migrations):
        digest.update(repr(key).encode())
        digest.update(
            Path(sys.modules[loader.disk_migrations[key].__module__].__file__ or "").read_bytes()
        )
    for label in sorted(loader.unmigrated_apps):
        for model in apps.get_app_config(label).get_models():
            digest.update(repr([model._meta.db_table, *model._meta.local_fields]).encode())
    return digest.hexdigest()[:20]


def _migrate_once(*args: Any, **options: Any) -> Any:
    """The SQLite test database of each xdist worker (and of each run) is migrated once and
    copied: the first process to come migrates as before and saves the result, the others
    (the second worker, later runs) copy it with SQLite's backup API, rows included (the data
    migrations', post_migrate's content types and permissions). Migrating took 3.7 s of CPU per
    process, the largest fixed cost of a targeted run. The file is named after the migration
    files it was made from, so any change to one migrates afresh. Other databases, and any
    other command, run as they are."""
    connection = connections[options.get("database", "default")]
    if args == ("migrate",) and options.get("run_syncdb") and connection.vendor == "postgresql":
        return _migrate_postgres_once(connection, *args, **options)
    if (
        args != ("migrate",)
        or not options.get("run_syncdb")
        or connection.vendor != "sqlite"
        or not connection.is_in_memory_db()
    ):
        return _call_command(*args, **options)
    cache = ROOT / ".pytest_cache"
    cache.mkdir(exist_ok=True)
    snapshot = cache / f"migrated-schema-{_migration_key()}.sqlite3"
    with open(cache / "migrated-schema.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # the other worker waits for the first one's copy
        connection.ensure_connection()
        if snapshot.exists():
            with closing(sqlite3.connect(snapshot)) as saved:
                saved.backup(connection.connection)
            return None
        result = _call_command(*args, **options)
        partial = snapshot.with_suffix(f".{os.getpid()}")
        with closing(sqlite3.connect(partial)) as saved:
            connection.connection.backup(saved)
        os.replace(partial, snapshot)
        return result


django.core.management.call_command = _migrate_once


def _migrate_postgres_once(connection: Any, *args: Any, **options: Any) -> Any:
    """The same on PostgreSQL: the first xdist worker migrates its test database and copies it
    to a template database named after the migration files (`<test db>_migrated_<key>`); the
    other worker, and later runs that keep it (`make test-pg` on a developer's machine), drop
    the empty test database pytest-django just created and create it again from the template
    (CREATE DATABASE ... TEMPLATE, 0.3 s instead of migrating: 4 s of this process's CPU plus
    the server's). The template is the migrated database itself, rows included. CI drops it
    with the role that owns it (.ci/run). Templates of older migration files are dropped when a
    new one is made."""
    name = connection.settings_dict["NAME"]
    base = name.rsplit("_gw", 1)[0] if os.environ.get("PYTEST_XDIST_WORKER") else name
    template = f"{base}_migrated_{_migration_key()[:12]}"
    cache = ROOT / ".pytest_cache"
    cache.mkdir(exist_ok=True)
    quote = connection.ops.quote_name
    with open(cache / f"migrated-{base}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # one worker makes the template, the other waits
        with connection._nodb_cursor() as cursor:
            cursor.execute(
                "SELECT datname FROM pg_database WHERE datname LIKE %s", [f"{base}_migrated_%"]
            )
            existing = {row[0] for row in cursor.fetchall()}
        if template in existing:
            connection.close()
            with connection._nodb_cursor() as cursor:
                cursor.execute(f"DROP DATABASE {quote(name)}")
                cursor.execute(f"CREATE DATABASE {quote(name)} TEMPLATE {quote(template)}")
            return None
        result = _call_command(*args, **options)
        connection.close()
        with connection._nodb_cursor() as cursor:
            for old in existing:
                cursor.execute(f"DROP DATABASE IF EXISTS {quote(old)}")
            cursor.execute(f"CREATE DATABASE {quote(template)} TEMPLATE {quote(name)}")
        return result


install_flush_keeping()


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup: None, django_db_blocker: Any) -> None:
    """pytest-django's test databases, and the rows that the flush after a transactional test
    keeps (tests/flush_support.py), read once they are migrated."""
    with django_db_blocker.unblock():
        remember_kept_rows("default")


# Cache keys of one test never meet another's in a shared Redis: the login throttle counts
# failures per address for 15 minutes, and counts left by an earlier test, run or xdist worker
# locked later tests out. The prefix is per process, not per thread, so a test's live server and
# its worker threads share it.
_cache_prefix = f"test-{uuid.uuid4().hex[:12]}"


def _test_cache_key(key: str, key_prefix: str, version: int) -> str:
    return f"{_cache_prefix}:{version}:{key}"


settings.CACHES["default"]["KEY_FUNCTION"] = _test_cache_key


@pytest.fixture(autouse=True)
def _own_cache_keys() -> Iterator[None]:
    """Each test starts on an empty key space: no throttle count, lock or cached page of an
    earlier test reaches it."""
    global _cache_prefix
    _cache_prefix = f"test-{uuid.uuid4().hex[:12]}"
    yield


@pytest.fixture(autouse=True)
def _english_after_each_test() -> Iterator[None]:
    """LocaleMiddleware leaves the last request's language active in the thread: a test that
    asks for a German page would otherwise make the next test in the process German."""
    yield
    translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture(autouse=True)
def _eager_celery_unless_broker_test(request: pytest.FixtureRequest) -> Iterator[None]:
    """Ordinary tests run tasks in-process; only `broker` tests go through the real worker."""
    eager = request.node.get_closest_marker("broker") is None
    previous = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = eager or not settings.CELERY_BROKER_URL
    yield
    celery_app.conf.task_always_eager = previous


@pytest.fixture
def short_seating_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """Seating plans search 1/8 of the default iterations: the 8 s budget's iteration cap is
    about 8 s of CPU per plan whose fewest-meetings bound cannot be reached (8 players over 4
    sessions). The page and browser tests use it (they check the pages, not the search, which
    tests/seating does); every plan is still searched, validated and shown. test_web_console's
    plan test took 6.0 s, 1.1 s with it."""
    monkeypatch.setattr(tournaments.seating, "_STEPS_PER_SECOND_PLAYER", 2_000)


def _database_url_for_worker() -> str:
    db = connections["default"].settings_dict
    if db["ENGINE"] != "django.db.backends.postgresql":
        raise RuntimeError(
            "broker tests need a database the worker process can share: set DATABASE_URL to "
            "PostgreSQL (the SQLite test database lives in memory)"
        )
    return "postgres://{USER}:{PASSWORD}@{HOST}:{PORT}/{NAME}".format(
        **{**db, "PORT": db["PORT"] or 5432, "HOST": db["HOST"] or "127.0.0.1"}
    )


@pytest.fixture(scope="session")
def celery_worker_process(
    django_db_setup: None, django_db_blocker: object
) -> Iterator[subprocess.Popen[bytes]]:
    """A real `celery worker` process on the configured broker, sharing the test database."""
    if not settings.CELERY_BROKER_URL:
        pytest.skip("no broker configured: set CELERY_BROKER_URL to run broker tests")
    queue = f"hanchan-test-{uuid.uuid4().hex[:8]}"
    env = {
        **os.environ,
        "DATABASE_URL": _database_url_for_worker(),
        "CELERY_QUEUE": queue,
        "HANCHAN_TESTING": "1",
    }
    (ROOT / ".pytest_cache").mkdir(exist_ok=True)
    log = open(ROOT / ".pytest_cache" / f"worker-{queue}.log", "wb")  # noqa: SIM115
    worker = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "config",
            "worker",
            "-Q",
            queue,
            "--concurrency",
            "2",
            "--pool",
            "prefork",
            "--loglevel",
            "info",
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    celery_app.conf.task_default_queue = queue
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if worker.poll() is not None:
                raise RuntimeError(f"celery worker exited with {worker.returncode}")
            if celery_app.control.ping(timeout=1.0):
                break
        else:
            raise RuntimeError("celery worker did not answer a ping within 60 s")
        yield worker
    finally:
        worker.terminate()
        worker.wait(timeout=30)
        log.close()


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Issue 22: the axe-core violation counts per page, scheme and language (recorded by
    tests/browser/test_browser_axe.py as user properties, which xdist passes back here)."""
    rows = [
        value
        for reports in terminalreporter.stats.values()
        for report in reports
        if getattr(report, "when", None) == "call"
        for name, value in getattr(report, "user_properties", ())
        if name == "axe"
    ]
    if not rows:
        return
    terminalreporter.write_sep("-", "axe-core 4.14.1: violations per page (rules, nodes)")
    for row in rows:
        terminalreporter.write_line(
            f"{row['page']:<34} {row['scheme']:<5} {row['language']:<2} "
            f"{row['violations']:>3} rules {row['nodes']:>4} nodes"
        )


def pytest_configure(config: Any) -> None:
    # Beside pyproject's markers: `make test-fast` deselects it with `browser` (issue 37).
    config.addinivalue_line("markers", "pdftotext: reads a PDF back with poppler-utils' pdftotext")
