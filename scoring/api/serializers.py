"""Per-endpoint input and output serializers for games, hands and tile evaluation."""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch, prefetch_related_objects
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from core.api.base import inline_choice_field
from core.api.serializers import PlayerBriefSerializer
from core.models import Player
from scoring.engine import PRESETS
from scoring.engine.validate import MAX_HAN, MAX_YAKUMAN
from scoring.models import Game, GameSeat, Hand

from .places import game_places

WINDS = ["E", "S", "W", "N"]
# Seats and their players in one query.
SEATS_WITH_PLAYERS = Prefetch("seats", queryset=GameSeat.objects.select_related("player"))


# ---- output ---------------------------------------------------------------------------------
class GameSeatSerializer(serializers.ModelSerializer):
    player = PlayerBriefSerializer()

    class Meta:
        model = GameSeat
        fields = ["seat", "player"]


class HandOutputSerializer(serializers.ModelSerializer):
    data = serializers.JSONField(  # type: ignore[assignment]  # the Hand.data field
        help_text="One hand object of the game-record format."
    )

    tile_check = serializers.JSONField(
        allow_null=True,
        help_text='With tiles: what they give and where the entry disagrees ({"han", "fu", '
        '"yakuman", "yaku", "mismatches"}); a mismatch does not block the entry.',
    )

    class Meta:
        model = Hand
        fields = [
            "number",
            "data",
            "tiles",
            "tile_check",
            "confirmed",
            "confirmed_by",
            "created_at",
            "updated_at",
        ]


class GameListSerializer(serializers.ModelSerializer):
    # Where the game is played, as the app owning it says (scoring.api.places).
    tournament = serializers.SerializerMethodField()
    session = serializers.SerializerMethodField()
    table = serializers.SerializerMethodField()
    table_number = serializers.SerializerMethodField()
    club_night = serializers.SerializerMethodField()
    seats = GameSeatSerializer(many=True)
    status = inline_choice_field(Game.Status.choices, read_only=True)
    entry = inline_choice_field(Game.Entry.choices, read_only=True)

    class Meta:
        model = Game
        fields = [
            "id",
            "tournament",
            "session",
            "table",
            "table_number",
            "club_night",
            "ruleset",
            "status",
            "entry",
            "end",
            "version",
            "confirmed",
            "seats",
            "finished_at",
            "updated_at",
        ]

    @extend_schema_field(OpenApiTypes.STR)
    def get_tournament(self, game: Game) -> str | None:
        return game_places().fields(game)["tournament"]

    @extend_schema_field(OpenApiTypes.INT)
    def get_session(self, game: Game) -> int | None:
        return game_places().fields(game)["session"]

    @extend_schema_field(OpenApiTypes.INT)
    def get_table(self, game: Game) -> int | None:
        return game_places().fields(game)["table"]

    @extend_schema_field(OpenApiTypes.INT)
    def get_table_number(self, game: Game) -> int | None:
        return game_places().fields(game)["table_number"]

    @extend_schema_field(OpenApiTypes.INT)
    def get_club_night(self, game: Game) -> int | None:
        return game_places().fields(game)["club_night"]


class GameDetailSerializer(GameListSerializer):
    """A game with its hands and the engine's summary (scores after every hand, final result).

    `version` is what the next write must send back as `version`.
    """

    hands = HandOutputSerializer(many=True)
    summary = serializers.JSONField(
        help_text='The engine\'s replay output: "hands", "final", "ended_by", "next".'
    )
    substitutes = serializers.JSONField()
    final_scores = serializers.JSONField()
    rule_overrides = serializers.JSONField()
    entry_confirmed = serializers.BooleanField(
        help_text="False while the paper score sheet or the finish a seated club player "
        "entered waits for the other players (POST .../confirm/); `confirmed` is False then too."
    )
    confirmed_by = serializers.JSONField(
        help_text="The ids of the players who confirmed the game's sheet or finish."
    )

    class Meta(GameListSerializer.Meta):
        fields = [
            *GameListSerializer.Meta.fields,
            "rule_overrides",
            "substitutes",
            "final_scores",
            "entry_confirmed",
            "confirmed_by",
            "hands",
            "summary",
            "created_at",
        ]


_DATETIME = serializers.DateTimeField()


def _when(value: Any) -> Any:
    return None if value is None else _DATETIME.to_representation(value)


