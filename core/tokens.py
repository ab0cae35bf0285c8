"""API tokens that expire, die with a password change, and are listed and revoked by their
owner (issue 16.5).

A login (``POST /api/v1/auth/token/``) issues a new token; only its SHA-256 is stored, with
the first characters for the owner's list. A token lasts ``API_TOKEN_TTL_DAYS`` (30) days;
changing the password revokes every token of the user. Clients send it as before:
``Authorization: Token <key>``.
"""

from __future__ import annotations

import datetime
import hashlib
import secrets
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models.signals import pre_save
from django.dispatch import receiver
from django.utils import timezone
from django.utils.translation import gettext as _
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication

from core.audit import audited
from core.models import ApiToken

PREFIX_LENGTH = 8


def token_ttl() -> datetime.timedelta:
    return datetime.timedelta(days=int(getattr(settings, "API_TOKEN_TTL_DAYS", 30)))


def digest(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def issue_token(user: Any, *, name: str = "") -> tuple[ApiToken, str]:
    """A new token for ``user``: the stored row and the key (shown once, never stored)."""
    key = secrets.token_hex(20)
    token = ApiToken.objects.create(
        user=user,
        key_hash=digest(key),
        prefix=key[:PREFIX_LENGTH],
        name=name[:100],
        expires_at=timezone.now() + token_ttl(),
    )
    return token, key


def revoke_token(*, actor: Any, token: ApiToken) -> None:
    """The owner revokes one of their tokens (audited; the key is never logged)."""

    with audited(
        actor=actor,
        action="token.revoke",
        object_type="club.apitoken",
        object_id=token.pk,
        before={"id": token.pk, "prefix": token.prefix, "name": token.name},
    ) as audit:
        token.delete()
        audit.after = None


class ExpiringTokenAuthentication(TokenAuthentication):
    """``Authorization: Token <key>``: a known, unexpired, unrevoked token of an active user."""

    def authenticate_credentials(self, key: str) -> tuple[Any, ApiToken]:
        token = ApiToken.objects.select_related("user").filter(key_hash=digest(key)).first()
        if token is None:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        if token.expires_at <= timezone.now():
            raise exceptions.AuthenticationFailed(_("The token has expired; log in again."))
        if not token.user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        return token.user, token


@receiver(pre_save, sender=get_user_model())
def revoke_tokens_on_password_change(sender: Any, instance: Any, **kwargs: Any) -> None:
    """A new password ends every API token of the user (the sessions end by Django's own
    session hash check)."""
    update_fields = kwargs.get("update_fields")
    if instance.pk is None or (update_fields is not None and "password" not in update_fields):
        return
    old = sender.objects.filter(pk=instance.pk).values_list("password", flat=True).first()
    if old is not None and old != instance.password:
        ApiToken.objects.filter(user_id=instance.pk).delete()
