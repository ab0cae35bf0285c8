"""Celery tasks of the core app: thin wrappers around services."""

from celery import shared_task

from core.housekeeping import purge_idempotency_records


@shared_task(name="core.purge_idempotency_records")
def purge_idempotency_records_task() -> int:
    return purge_idempotency_records()