def written_game_detail(game: Game) -> dict[str, Any]:
    """GameDetailSerializer(game).data, field for field, for a game a write has just loaded
    (its table, session, tournament, seats with players and hands in memory), without DRF
    building the serializers' fields anew for every answer: that was a fifth of a hand POST's
    CPU (issue 14.7). tests/api/test_api_hand_cost.py holds the two to the same answer."""
    return {
        "id": game.pk,
        **game_places().fields(game),
        "ruleset": game.ruleset,
        "status": game.status,
        "entry": game.entry,
        "end": game.end,
        "version": game.version,
        "confirmed": bool(game.confirmed),
        "seats": [
            {
                "seat": seat.seat,
                "player": {
                    "id": seat.player.pk,
                    "name": str(seat.player),
                    "ema_number": seat.player.ema_number,
                },
            }
            for seat in game.seats.all()
        ],
        "finished_at": _when(game.finished_at),
        "updated_at": _when(game.updated_at),
        "rule_overrides": game.rule_overrides,
        "substitutes": game.substitutes,
        "final_scores": game.final_scores,
        "entry_confirmed": bool(game.entry_confirmed),
        "confirmed_by": game.confirmed_by,
        "hands": [
            {
                "number": hand.number,
                "data": hand.data,
                "tiles": hand.tiles,
                "tile_check": hand.tile_check,
                "confirmed": bool(hand.confirmed),
                "confirmed_by": hand.confirmed_by,
                "created_at": _when(hand.created_at),
                "updated_at": _when(hand.updated_at),
            }
            for hand in game.hands.all()
        ],
        "summary": game.summary,
        "created_at": _when(game.created_at),
    }


def game_payload(game: Game) -> dict[str, Any]:
    """A game as the API shows it after a write: `game` as the service returned it (the row it
    locked and saved, with its table), its seats and hands read afresh."""
    if getattr(game, "_loaded_after_write", False):
        # The write kept the seats and hands it read and wrote (services._common.keep_loaded).
        return written_game_detail(game)
    if hasattr(game, "_prefetched_objects_cache"):
        del game._prefetched_objects_cache  # read before the write: stale
    prefetch_related_objects([game], SEATS_WITH_PLAYERS, "hands")
    return dict(GameDetailSerializer(game).data)


class AuditEntrySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    created_at = serializers.DateTimeField()
    actor = serializers.CharField(source="actor.username", default=None, allow_null=True)
    action = serializers.CharField()
    object_type = serializers.CharField()
    object_id = serializers.CharField()
    game_id = serializers.IntegerField(allow_null=True)
    before = serializers.JSONField(allow_null=True)
    after = serializers.JSONField(allow_null=True)
    reason = serializers.CharField()


# ---- input ----------------------------------------------------------------------------------
class VersionInputSerializer(serializers.Serializer):
    version = serializers.IntegerField(
        min_value=0,
        max_value=2**31 - 1,
        help_text="The game version the client last read (optimistic concurrency).",
    )


class HandInputSerializer(VersionInputSerializer):
    hand = serializers.DictField(help_text="One hand object of the game-record format.")
    tiles = serializers.CharField(
        required=False,
        allow_blank=True,
        default="",
        max_length=120,
        help_text="Optional winning hand in tile notation, cross-checked against han and fu.",
    )


class HandCorrectionInputSerializer(VersionInputSerializer):
    hand = serializers.DictField(help_text="The corrected hand object.")
    tiles = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=120,
        help_text="The winning hand in tile notation; left out keeps the stored tiles, "
        '"" removes them.',
    )
    reason = serializers.CharField(max_length=1000, help_text="Why the hand is corrected.")


class HandDeleteInputSerializer(VersionInputSerializer):
    reason = serializers.CharField(max_length=1000, help_text="Why the last hand is removed.")


class PreviewInputSerializer(serializers.Serializer):
    hand = serializers.DictField(help_text="The hand to try; nothing is written.")


class FinalizeInputSerializer(VersionInputSerializer):
    end = serializers.ChoiceField(
        choices=["complete", "time"],
        required=False,
        help_text='"time": a time-limited session stopped before the rules ended the game '
        "(EMA 2025 7.4: after the session's time signal; before it, organisers only, with a "
        "reason).",
    )
    reason = serializers.CharField(max_length=1000, required=False, allow_blank=True, default="")


class ReopenInputSerializer(VersionInputSerializer):
    reason = serializers.CharField(max_length=1000)


