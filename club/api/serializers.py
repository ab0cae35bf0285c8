"""Per-endpoint input and output serializers for players and clubs."""

from __future__ import annotations

from rest_framework import serializers

from club.models import Club, ClubNight, League, Membership
from core.api.base import inline_choice_field
from core.api.serializers import PlayerBriefSerializer
from core.models import Player, country_validator, ema_number_validator
from scoring.engine import PRESETS


# ---- output ---------------------------------------------------------------------------------
class ClubSerializer(serializers.ModelSerializer):
    rule_overrides = serializers.JSONField()

    class Meta:
        model = Club
        fields = [
            "id",
            "slug",
            "name",
            "city",
            "country",
            "ruleset",
            "rule_overrides",
            "ruleset_3p",
            "confirmations",
        ]


class MembershipSerializer(serializers.ModelSerializer):
    player = PlayerBriefSerializer()
    role = inline_choice_field(Membership.Role.choices, read_only=True)

    class Meta:
        model = Membership
        fields = ["player", "role", "joined_on"]


class LeagueSerializer(serializers.ModelSerializer):
    class Meta:
        model = League
        fields = ["id", "name", "starts_on", "ends_on", "aggregate", "best_n", "min_games"]


class ClubNightSerializer(serializers.ModelSerializer):
    class Meta:
        model = ClubNight
        fields = ["id", "date", "league", "notes"]


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField()
    id = serializers.IntegerField(help_text="The token's id in GET /auth/tokens/.")
    expires_at = serializers.DateTimeField(help_text="After this the token is refused.")


class ApiTokenSerializer(serializers.Serializer):
    """One of the user's tokens (the key itself is shown once, at login, never again)."""

    id = serializers.IntegerField()
    name = serializers.CharField()
    prefix = serializers.CharField(help_text="The key's first characters.")
    created_at = serializers.DateTimeField()
    expires_at = serializers.DateTimeField()
    current = serializers.BooleanField(help_text="The token this request was made with.")


# ---- input ----------------------------------------------------------------------------------
class PlayerInputSerializer(serializers.Serializer):
    first_name = serializers.CharField(max_length=100)
    last_name = serializers.CharField(max_length=100)
    ema_number = serializers.CharField(
        max_length=8,
        required=False,
        allow_null=True,
        allow_blank=True,
        validators=[ema_number_validator],
    )
    country = serializers.CharField(
        max_length=2, required=False, allow_blank=True, validators=[country_validator]
    )


class PlayerUpdateInputSerializer(PlayerInputSerializer):
    first_name = serializers.CharField(max_length=100, required=False)
    last_name = serializers.CharField(max_length=100, required=False)


class ClubInputSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=200)
    slug = serializers.SlugField(max_length=50, required=False, allow_blank=True, default="")
    city = serializers.CharField(max_length=100, required=False, allow_blank=True, default="")
    country = serializers.CharField(
        max_length=2, required=False, allow_blank=True, default="", validators=[country_validator]
    )
    ruleset = serializers.ChoiceField(choices=sorted(PRESETS), default="wdmc-2019")
    rule_overrides = serializers.DictField(required=False, default=dict)
    admin = serializers.PrimaryKeyRelatedField(
        queryset=Player.objects.all(),
        required=False,
        allow_null=True,
        help_text="Player id of the club's first admin.",
    )


class MembershipInputSerializer(serializers.Serializer):
    player = serializers.PrimaryKeyRelatedField(queryset=Player.objects.all())
    role = inline_choice_field(Membership.Role.choices, default=Membership.Role.MEMBER)
    joined_on = serializers.DateField(required=False, allow_null=True)


class ClubNightInputSerializer(serializers.Serializer):
    date = serializers.DateField()
    league = serializers.PrimaryKeyRelatedField(
        queryset=League.objects.all(), required=False, allow_null=True
    )
    notes = serializers.CharField(required=False, allow_blank=True, default="")


class OnlineImportInputSerializer(serializers.Serializer):
    log = serializers.CharField(
        trim_whitespace=False,
        help_text="The log: Tenhou mjlog XML, tenhou.net/6 JSON or Mahjong Soul JSON (as text; "
        "a multipart upload of the file under the same name works too).",
    )
    players = serializers.DictField(
        child=serializers.IntegerField(min_value=1, max_value=2**63 - 1),
        required=False,
        default=dict,
        help_text="Site name -> club member's player id, for names not mapped before "
        "(remembered for the club).",
    )
    date = serializers.DateField(
        required=False, allow_null=True, help_text="The club night (default today)."
    )


class NightSeatingInputSerializer(serializers.Serializer):
    players = serializers.PrimaryKeyRelatedField(queryset=Player.objects.all(), many=True)
    seed = serializers.IntegerField(
        required=False, allow_null=True, min_value=-(2**31), max_value=2**31 - 1
    )


class LeagueInputSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=200)
    starts_on = serializers.DateField()
    ends_on = serializers.DateField(required=False, allow_null=True)
    aggregate = serializers.ChoiceField(choices=League.Aggregate.choices, default="sum")
    best_n = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=32767)
    min_games = serializers.IntegerField(required=False, default=0, min_value=0, max_value=32767)
