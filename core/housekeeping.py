"""Periodic clean-up of records that only matter for a short time."""

from datetime import timedelta

from django.utils import timezone

from core.models import IdempotencyRecord

# A phone retries within minutes; a day is far beyond any retry window.
IDEMPOTENCY_RETENTION = timedelta(hours=24)


def purge_idempotency_records(*, older_than: timedelta = IDEMPOTENCY_RETENTION) -> int:
    """Delete stored idempotent answers past the retry window; returns how many."""
    deleted, _ = IdempotencyRecord.objects.filter(
        created_at__lt=timezone.now() - older_than
    ).delete()
    return deleted