class FinalScoresInputSerializer(VersionInputSerializer):
    scores = serializers.ListField(
        # A table score beyond a million points is no game (4 x 30,000 are in play).
        child=serializers.IntegerField(min_value=-1_000_000, max_value=1_000_000),
        min_length=3,
        max_length=4,
        help_text="Table scores in seat order, as on the paper score sheet.",
    )
    riichi_sticks_left = serializers.IntegerField(min_value=0, max_value=1000, default=0)
    chombo = serializers.ListField(
        child=serializers.IntegerField(min_value=0, max_value=3),
        required=False,
        max_length=40,
        help_text="Seat (0-3) of each chombo on the sheet; a seat may appear more than once. "
        "Under EMA 2025 3.4.6 each is 20,000 deducted after uma.",
    )


@extend_schema_field(OpenApiTypes.INT)
class PlaceField(serializers.PrimaryKeyRelatedField):
    """A place a game is created at (`table`, `club_night`) by id: its rows are those of the
    app naming that kind of place (scoring.api.places; scoring imports neither
    tournaments nor club, issue 14)."""

    def __init__(self, kind: str, **kwargs: Any) -> None:
        self.kind = kind
        super().__init__(**kwargs)

    def get_queryset(self) -> Any:
        return game_places().rows(self.kind)


class GameCreateInputSerializer(serializers.Serializer):
    players = serializers.PrimaryKeyRelatedField(
        queryset=Player.objects.all(),
        many=True,
        help_text="Player ids in seat order: seat 0 is East at the start.",
    )
    club_night = PlaceField("club_night")
    ruleset = serializers.ChoiceField(
        choices=sorted(PRESETS), required=False, help_text="Default: the club's house rules."
    )
    rule_overrides = serializers.DictField(required=False)
    entry = inline_choice_field(Game.Entry.choices, default=Game.Entry.HANDS)


class GameImportInputSerializer(serializers.Serializer):
    record = serializers.DictField(help_text="A whole game record (riichi-game-record/1).")
    players = serializers.PrimaryKeyRelatedField(
        queryset=Player.objects.all(),
        many=True,
        help_text="Player ids for the record's seats, in seat order.",
    )
    club_night = PlaceField("club_night", required=False, allow_null=True)
    table = PlaceField("table", required=False, allow_null=True)
    finalize = serializers.BooleanField(default=True)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if (attrs.get("club_night") is None) == (attrs.get("table") is None):
            raise serializers.ValidationError(
                {"table": "Give exactly one of table and club_night."}
            )
        return attrs


class TileEvaluateInputSerializer(serializers.Serializer):
    notation = serializers.CharField(
        max_length=120, help_text='Tile notation, e.g. "234567m234p2355s+1s".'
    )
    ruleset = serializers.ChoiceField(choices=sorted(PRESETS), default="ema-2025")
    rule_overrides = serializers.DictField(required=False)
    tsumo = serializers.BooleanField(default=False)
    riichi = serializers.BooleanField(default=False)
    ippatsu = serializers.BooleanField(default=False)
    rinshan = serializers.BooleanField(default=False)
    chankan = serializers.BooleanField(default=False)
    haitei = serializers.BooleanField(default=False)
    houtei = serializers.BooleanField(default=False)
    double_riichi = serializers.BooleanField(default=False)
    tenhou = serializers.BooleanField(default=False)
    chiihou = serializers.BooleanField(default=False)
    renhou = serializers.BooleanField(default=False)
    dora_indicators = serializers.ListField(
        child=serializers.CharField(max_length=20), default=list, max_length=5
    )
    ura_indicators = serializers.ListField(
        child=serializers.CharField(max_length=20), default=list, max_length=5
    )
    seat_wind = inline_choice_field(WINDS, default="E")
    round_wind = inline_choice_field(WINDS, default="E")
    # Optional cross-check against what the referee entered.
    han = serializers.IntegerField(required=False, min_value=0, max_value=MAX_HAN)
    fu = serializers.IntegerField(required=False, min_value=0, max_value=110)
    yakuman = serializers.IntegerField(required=False, min_value=0, max_value=MAX_YAKUMAN)


class TileEvaluationSerializer(serializers.Serializer):
    han = serializers.IntegerField()
    fu = serializers.IntegerField(allow_null=True)
    yakuman = serializers.IntegerField()
    yaku = serializers.ListField(child=serializers.DictField())
    dora = serializers.IntegerField()
    fu_details = serializers.ListField(child=serializers.DictField())
    dealer = serializers.BooleanField()
    tsumo = serializers.BooleanField()
    limit = serializers.CharField(allow_null=True)
    payment = serializers.DictField()
    mismatches = serializers.ListField(
        child=serializers.CharField(), help_text="Cross-check against han/fu/yakuman, if given."
    )
