"""Django admin for tournaments and everything in them."""

from __future__ import annotations

from django.contrib import admin

from tournaments.models import (
    Penalty,
    Registration,
    Seat,
    SeatingPlan,
    Session,
    StaffRole,
    StandingRow,
    Table,
    Tournament,
)


class StaffRoleInline(admin.TabularInline):
    model = StaffRole
    extra = 0
    autocomplete_fields = ["user"]


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    autocomplete_fields = ["player"]


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "starts_on", "ends_on", "city", "country", "ruleset", "status"]
    search_fields = ["name", "slug", "city"]
    list_filter = ["status", "ruleset", "country"]
    prepopulated_fields = {"slug": ("name",)}
    date_hierarchy = "starts_on"
    inlines = [StaffRoleInline]


@admin.register(StaffRole)
class StaffRoleAdmin(admin.ModelAdmin):
    list_display = ["tournament", "user", "role"]
    search_fields = ["tournament__name", "user__username"]
    list_filter = ["role"]
    autocomplete_fields = ["tournament", "user"]


@admin.register(Registration)
class RegistrationAdmin(admin.ModelAdmin):
    list_display = ["player", "tournament", "club_name", "is_substitute", "dropped_at"]
    search_fields = ["player__first_name", "player__last_name", "player__ema_number", "club_name"]
    list_filter = ["is_substitute", "tournament"]
    autocomplete_fields = ["player", "tournament"]


@admin.register(Session)
class SessionAdmin(admin.ModelAdmin):
    list_display = ["tournament", "number", "status", "starts_at", "started_at", "closed_at"]
    search_fields = ["tournament__name"]
    list_filter = ["status", "tournament"]


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ["session", "number", "game"]
    search_fields = ["session__tournament__name"]
    list_filter = ["session__tournament"]
    raw_id_fields = ["game"]
    inlines = [SeatInline]


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):
    list_display = ["table", "wind", "player"]
    search_fields = ["player__first_name", "player__last_name"]
    list_filter = ["wind", "table__session__tournament"]
    autocomplete_fields = ["player"]


@admin.register(SeatingPlan)
class SeatingPlanAdmin(admin.ModelAdmin):
    list_display = ["tournament", "mode", "seed", "status", "progress", "created_at"]
    search_fields = ["tournament__name", "error"]
    list_filter = ["mode", "status"]
    readonly_fields = ["progress", "plan", "quality", "error", "created_at"]


@admin.register(Penalty)
class PenaltyAdmin(admin.ModelAdmin):
    list_display = ["player", "tournament", "session", "kind", "points", "cancelled_at"]
    search_fields = ["player__first_name", "player__last_name", "reason"]
    list_filter = ["kind", "tournament"]
    autocomplete_fields = ["player", "tournament"]


@admin.register(StandingRow)
class StandingRowAdmin(admin.ModelAdmin):
    list_display = ["tournament", "rank", "player", "total", "penalties", "games"]
    search_fields = ["player__first_name", "player__last_name", "tournament__name"]
    list_filter = ["tournament", "is_substitute", "dropped"]
    readonly_fields = ["computed_at"]
