"""Django admin for players and the (read-only) audit log and idempotency records."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from core.models import AuditEntry, IdempotencyRecord, Player


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["last_name", "first_name", "ema_number", "country", "user", "created_at"]
    search_fields = ["first_name", "last_name", "ema_number", "user__username"]
    list_filter = ["country"]
    autocomplete_fields = ["user"]


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
