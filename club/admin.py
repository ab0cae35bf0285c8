"""Django admin for players, clubs, leagues, ratings and the (read-only) audit log."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from club.models import (
    AuditEntry,
    Club,
    ClubNight,
    IdempotencyRecord,
    League,
    Membership,
    Player,
    Rating,
    RatingChange,
)


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    autocomplete_fields = ["player"]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["last_name", "first_name", "ema_number", "country", "user", "created_at"]
    search_fields = ["first_name", "last_name", "ema_number", "user__username"]
    list_filter = ["country"]
    autocomplete_fields = ["user"]


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "city", "country", "ruleset"]
    search_fields = ["name", "slug", "city"]
    list_filter = ["country", "ruleset"]
    prepopulated_fields = {"slug": ("name",)}
    inlines = [MembershipInline]


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["player", "club", "role", "joined_on"]
    search_fields = ["player__first_name", "player__last_name", "club__name"]
    list_filter = ["role", "club"]
    autocomplete_fields = ["player", "club"]


@admin.register(League)
class LeagueAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "starts_on", "ends_on", "aggregate", "min_games"]
    search_fields = ["name", "club__name"]
    list_filter = ["aggregate", "club"]


@admin.register(ClubNight)
class ClubNightAdmin(admin.ModelAdmin):
    list_display = ["club", "date", "league"]
    search_fields = ["club__name", "notes"]
    list_filter = ["club", "league"]
    date_hierarchy = "date"


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin):
    list_display = ["player", "mu", "sigma", "games", "updated_at"]
    search_fields = ["player__first_name", "player__last_name", "player__ema_number"]
    list_filter = ["updated_at"]


@admin.register(RatingChange)
class RatingChangeAdmin(admin.ModelAdmin):
    list_display = ["player", "game", "mu_before", "mu_after", "created_at"]
    search_fields = ["player__first_name", "player__last_name"]
    list_filter = ["created_at"]
    raw_id_fields = ["game"]


class ReadOnlyAdmin(admin.ModelAdmin):
    """Append-only records: viewable, never added, changed or deleted by hand."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdmin):
    list_display = ["created_at", "actor", "action", "object_type", "object_id", "reason"]
    search_fields = ["action", "object_type", "object_id", "reason", "actor__username"]
    list_filter = ["action", "object_type", "created_at"]
    date_hierarchy = "created_at"


@admin.register(IdempotencyRecord)
class IdempotencyRecordAdmin(ReadOnlyAdmin):
    list_display = ["created_at", "user", "method", "path", "status_code"]
    search_fields = ["key", "path", "user__username"]
    list_filter = ["method", "status_code"]

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return bool(request.user.is_superuser)  # old keys may be purged
