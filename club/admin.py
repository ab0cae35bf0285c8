"""Django admin for clubs, memberships, leagues, nights and ratings (players: core.admin)."""

from __future__ import annotations

from django.contrib import admin

from club.models import Club, ClubGame, ClubNight, League, Membership, Rating, RatingChange


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    autocomplete_fields = ["player"]


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


@admin.register(ClubGame)
class ClubGameAdmin(admin.ModelAdmin):
    """Which club night each club game was played at (the night holds the link, issue 14)."""

    list_display = ["game", "night"]
    list_filter = ["night__club"]
    raw_id_fields = ["game", "night"]
