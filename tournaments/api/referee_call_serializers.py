"""Serializers of referee calls (issue 35.2)."""

from __future__ import annotations

from rest_framework import serializers

from core.api.base import inline_choice_field
from tournaments.models import RefereeCall


class RefereeCallInputSerializer(serializers.Serializer):
    note = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")


class RefereeCallSerializer(serializers.ModelSerializer):
    status = inline_choice_field(RefereeCall.Status.choices, read_only=True)
    table_number = serializers.IntegerField(source="table.number", read_only=True)
    session_number = serializers.IntegerField(source="table.session.number", read_only=True)
    since = serializers.DateTimeField(source="created_at", read_only=True)

    class Meta:
        model = RefereeCall
        fields = [
            "id",
            "table",
            "table_number",
            "session_number",
            "status",
            "note",
            "since",
            "acknowledged_at",
            "closed_at",
        ]


class TableExtendInputSerializer(serializers.Serializer):
    minutes = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=120)
    one_more_hand = serializers.BooleanField(required=False, default=False)
    reason = serializers.CharField(max_length=500)


class TableTimeSerializer(serializers.Serializer):
    """A table's own time (issue 35.3)."""

    table = serializers.IntegerField(source="pk")
    number = serializers.IntegerField()
    extra_minutes = serializers.IntegerField()
    one_more_hand = serializers.BooleanField()
    signal_at = serializers.DateTimeField(allow_null=True)
    ends_at = serializers.DateTimeField(allow_null=True)
