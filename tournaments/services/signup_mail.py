"""The sign-up e-mails (issue 35): sent by a Celery task after the commit, never inside the
request, through Django's mail system (EMAIL_BACKEND: the console in development, SMTP from
EMAIL_URL or EMAIL_HOST in production). A failed send is retried with a growing delay."""

from __future__ import annotations

import smtplib

from celery import shared_task
from django.conf import settings
from django.core.mail import send_mail
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from tournaments.models import SignUp
from tournaments.my_seat import player_link

KINDS = ("confirmation", "promoted", "approved", "refused")


def status_url(sign_up: SignUp) -> str:
    """The registrant's private page: their status, and the withdraw button."""
    path = reverse(
        "tournaments:sign_up_status",
        kwargs={"slug": sign_up.tournament.slug, "token": sign_up.token},
    )
    return f"{settings.SITE_URL.rstrip('/')}{path}"


def compose(sign_up: SignUp, kind: str) -> tuple[str, str]:
    """Subject and body of one e-mail."""
    context = {"s": sign_up, "t": sign_up.tournament, "kind": kind, "url": status_url(sign_up)}
    if sign_up.registration_id is not None and sign_up.status == SignUp.Status.REGISTERED:
        # Where do I sit, on the day (issue 35.4): the player's own page, no login needed.
        player_id = sign_up.registration.player_id  # type: ignore[union-attr]
        context["seat_url"] = player_link(sign_up.tournament, player_id)
    body = render_to_string("tournaments/email/sign_up.txt", context)
    subject = render_to_string("tournaments/email/sign_up_subject.txt", context)
    return " ".join(subject.split()), body


@shared_task(
    name="tournaments.send_sign_up_mail",
    autoretry_for=(smtplib.SMTPException, OSError),
    retry_backoff=30,
    retry_backoff_max=1800,
    retry_jitter=True,
    max_retries=8,
)
def send_sign_up_mail(sign_up_id: int, kind: str) -> bool:
    """Send one sign-up e-mail; a sign-up gone since, or whose address was removed (erased,
    or kept past SIGNUP_EMAIL_RETENTION_DAYS), sends nothing."""
    sign_up = SignUp.objects.select_related("tournament").filter(pk=sign_up_id).first()
    if sign_up is None or kind not in KINDS or not sign_up.email:
        return False
    with translation.override(settings.LANGUAGE_CODE):
        subject, body = compose(sign_up, kind)
    send_mail(subject, body, None, [sign_up.email])
    return True
