"""Serializers of the shared models (players), used by every app's API."""

from __future__ import annotations

from rest_framework import serializers

from core.models import Player


class PlayerBriefSerializer(serializers.ModelSerializer):
    name = serializers.CharField(source="__str__", read_only=True)

    class Meta:
        model = Player
        fields = ["id", "name", "ema_number"]


class PlayerSerializer(serializers.ModelSerializer):
    class Meta:
        model = Player
        fields = ["id", "first_name", "last_name", "ema_number", "country", "created_at"]
