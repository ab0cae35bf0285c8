"""Celery tasks of the club app: thin wrappers around services."""

from celery import shared_task

from club.services.housekeeping import purge_idempotency_records


@shared_task(name="club.purge_idempotency_records")
def purge_idempotency_records_task() -> int:
    return purge_idempotency_records()
