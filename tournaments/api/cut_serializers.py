"""Serializers of the cut (issue 32.2): POST /tournaments/{slug}/cut/ and its answer."""

from __future__ import annotations

from rest_framework import serializers

from core.api.base import inline_choice_field
from tournaments.models import Cut


class CutInputSerializer(serializers.Serializer):
    after_session = serializers.IntegerField(
        min_value=1, max_value=32767, help_text="The session after which the field is cut."
    )
    top = serializers.IntegerField(
        min_value=1,
        max_value=100_000,
        help_text="How many players qualify: a multiple of the players of a table, smaller "
        "than the field.",
    )
    carry_over = serializers.BooleanField(
        default=True,
        help_text="true: the qualified players keep their points; false: they start again "
        "from zero.",
    )
    seating = inline_choice_field(
        Cut.Seating.choices,
        default=Cut.Seating.STANDING,
        help_text='The next sessions: "standing" (1-4 at table 1, 5-8 at table 2, ...) or '
        '"swiss" among the qualified players.',
    )
    winds = inline_choice_field(
        Cut.Winds.choices,
        default=Cut.Winds.STANDING,
        help_text='Winds at each table: "standing" (the best placed is East) or "drawn".',
    )
    seed = serializers.IntegerField(
        default=0,
        min_value=-(2**31),
        max_value=2**31 - 1,
        help_text="Seed of the draws (drawn winds; a tie at the line no tie-break settles).",
    )


class CutPromoteInputSerializer(serializers.Serializer):
    replaces = serializers.IntegerField(
        min_value=1, help_text="The player id of a qualified player who has dropped."
    )


class CutSerializer(serializers.ModelSerializer):
    seating = inline_choice_field(Cut.Seating.choices, read_only=True)
    winds = inline_choice_field(Cut.Winds.choices, read_only=True)
    order = serializers.JSONField(
        help_text="The field at the cut, best first: player, name, rank, total, "
        "tie_break_values, dropped, qualified; withdrawn (a finalist who dropped after the "
        "cut) and promoted_for (the player id whose place a promoted player took)."
    )
    line = serializers.JSONField(
        help_text="How the line was drawn: decided_by (total, a tie-break's name, or draw), "
        "last_in, first_out, level_on_total (the players level on points at the line), "
        "passed_over (dropped players above it)."
    )
    qualified = serializers.SerializerMethodField(help_text="Player ids of the qualified.")

    def get_qualified(self, cut: Cut) -> list[int]:
        return cut.qualified_ids

    class Meta:
        model = Cut
        fields = [
            "id",
            "after_session",
            "top",
            "carry_over",
            "seating",
            "winds",
            "seed",
            "qualified",
            "line",
            "order",
            "created_at",
        ]
        read_only_fields = fields
