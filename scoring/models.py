"""A game at one table and its hands, stored as game-record hands; the engine derives scores."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from core.models import Player


class Game(models.Model):
    """Where the game is played is kept by the app owning the place, not here (issue 14):
    a tournament table (`tournaments.Table.game`, read as `game.table`) or a club night
    (`club.ClubGame`, read as `game.club_game.night`); scoring asks scoring.policy."""

    class Status(models.TextChoices):
        IN_PROGRESS = "in_progress", _("In progress")
        FINISHED = "finished", _("Finished")  # finalized: results count for standings

    class Entry(models.TextChoices):
        HANDS = "hands", _("Hand by hand")
        FINAL_SCORES = "final_scores", _("Final scores only (paper sheet)")

    # The rules snapshot the game was played under (preset id + overrides).
    ruleset = models.CharField(max_length=40)
    rule_overrides = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.IN_PROGRESS)
    entry = models.CharField(max_length=12, choices=Entry.choices, default=Entry.HANDS)
    end = models.CharField(max_length=10, default="complete")  # "complete" | "time"
    substitutes = models.JSONField(default=list, blank=True)  # game-record `substitutes`
    final_scores = models.JSONField(null=True, blank=True)  # paper-sheet entry only
    # Cached engine output (scoring.engine.replay) for fast reads; rebuilt on every write.
    summary = models.JSONField(null=True, blank=True)
    # Club play without a referee: False while any hand waits for the other players'
    # confirmation; ratings and league tables count confirmed games only.
    confirmed = models.BooleanField(default=True)
    # The game's own entries by a seated player of a club game (the paper score sheet, the
    # finish) wait for the other players as a hand does (issue 30.3): `entry_confirmed` is
    # False until enough of them (`confirmed_by`, player ids) confirmed what `entered_by` wrote;
    # `confirmed` is False meanwhile too.
    entry_confirmed = models.BooleanField(default=True)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    confirmed_by = models.JSONField(default=list, blank=True)
    # Optimistic concurrency: every write must name the version it was based on.
    version = models.PositiveIntegerField(default=0)
    finished_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"Game {self.pk}"


class GameSeat(models.Model):
    """Seat 0 is East at the start; seats never change during the game (game-record format)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="game_seats")

    class Meta:
        ordering = ["game", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seat"], name="unique_game_seat"),
            models.UniqueConstraint(fields=["game", "player"], name="unique_game_player"),
        ]

    def __str__(self) -> str:
        return f"Game {self.game_id} seat {self.seat}: {self.player}"


class Hand(models.Model):
    """One hand exactly as a game-record hand object (`data`), in playing order."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveSmallIntegerField()  # 0-based position in the record
    data = models.JSONField()
    tiles = models.CharField(max_length=120, blank=True)  # optional tile notation for cross-check
    # What the tiles give and where the entry disagrees ({"han", "fu", "yakuman", "yaku",
    # "mismatches"}); None without tiles. A mismatch never blocks the entry: the referee decides.
    tile_check = models.JSONField(null=True, blank=True)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    # A hand a seated player entered at a club night (no referee) waits for the others:
    # `confirmed_by` lists the player ids who confirmed it; `confirmed` once enough did.
    confirmed = models.BooleanField(default=True)
    confirmed_by = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="unique_hand_number")
        ]

    def __str__(self) -> str:
        return f"Game {self.game_id} hand {self.number}: {self.data.get('outcome', '?')}"


class GamePenalty(models.Model):
    """A penalty recorded on a club game (tournament penalties live in tournaments.Penalty)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="penalties")
    seat = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=20)
    points = models.PositiveIntegerField()
    note = models.TextField(blank=True)

    class Meta:
        verbose_name_plural = "game penalties"  # the admin said "Game penaltys" (issue 18)

    def __str__(self) -> str:
        return f"Game {self.game_id} seat {self.seat}: {self.kind} -{self.points}"
