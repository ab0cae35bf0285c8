"""The flush after a transactional test keeps content types and permissions when they are as
migrated, and rebuilds them when a test changed them (tests/conftest.py, _flush_keeping)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission
from django.contrib.contenttypes.models import ContentType
from django.core.management import call_command
from django.db import connection

from tests.flush_support import kept_rows, rows_of_kept_tables

pytestmark = pytest.mark.django_db(transaction=True)


def _flush_as_after_a_test() -> None:
    # What TransactionTestCase._fixture_teardown runs (pytest-django's transactional_db).
    call_command("flush", verbosity=0, interactive=False, reset_sequences=False)


def test_an_untouched_flush_keeps_the_migrated_rows() -> None:
    migrated = kept_rows["default"]
    assert migrated[0] and migrated[1]  # content types and permissions exist
    _flush_as_after_a_test()
    assert rows_of_kept_tables(connection) == migrated


def test_a_changed_permission_is_rebuilt_as_post_migrate_makes_it() -> None:
    user_type = ContentType.objects.get(app_label="auth", model="user")
    Permission.objects.create(codename="extra", name="Extra", content_type=user_type)
    Permission.objects.filter(codename="view_user").delete()
    _flush_as_after_a_test()
    assert not Permission.objects.filter(codename="extra").exists()
    assert Permission.objects.filter(codename="view_user", content_type__model="user").exists()
    # The same rows (by content) as after migrating: post_migrate made them again.
    types, permissions = rows_of_kept_tables(connection)
    assert sorted(row[1:] for row in types) == sorted(row[1:] for row in kept_rows["default"][0])
    assert len(permissions) == len(kept_rows["default"][1])
