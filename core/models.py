"""What every app shares: players, the audit log, idempotency records and API tokens.

These tables were created by the `club` app and keep their names (`Meta.db_table`); the move
to `core` (issue 14) changed only Django's migration state, not the data.
"""

from django.conf import settings
from django.core.validators import RegexValidator
from django.db import models

ema_number_validator = RegexValidator(r"^\d{8}$", "An EMA number has exactly 8 digits.")
country_validator = RegexValidator(
    r"^[A-Z]{2}$", "Use the two-letter ISO 3166 country code, e.g. DE, FR, GB."
)


class Player(models.Model):
    first_name = models.CharField(max_length=100)
    last_name = models.CharField(max_length=100)
    ema_number = models.CharField(
        max_length=8, unique=True, null=True, blank=True, validators=[ema_number_validator]
    )
    country = models.CharField(max_length=2, blank=True, validators=[country_validator])
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="player",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "club_player"
        ordering = ["last_name", "first_name", "id"]

    def __str__(self) -> str:
        return f"{self.first_name} {self.last_name}".strip()


class AuditEntry(models.Model):
    """Who changed what, when and why, with the state before and after (append-only)."""

    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    action = models.CharField(max_length=60)  # e.g. "hand.add", "penalty.cancel"
    object_type = models.CharField(max_length=60)  # e.g. "scoring.hand"
    object_id = models.CharField(max_length=40, blank=True)
    # Scopes for "the audit trail of this game / tournament / club", kept as plain ids so the
    # log outlives deleted objects and has no dependency on other apps.
    tournament_id = models.BigIntegerField(null=True, blank=True, db_index=True)
    game_id = models.BigIntegerField(null=True, blank=True, db_index=True)
    club_id = models.BigIntegerField(null=True, blank=True, db_index=True)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    reason = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        db_table = "club_auditentry"
        ordering = ["created_at", "id"]
        verbose_name_plural = "audit entries"

    def __str__(self) -> str:
        return f"{self.created_at:%Y-%m-%d %H:%M} {self.action} {self.object_type}#{self.object_id}"


class IdempotencyRecord(models.Model):
    """The stored answer to a POST carrying an Idempotency-Key, replayed on a retry."""

    key = models.CharField(max_length=200)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    method = models.CharField(max_length=10)
    path = models.CharField(max_length=300)
    request_hash = models.CharField(max_length=64)
    status_code = models.PositiveSmallIntegerField()
    response_body = models.JSONField(null=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "club_idempotencyrecord"
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="unique_idempotency_key")
        ]

    def __str__(self) -> str:
        return f"{self.method} {self.path} [{self.key}]"


class ApiToken(models.Model):
    """An API token (core.tokens): only the SHA-256 of the key is kept, and its first
    characters so the owner can tell their tokens apart. It expires; a new password revokes
    every token of the user; the owner lists and revokes them (issue 16.5)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    key_hash = models.CharField(max_length=64, unique=True)
    prefix = models.CharField(max_length=8)
    name = models.CharField(max_length=100, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()

    class Meta:
        db_table = "club_apitoken"
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.user} {self.prefix}…"
