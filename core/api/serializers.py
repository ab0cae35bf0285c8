"""Serializers of the shared models (players), used by every app's API."""

from __future__ import annotations

from rest_framework import serializers

from core.models import Player


class LookupSlugField(serializers.SlugRelatedField):
    """SlugRelatedField that answers "does not exist" for text no row can hold: PostgreSQL
    refuses NUL characters in a query (DataError, a 500), where DRF's CharField rejects them."""

    def to_internal_value(self, data: object) -> object:
        if isinstance(data, str) and "\x00" in data:
            self.fail("does_not_exist", slug_name=self.slug_field, value=data)
        return super().to_internal_value(data)


class PlayerBriefSerializer(serializers.ModelSerializer):
    name = serializers.CharField(source="__str__", read_only=True)

    class Meta:
        model = Player
        fields = ["id", "name", "ema_number"]


class PlayerSerializer(serializers.ModelSerializer):
    class Meta:
        model = Player
        fields = ["id", "first_name", "last_name", "ema_number", "country", "created_at"]
