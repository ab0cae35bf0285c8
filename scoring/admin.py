"""Django admin for games, their seats, hands and penalties.

Score entry goes through scoring.services (version check, engine, audit); the admin is for
looking, and hands are read-only here so no edit bypasses the engine or the audit log.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from scoring.models import Game, GamePenalty, GameSeat, Hand


class GameSeatInline(admin.TabularInline):
    model = GameSeat
    extra = 0
    autocomplete_fields = ["player"]


class HandInline(admin.TabularInline):
    model = Hand
    extra = 0
    fields = ["number", "data", "tiles", "entered_by", "updated_at"]
    readonly_fields = ["number", "data", "tiles", "entered_by", "updated_at"]

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = [
        "id",
        "ruleset",
        "status",
        "entry",
        "version",
        "updated_at",
    ]
    # Tournaments and club nights own their games' links (issue 14): TableAdmin and
    # ClubGameAdmin show them.
    search_fields = ["id", "seats__player__last_name"]
    list_filter = ["status", "entry", "ruleset"]
    readonly_fields = ["summary", "version", "created_at", "updated_at"]
    inlines = [GameSeatInline, HandInline]


@admin.register(GameSeat)
class GameSeatAdmin(admin.ModelAdmin):
    list_display = ["game", "seat", "player"]
    search_fields = ["player__first_name", "player__last_name"]
    list_filter = ["seat"]
    raw_id_fields = ["game"]
    autocomplete_fields = ["player"]


@admin.register(Hand)
class HandAdmin(admin.ModelAdmin):
    list_display = ["game", "number", "tiles", "entered_by", "updated_at"]
    search_fields = ["game__id", "tiles"]
    list_filter = ["updated_at"]
    readonly_fields = ["game", "number", "data", "tiles", "entered_by", "created_at", "updated_at"]

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(GamePenalty)
class GamePenaltyAdmin(admin.ModelAdmin):
    list_display = ["game", "seat", "kind", "points"]
    search_fields = ["note", "kind"]
    list_filter = ["kind"]
    raw_id_fields = ["game"]
