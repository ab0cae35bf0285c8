"""Players, clubs, memberships, club nights and leagues; the audit log and idempotency keys.

The audit log and idempotency records live here because every app writes them and `club` has no
dependencies on the other apps.
"""

from django.conf import settings
from django.core.validators import RegexValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

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
        ordering = ["last_name", "first_name", "id"]

    def __str__(self) -> str:
        return f"{self.first_name} {self.last_name}".strip()


class Club(models.Model):
    name = models.CharField(max_length=200)
    slug = models.SlugField(unique=True)
    city = models.CharField(max_length=100, blank=True)
    country = models.CharField(max_length=2, blank=True, validators=[country_validator])
    # House rules: a preset of scoring.engine plus validated overrides.
    ruleset = models.CharField(max_length=40, default="wdmc-2019")
    rule_overrides = models.JSONField(default=dict, blank=True)
    # House rules for tables of three at a club night (WDMC 2019 section 5 by default).
    ruleset_3p = models.CharField(max_length=40, default="wdmc-2019-3p")
    rule_overrides_3p = models.JSONField(default=dict, blank=True)

    class Confirmations(models.TextChoices):
        ONE = "one", _("One other player at the table")
        ALL = "all", _("All other players at the table")

    # Club play without a referee: a hand a seated player enters counts once this many of
    # the other players at the table have confirmed it.
    confirmations = models.CharField(
        max_length=3, choices=Confirmations.choices, default=Confirmations.ONE
    )
    members = models.ManyToManyField(Player, through="Membership", related_name="clubs")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    class Role(models.TextChoices):
        MEMBER = "member", _("Member")
        ADMIN = "admin", _("Club admin")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.MEMBER)
    joined_on = models.DateField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["club", "player"], name="unique_club_membership")
        ]

    def __str__(self) -> str:
        return f"{self.player} @ {self.club}"


class League(models.Model):
    """A season of club nights ranked together."""

    class Aggregate(models.TextChoices):
        SUM = "sum", _("Sum of results")
        AVERAGE = "average", _("Average result")
        BEST_N = "best_n", _("Sum of the best N results")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="leagues")
    name = models.CharField(max_length=200)
    starts_on = models.DateField()
    ends_on = models.DateField(null=True, blank=True)
    aggregate = models.CharField(max_length=10, choices=Aggregate.choices, default=Aggregate.SUM)
    best_n = models.PositiveSmallIntegerField(null=True, blank=True)
    min_games = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["-starts_on"]

    def __str__(self) -> str:
        return f"{self.club}: {self.name}"


class ClubNight(models.Model):
    """An evening of casual games at a club, optionally counting for a league."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="nights")
    league = models.ForeignKey(
        League, null=True, blank=True, on_delete=models.SET_NULL, related_name="nights"
    )
    date = models.DateField()
    notes = models.TextField(blank=True)

    class Meta:
        ordering = ["-date"]

    def __str__(self) -> str:
        return f"{self.club} {self.date:%Y-%m-%d}"


class Rating(models.Model):
    """A player's current multiplayer rating (openskill); history in RatingChange."""

    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="rating")
    mu = models.FloatField()
    sigma = models.FloatField()
    games = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.player}: {self.mu:.1f} ± {self.sigma:.1f}"


class RatingChange(models.Model):
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rating_history")
    game = models.ForeignKey("scoring.Game", on_delete=models.CASCADE, related_name="+")
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]

    def __str__(self) -> str:
        return f"{self.player} game {self.game_id}: {self.mu_before:.1f} -> {self.mu_after:.1f}"


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
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="unique_idempotency_key")
        ]

    def __str__(self) -> str:
        return f"{self.method} {self.path} [{self.key}]"


class OnlineName(models.Model):
    """A player's name on an online site (Tenhou, Mahjong Soul), mapped to a club member once
    and remembered for the club's later imports (issue 20)."""

    class Site(models.TextChoices):
        TENHOU = "tenhou", "Tenhou"
        MAHJONGSOUL = "mahjongsoul", "Mahjong Soul"

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="online_names")
    site = models.CharField(max_length=20, choices=Site.choices)
    name = models.CharField(max_length=100)
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="online_names")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["club", "site", "name"], name="uniq_online_name"),
        ]

    def __str__(self) -> str:
        return f"{self.site}:{self.name} -> {self.player}"


class OnlineGameLog(models.Model):
    """An imported online game: the site's log id (a log is imported once) and how our engine's
    replay compared with the points the site paid (kept, never hidden)."""

    site = models.CharField(max_length=20, choices=OnlineName.Site.choices)
    log_id = models.CharField(max_length=200, blank=True)
    game = models.OneToOneField("scoring.Game", on_delete=models.CASCADE, related_name="online_log")
    comparison = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["site", "log_id"],
                condition=~models.Q(log_id=""),
                name="uniq_online_log",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.site}:{self.log_id or '-'} -> game {self.game_id}"


class ApiToken(models.Model):
    """An API token (club.tokens): only the SHA-256 of the key is kept, and its first
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
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.user} {self.prefix}…"
