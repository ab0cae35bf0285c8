"""The flush after each transactional test, without rebuilding content types and permissions.

tests/conftest.py installs it and reads the migrated rows once the test database is set up.
"""

from __future__ import annotations

from typing import Any

from django.core.management.commands import flush
from django.db import connections

# After each transactional test (browser, live-server, fuzz, concurrency: about 180) Django's
# flush empties every table, content types and permissions included, and post_migrate then
# creates them all again, app by app: 17 ms of CPU per test on SQLite, 30 ms of CPU and 60 ms of
# wall time on PostgreSQL with synchronous_commit off (34 fuzz tests measured), against 1.5 ms
# for comparing the two tables' rows. The flush after a test (the only one that keeps sequences)
# now leaves those two tables alone, and post_migrate runs only when their rows are no longer
# the ones the run started with (a test added, changed or removed one): then both are emptied
# and post_migrate rebuilds them as before. The tables end each test as a fresh migration
# leaves them either way. Only while the two post_migrate receivers are Django's contenttypes
# and auth ones; any other one turns this off.
_KEPT_TABLES = ("django_content_type", "auth_permission")
_KNOWN_POST_MIGRATE = {
    "django.contrib.auth.management.create_permissions",
    "django.contrib.contenttypes.management.create_contenttypes",
}
kept_rows: dict[str, Any] = {}  # database alias -> rows of _KEPT_TABLES after migrating
_kept_in_flush: set[str] = set()  # aliases whose last flush left _KEPT_TABLES alone
_sql_flush = flush.sql_flush
_emit_post_migrate = flush.emit_post_migrate_signal


def rows_of_kept_tables(connection: Any) -> Any:
    with connection.cursor() as cursor:
        cursor.execute("SELECT id, app_label, model FROM django_content_type ORDER BY id")
        types = cursor.fetchall()
        cursor.execute(
            "SELECT id, content_type_id, codename, name FROM auth_permission ORDER BY id"
        )
        return (types, cursor.fetchall())


def remember_kept_rows(alias: str) -> None:
    from django.db.models.signals import post_migrate

    receivers = {
        f"{receiver.__module__}.{receiver.__qualname__}"
        for receiver in post_migrate._live_receivers(None)[0]
    }
    if receivers <= _KNOWN_POST_MIGRATE:
        kept_rows[alias] = rows_of_kept_tables(connections[alias])


def _flush_keeping(
    style: Any, connection: Any, reset_sequences: bool = True, allow_cascade: bool = False
) -> list[str]:
    if reset_sequences or connection.alias not in kept_rows:
        _kept_in_flush.discard(connection.alias)
        return _sql_flush(style, connection, reset_sequences, allow_cascade)
    _kept_in_flush.add(connection.alias)
    tables = connection.introspection.django_table_names(only_existing=True, include_views=False)
    return connection.ops.sql_flush(
        style,
        [table for table in tables if table not in _KEPT_TABLES],
        reset_sequences=False,
        allow_cascade=allow_cascade,
    )


def _post_migrate_unless_kept(verbosity: int, interactive: bool, db: str, **kwargs: Any) -> None:
    if db in _kept_in_flush:
        connection = connections[db]
        if rows_of_kept_tables(connection) == kept_rows[db]:
            return
        with connection.cursor() as cursor:  # what the usual flush would have left
            cursor.execute("DELETE FROM auth_permission")
            cursor.execute("DELETE FROM django_content_type")
        _emit_post_migrate(verbosity, interactive, db, **kwargs)
        kept_rows[db] = rows_of_kept_tables(connection)
        return
    _emit_post_migrate(verbosity, interactive, db, **kwargs)


def install_flush_keeping() -> None:
    """Put the two functions above where Django's flush command calls them (once)."""
    flush.sql_flush = _flush_keeping  # type: ignore[assignment]
    flush.emit_post_migrate_signal = _post_migrate_unless_kept  # type: ignore[assignment]
