"""Celery tasks beside the tournament services: thin wrappers, the work is in the services."""

from __future__ import annotations

from typing import Any

from celery import shared_task

from .privacy import purge_sign_up_emails as purge_emails
from .seating_build import build_requested_plan


# The name it had as tournaments.tasks.generate_seating_plan: queued messages keep working.
@shared_task(name="tournaments.tasks.generate_seating_plan")
def generate_seating_plan(plan_id: int) -> dict[str, Any]:
    """Build a requested seating plan in a worker (tournaments.services.seating_build)."""
    return build_requested_plan(plan_id=plan_id)


@shared_task(name="tournaments.purge_sign_up_emails")
def purge_sign_up_emails() -> int:
    """Periodic (CELERY_BEAT_SCHEDULE): remove the sign-up e-mail addresses of tournaments that
    ended more than SIGNUP_EMAIL_RETENTION_DAYS ago (tournaments.services.privacy)."""
    return purge_emails()


from .signup_mail import send_sign_up_mail  # noqa: E402,F401  (found by autodiscover_tasks)
