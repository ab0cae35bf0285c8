"""Clubs, memberships, club nights, leagues, ratings and online imports.

Players, the audit log, idempotency records and API tokens are shared by every app: core.models.
"""

from typing import Any

from django.db import models
from django.utils.translation import gettext_lazy as _

from core.models import Player, country_validator
from scoring.models import Game


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

    @property
    def games(self) -> models.QuerySet[Game]:
        """The games played at this night (each linked by its ClubGame)."""
        return Game.objects.filter(club_game__night=self)


class ClubGame(models.Model):
    """A game played at a club night. The club owns the link, so scoring knows nothing of
    clubs (issue 14): `game.club_game.night` from the game's side, `night.games` from the
    night's. Deleting the night deletes its games (club.apps)."""

    game = models.OneToOneField(
        Game, on_delete=models.CASCADE, primary_key=True, related_name="club_game"
    )
    night = models.ForeignKey(ClubNight, on_delete=models.CASCADE, related_name="club_games")

    def __str__(self) -> str:
        return f"{self.night}: game {self.game_id}"


def delete_games_with_night(sender: Any, instance: ClubNight, **kwargs: Any) -> None:
    """pre_delete of a ClubNight (connected in club.apps): its games go with it, as they did
    when the game held the link (issue 14)."""
    Game.objects.filter(club_game__night=instance).delete()


class Rating(models.Model):
    """A player's current multiplayer rating (openskill); history in RatingChange."""

    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="rating")
    mu = models.FloatField()
    sigma = models.FloatField()
    games = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.player}: {self.mu:.1f} ± {self.sigma:.1f}"


class RatingsState(models.Model):
    """One row (pk 1): whether the ratings missed an update (the broker was down when a game
    changed), so the next update and the periodic catch-up rebuild them whole
    (club.ratings.tasks; the standings keep the same flag on Tournament)."""

    stale = models.BooleanField(default=False)

    def __str__(self) -> str:
        return "ratings stale" if self.stale else "ratings up to date"


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
