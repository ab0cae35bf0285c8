"""Stored idempotent answers expire after the retry window."""

from datetime import timedelta

import pytest
from django.utils import timezone

from core.models import IdempotencyRecord
from core.tasks import purge_idempotency_records_task
from tests.factories import UserFactory


@pytest.mark.django_db
def test_purge_removes_only_records_past_the_retry_window() -> None:
    user = UserFactory()
    fields = {"user": user, "method": "POST", "path": "/x", "request_hash": "h", "status_code": 201}
    old = IdempotencyRecord.objects.create(key="old", **fields)
    fresh = IdempotencyRecord.objects.create(key="fresh", **fields)
    IdempotencyRecord.objects.filter(pk=old.pk).update(
        created_at=timezone.now() - timedelta(hours=25)
    )

    assert purge_idempotency_records_task.delay().get() == 1
    assert list(IdempotencyRecord.objects.values_list("key", flat=True)) == [fresh.key]
