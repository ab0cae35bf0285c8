"""Serializers of self-registration (issue 35)."""

from __future__ import annotations

from rest_framework import serializers

from core.api.base import inline_choice_field
from tournaments.models import SignUp


class SignUpInputSerializer(serializers.Serializer):
    first_name = serializers.CharField(max_length=100)
    last_name = serializers.CharField(max_length=100)
    country = serializers.CharField(max_length=2, help_text="ISO 3166 two-letter code.")
    email = serializers.CharField(max_length=254)
    consent = serializers.BooleanField(
        help_text="Must be true: the registrant agrees to the storing of the data (privacy page)."
    )
    ema_number = serializers.CharField(
        max_length=20,
        required=False,
        allow_blank=True,
        allow_null=True,
        default=None,
        help_text="8 digits.",
    )
    club = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")
    team = serializers.CharField(
        max_length=100,
        required=False,
        allow_blank=True,
        default="",
        help_text="A team event's team, by name (case ignored; created on first use). Refused "
        "(400, field team) when the tournament is not a team event.",
    )
    website = serializers.CharField(
        max_length=200,
        required=False,
        allow_blank=True,
        default="",
        help_text="Leave empty (a field only bots fill in).",
    )


class SignUpAnswerSerializer(serializers.Serializer):
    """What the registrant is told (the private link goes by e-mail only)."""

    status = inline_choice_field(
        [(c, c) for c in ("registered", "waiting", "pending")],
        help_text='"registered" (a place), "waiting" (the waiting list, first come first '
        'served) or "pending" (the organiser approves sign-ups).',
    )
    first_name = serializers.CharField()
    last_name = serializers.CharField()
    waiting_position = serializers.IntegerField(allow_null=True)


class SignUpSerializer(serializers.ModelSerializer):
    """A sign-up as the organisers see it (e-mail included)."""

    status = inline_choice_field(SignUp.Status.choices, read_only=True)

    class Meta:
        model = SignUp
        fields = [
            "id",
            "first_name",
            "last_name",
            "country",
            "email",
            "ema_number",
            "club",
            "team",
            "status",
            "registration",
            "created_at",
        ]
